package sparse

import (
	"errors"
	"fmt"
)

// ErrShape reports matrices or vectors whose dimensions do not agree;
// package vectorize exports it under the same name.
var ErrShape = errors.New("vectorize: dimension mismatch")

// CSR is a compressed sparse row matrix of float64 values: vectorize.CSR,
// with every operation textnb uses.
//
// Row i holds the entries Indices[Indptr[i]:Indptr[i+1]] (column ids, strictly
// increasing within a row) with values Data[Indptr[i]:Indptr[i+1]].
// len(Indptr) == Rows+1 and Indptr[0] == 0.
type CSR struct {
	Rows, Cols int
	Indptr     []int
	Indices    []int32
	Data       []float64
}

// NewCSR returns an empty matrix with cols columns, ready for AppendRow.
func NewCSR(cols int) *CSR {
	return &CSR{Cols: cols, Indptr: []int{0}}
}

// AppendRow adds a row whose entries are given by strictly increasing column
// ids idx and values val.
func (m *CSR) AppendRow(idx []int32, val []float64) {
	m.Indices = append(m.Indices, idx...)
	m.Data = append(m.Data, val...)
	m.Indptr = append(m.Indptr, len(m.Indices))
	m.Rows++
}

// Row returns views of row i's column ids and values; they alias m.
func (m *CSR) Row(i int) (idx []int32, val []float64) {
	lo, hi := m.Indptr[i], m.Indptr[i+1]
	return m.Indices[lo:hi], m.Data[lo:hi]
}

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Indices) }

// Validate checks the structural invariants of m.
func (m *CSR) Validate() error {
	if len(m.Indptr) != m.Rows+1 || m.Indptr[0] != 0 || len(m.Indices) != len(m.Data) {
		return fmt.Errorf("%w: csr with %d rows has %d row pointers, %d indices, %d values",
			ErrShape, m.Rows, len(m.Indptr), len(m.Indices), len(m.Data))
	}
	for i := 0; i < m.Rows; i++ {
		lo, hi := m.Indptr[i], m.Indptr[i+1]
		if lo > hi || hi > len(m.Indices) {
			return fmt.Errorf("%w: row %d pointers [%d,%d) out of order", ErrShape, i, lo, hi)
		}
		prev := int32(-1)
		for _, j := range m.Indices[lo:hi] {
			if j <= prev || int(j) >= m.Cols {
				return fmt.Errorf("%w: row %d column %d out of order or ≥ %d columns", ErrShape, i, j, m.Cols)
			}
			prev = j
		}
	}
	return nil
}

// FromDense builds a CSR matrix from dense rows, keeping the non-zero entries.
func FromDense(rows [][]float64) *CSR {
	cols := 0
	if len(rows) > 0 {
		cols = len(rows[0])
	}
	m := NewCSR(cols)
	var idx []int32
	var val []float64
	for _, r := range rows {
		idx, val = idx[:0], val[:0]
		for j, v := range r {
			if v != 0 {
				idx = append(idx, int32(j))
				val = append(val, v)
			}
		}
		m.AppendRow(idx, val)
	}
	return m
}
