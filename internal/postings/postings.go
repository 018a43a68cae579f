// Package postings is the column-wise view of a sparse matrix (row ids per
// column, with roaring bitmaps for frequent columns), for document
// frequencies, class-conditional counts and chi² feature selection (Chi2,
// SelectTopK).
package postings

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/sparse"
)

var (
	// ErrLabels reports class labels that do not fit the matrix or the
	// number of classes.
	ErrLabels = errors.New("postings: invalid class labels")
	// ErrNegative reports negative values where counts are required.
	ErrNegative = errors.New("postings: negative value")
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

// Chi2 returns scikit-learn's chi2 score per column for labels y (one per
// row, in [0, nClasses)): with observed O[c][j] the sum of column j over the
// rows of class c, F[j] = Σ_c O[c][j] and P[c] the fraction of rows in c,
// score[j] = Σ_c (O[c][j] − P[c]F[j])² / (P[c]F[j]), summed over the classes
// present in y. It uses the values (counts), as scikit-learn does on a
// count matrix; a column with F = 0 scores NaN, as in scikit-learn.
func (p *Postings) Chi2(y []int, nClasses int) ([]float64, error) {
	return p.chi2(y, nClasses, p.vals)
}

// Chi2Binary is Chi2 on the binarized matrix (document counts): scikit-learn's
// chi2 after Binarizer, computed from the row ids alone.
func (p *Postings) Chi2Binary(y []int, nClasses int) ([]float64, error) {
	return p.chi2(y, nClasses, nil)
}

func (p *Postings) chi2(y []int, nClasses int, vals []float64) ([]float64, error) {
	prob, err := p.classProb(y, nClasses)
	if err != nil {
		return nil, err
	}
	for _, v := range vals {
		if v < 0 {
			return nil, fmt.Errorf("%w: chi2 needs non-negative values, found %g", ErrNegative, v)
		}
	}
	scores := make([]float64, p.Cols())
	parallel.Chunks(len(scores), 4096, 0, func(from, to int) {
		obs := make([]float64, nClasses)
		for j := from; j < to; j++ {
			clear(obs)
			lo, hi := p.colptr[j], p.colptr[j+1]
			for k, r := range p.docs[lo:hi] {
				if vals == nil {
					obs[y[r]]++
				} else {
					obs[y[r]] += vals[lo+k]
				}
			}
			scores[j] = chiSquare(obs, prob)
		}
	})
	return scores, nil
}

// classProb returns the fraction of rows per class, checking y.
func (p *Postings) classProb(y []int, nClasses int) ([]float64, error) {
	if len(y) != p.rows {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrLabels, len(y), p.rows)
	}
	if err := checkLabels(y, nClasses); err != nil {
		return nil, err
	}
	prob := make([]float64, nClasses)
	for _, c := range y {
		prob[c]++
	}
	present := 0
	for c := range prob {
		if prob[c] > 0 {
			present++
		}
		prob[c] /= float64(len(y))
	}
	if present < 2 {
		return nil, fmt.Errorf("%w: chi2 needs at least 2 classes with rows, found %d", ErrLabels, present)
	}
	return prob, nil
}

// chiSquare sums (O−E)²/E over the classes present (prob > 0), in
// scikit-learn's order of operations.
func chiSquare(obs, prob []float64) float64 {
	total := 0.0
	for _, o := range obs {
		total += o
	}
	if total == 0 {
		return math.NaN()
	}
	s := 0.0
	for c, o := range obs {
		if prob[c] > 0 {
			e := prob[c] * total
			d := o - e
			s += d * d / e
		}
	}
	return s
}

// SelectTopK returns the ids of the k largest scores in increasing id order.
// It breaks ties like scikit-learn's SelectKBest (a stable ascending sort,
// keeping the last k, so the larger id wins) and ranks NaN lowest.
func SelectTopK(scores []float64, k int) []int32 {
	k = max(0, min(k, len(scores)))
	key := func(i int32) float64 {
		if s := scores[i]; !math.IsNaN(s) {
			return s
		}
		return -math.MaxFloat64
	}
	order := positions(len(scores))
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(key(a), key(b)) })
	top := order[len(order)-k:]
	slices.Sort(top)
	return top
}

// positions returns 0, 1, …, n−1.
func positions(n int) []int32 {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	return pos
}
