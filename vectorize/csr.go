package vectorize

import "github.com/textnb/textnb/internal/sparse"

// CSR is a compressed sparse row matrix of float64 values.
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

// sparseOf returns m as the internal matrix type, which has m's fields.
func sparseOf(m *CSR) *sparse.CSR { return (*sparse.CSR)(m) }

// NewCSR returns an empty matrix with cols columns, ready for AppendRow.
func NewCSR(cols int) *CSR { return (*CSR)(sparse.NewCSR(cols)) }

// FromDense builds a CSR matrix from dense rows, keeping the non-zero entries.
func FromDense(rows [][]float64) *CSR { return (*CSR)(sparse.FromDense(rows)) }

// AppendRow adds a row whose entries are given by strictly increasing column
// ids idx and values val.
func (m *CSR) AppendRow(idx []int32, val []float64) { sparseOf(m).AppendRow(idx, val) }

// Row returns views of row i's column ids and values; they alias m.
func (m *CSR) Row(i int) (idx []int32, val []float64) { return sparseOf(m).Row(i) }

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Indices) }

// Validate checks the structural invariants of m (ErrShape).
func (m *CSR) Validate() error { return sparseOf(m).Validate() }
