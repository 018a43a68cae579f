package sparse

import (
	"cmp"
	"fmt"
	"slices"
)

// ColumnCounts sets dst to the number of stored entries per column (the
// document frequency of a count matrix, as scikit-learn's bincount of the
// indices) and returns it, reusing dst's storage when it is large enough.
func (m *CSR) ColumnCounts(dst []int) []int {
	dst = resize(dst, m.Cols)
	for _, j := range m.Indices {
		dst[j]++
	}
	return dst
}

// resize returns a zeroed slice of length n, reusing dst if it can.
func resize[T any](dst []T, n int) []T {
	if cap(dst) < n {
		return make([]T, n)
	}
	dst = dst[:n]
	clear(dst)
	return dst
}

// Clone returns a deep copy of m.
func (m *CSR) Clone() *CSR {
	return &CSR{
		Rows: m.Rows, Cols: m.Cols,
		Indptr:  slices.Clone(m.Indptr),
		Indices: slices.Clone(m.Indices),
		Data:    slices.Clone(m.Data),
	}
}

// Binarize sets the entries above threshold to 1 and removes the others, in
// place, like scikit-learn's Binarizer on a sparse matrix.
func (m *CSR) Binarize(threshold float64) {
	w, lo := 0, 0
	for i := 0; i < m.Rows; i++ {
		hi := m.Indptr[i+1] // read before it is overwritten below
		for k := lo; k < hi; k++ {
			if m.Data[k] > threshold {
				m.Indices[w], m.Data[w] = m.Indices[k], 1
				w++
			}
		}
		m.Indptr[i+1], lo = w, hi
	}
	m.Indices, m.Data = m.Indices[:w], m.Data[:w]
}

// SelectColumns returns the matrix of columns keep, in that order: new column
// i is old column keep[i]. The ids must be distinct and below m.Cols.
func (m *CSR) SelectColumns(keep []int32) (*CSR, error) {
	oldToNew := make([]int32, m.Cols)
	for j := range oldToNew {
		oldToNew[j] = -1
	}
	for i, j := range keep {
		if j < 0 || int(j) >= m.Cols || oldToNew[j] >= 0 {
			return nil, fmt.Errorf("%w: selected column %d at %d is repeated or not below %d", ErrShape, j, i, m.Cols)
		}
		oldToNew[j] = int32(i)
	}
	return m.RemapColumns(oldToNew, len(keep))
}

// RemapColumns returns a copy of m whose column j becomes oldToNew[j] in a
// matrix of cols columns; entries mapped to -1 are dropped. Rows are
// re-sorted only when the map does not keep them in order.
func (m *CSR) RemapColumns(oldToNew []int32, cols int) (*CSR, error) {
	if len(oldToNew) != m.Cols {
		return nil, fmt.Errorf("%w: column map of %d for %d columns", ErrShape, len(oldToNew), m.Cols)
	}
	for j, c := range oldToNew {
		if c < -1 || int(c) >= cols {
			return nil, fmt.Errorf("%w: column %d maps to %d, not below %d", ErrShape, j, c, cols)
		}
	}
	out := &CSR{Rows: m.Rows, Cols: cols, Indptr: make([]int, 1, m.Rows+1),
		Indices: make([]int32, 0, m.NNZ()), Data: make([]float64, 0, m.NNZ())}
	for i := 0; i < m.Rows; i++ {
		start := len(out.Indices)
		idx, val := m.Row(i)
		for k, j := range idx {
			if c := oldToNew[j]; c >= 0 {
				out.Indices = append(out.Indices, c)
				out.Data = append(out.Data, val[k])
			}
		}
		sortRow(out.Indices[start:], out.Data[start:])
		out.Indptr = append(out.Indptr, len(out.Indices))
	}
	return out, nil
}

// sortRow sorts a row's entries by column if they are not sorted already.
func sortRow(idx []int32, val []float64) {
	if slices.IsSorted(idx) {
		return
	}
	type entry struct {
		c int32
		v float64
	}
	e := make([]entry, len(idx))
	for k := range idx {
		e[k] = entry{idx[k], val[k]}
	}
	slices.SortFunc(e, func(a, b entry) int { return cmp.Compare(a.c, b.c) })
	for k := range e {
		idx[k], val[k] = e[k].c, e[k].v
	}
}

// StackRows returns one matrix of cols columns with the rows of parts in
// order (scipy.sparse.vstack). It sets each entry of parts to nil once it
// is copied, so that parts the caller holds nowhere else are collected as
// it goes: the peak stays near the size of the result plus one part.
func StackRows(cols int, parts []*CSR) (*CSR, error) {
	rows, nnz := 0, 0
	for i, p := range parts {
		if p == nil {
			return nil, fmt.Errorf("%w: part %d is nil", ErrShape, i)
		}
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("part %d: %w", i, err)
		}
		if p.Cols != cols {
			return nil, fmt.Errorf("%w: part %d has %d columns, want %d", ErrShape, i, p.Cols, cols)
		}
		rows, nnz = rows+p.Rows, nnz+p.Indptr[p.Rows]
	}
	X := &CSR{Rows: rows, Cols: cols, Indptr: make([]int, 1, rows+1), Indices: make([]int32, 0, nnz), Data: make([]float64, 0, nnz)}
	for i, p := range parts {
		base := len(X.Indices)
		for _, end := range p.Indptr[1:] {
			X.Indptr = append(X.Indptr, base+end)
		}
		end := p.Indptr[p.Rows]
		X.Indices = append(X.Indices, p.Indices[:end]...)
		X.Data = append(X.Data, p.Data[:end]...)
		parts[i] = nil
	}
	return X, nil
}
