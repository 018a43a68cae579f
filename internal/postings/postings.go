// Package postings is the column-wise view of a sparse matrix (row ids per
// column, with roaring bitmaps for frequent columns), for document
// frequencies and class-conditional counts, as feature selection needs
// them.
package postings

import (
	"errors"
	"fmt"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/sparse"
)

var (
	// ErrLabels reports class labels that do not fit the matrix or the
	// number of classes.
	ErrLabels = errors.New("postings: invalid class labels")
)

// Postings is the column-wise (posting list) view of a matrix: for every
// column, the rows (documents) where it is non-zero, in order, with their
// values. Columns found in at least DenseDF rows also get a roaring bitmap,
// which makes intersections with document sets (a class, the labeled
// documents) cheap; a bitmap per rare column would cost far more memory
// than its few row ids. Stored zeros are not postings. A Postings is
// read-only and safe for concurrent use.
type Postings struct {
	rows   int
	colptr []int             // column j's postings are [colptr[j], colptr[j+1])
	docs   []uint32          // row ids, ascending within a column
	vals   []float64         // values, parallel to docs; nil when all are 1
	dense  []*roaring.Bitmap // per column: its rows if it has ≥ DenseDF of them, else nil
}

// DenseDF is the document frequency from which a column gets a bitmap.
const DenseDF = 64

// New indexes X. Bitmaps are built on up to workers goroutines (≤ 0:
// GOMAXPROCS), each owning whole columns, so none need merging (FastOr).
func New(X *sparse.CSR, workers int) (*Postings, error) {
	if err := X.Validate(); err != nil {
		return nil, err
	}
	p := &Postings{rows: X.Rows, colptr: make([]int, X.Cols+1), dense: make([]*roaring.Bitmap, X.Cols)}
	p.transpose(X)
	parallel.Chunks(X.Cols, 1024, workers, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			if rows := p.column(j); len(rows) >= DenseDF {
				p.dense[j] = roaring.New()
				p.dense[j].AddMany(rows)
			}
		}
	})
	return p, nil
}

// transpose fills colptr, docs and vals with X's non-zero entries by column;
// vals stays nil when every value is 1.
func (p *Postings) transpose(X *sparse.CSR) {
	ones := true
	for k, j := range X.Indices {
		if v := X.Data[k]; v != 0 {
			p.colptr[j+1]++
			ones = ones && v == 1
		}
	}
	for j := 0; j < X.Cols; j++ {
		p.colptr[j+1] += p.colptr[j]
	}
	nnz := p.colptr[X.Cols]
	p.docs = make([]uint32, nnz)
	if !ones {
		p.vals = make([]float64, nnz)
	}
	next := slices.Clone(p.colptr[:X.Cols])
	for i := 0; i < X.Rows; i++ {
		idx, val := X.Row(i)
		for k, j := range idx {
			if v := val[k]; v != 0 {
				p.docs[next[j]] = uint32(i)
				if !ones {
					p.vals[next[j]] = v
				}
				next[j]++
			}
		}
	}
}

// column returns the ascending row ids of column j (nil if out of range).
func (p *Postings) column(j int) []uint32 {
	if j < 0 || j >= len(p.dense) {
		return nil
	}
	return p.docs[p.colptr[j]:p.colptr[j+1]]
}

// ColumnRows returns the ascending row ids of column col (nil if out of
// range). The caller must not modify them.
func (p *Postings) ColumnRows(col int) []uint32 { return p.column(col) }

// HasBitmap reports whether column col has a bitmap (at least DenseDF
// rows), with which DFIn intersects instead of testing each row.
func (p *Postings) HasBitmap(col int) bool { return p.bitmap(col) != nil }

// Rows returns the number of rows (documents) indexed.
func (p *Postings) Rows() int { return p.rows }

// Cols returns the number of columns.
func (p *Postings) Cols() int { return len(p.dense) }

// DF returns the number of rows where column col is non-zero (0 if col is
// out of range).
func (p *Postings) DF(col int) uint64 { return uint64(len(p.column(col))) }

// DFIn returns the number of rows in set where column col is non-zero, such
// as the documents of one class (see ClassDocs).
func (p *Postings) DFIn(col int, set *roaring.Bitmap) uint64 {
	if set == nil {
		return 0
	}
	if b := p.bitmap(col); b != nil {
		return b.AndCardinality(set)
	}
	var n uint64
	for _, r := range p.column(col) {
		if set.Contains(r) {
			n++
		}
	}
	return n
}

// Docs returns a new bitmap of the rows where column col is non-zero.
func (p *Postings) Docs(col int) *roaring.Bitmap {
	if b := p.bitmap(col); b != nil {
		return b.Clone()
	}
	return roaring.BitmapOf(p.column(col)...)
}

func (p *Postings) bitmap(col int) *roaring.Bitmap {
	if col < 0 || col >= len(p.dense) {
		return nil
	}
	return p.dense[col]
}

// ClassDocs returns one bitmap of row ids per class for labels y in
// [0, nClasses).
func ClassDocs(y []int, nClasses int) ([]*roaring.Bitmap, error) {
	if err := checkLabels(y, nClasses); err != nil {
		return nil, err
	}
	out := make([]*roaring.Bitmap, nClasses)
	for c := range out {
		out[c] = roaring.New()
	}
	for i, c := range y {
		out[c].Add(uint32(i))
	}
	return out, nil
}

func checkLabels(y []int, nClasses int) error {
	for i, c := range y {
		if c < 0 || c >= nClasses {
			return fmt.Errorf("%w: label %d of row %d not in [0, %d)", ErrLabels, c, i, nClasses)
		}
	}
	return nil
}
