package sparse

// ColumnSums sets dst to the sum of each column and returns it, for the tests:
// no production code sums columns.
func (m *CSR) ColumnSums(dst []float64) []float64 {
	dst = resize(dst, m.Cols)
	for k, j := range m.Indices {
		dst[j] += m.Data[k]
	}
	return dst
}
