package vectorize

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/internal/idf"
	"github.com/textnb/textnb/internal/parallel"
)

// Norm selects the per-row normalization. The zero value is L2, as in
// scikit-learn.
type Norm uint8

// The norms.
const (
	L2     Norm = iota // divide by the Euclidean length
	L1                 // divide by the sum of absolute values
	NoNorm             // leave rows alone
)

var normNames = [...]string{"l2", "l1", "none"}

func (n Norm) String() string {
	if int(n) < len(normNames) {
		return normNames[n]
	}
	return fmt.Sprintf("Norm(%d)", n)
}

// MarshalText writes the norm's name: "l2", "l1" or "none".
func (n Norm) MarshalText() ([]byte, error) {
	if int(n) >= len(normNames) {
		return nil, fmt.Errorf("%w: norm %d", ErrConfig, n)
	}
	return []byte(normNames[n]), nil
}

// UnmarshalText reads a name MarshalText writes.
func (n *Norm) UnmarshalText(b []byte) error {
	for i, name := range normNames {
		if string(b) == name {
			*n = Norm(i)
			return nil
		}
	}
	return fmt.Errorf("%w: norm %q (want l2, l1 or none)", ErrConfig, b)
}

// NormalizeRow scales one row's values to unit norm n in place; an
// all-zero row is left alone, as scikit-learn's normalize does.
func NormalizeRow(val []float64, n Norm) {
	var s float64
	switch n {
	case L2:
		for _, v := range val {
			s += v * v
		}
		s = math.Sqrt(s)
	case L1:
		for _, v := range val {
			s += math.Abs(v)
		}
	default:
		return
	}
	if s == 0 {
		return
	}
	for k := range val {
		val[k] /= s
	}
}

// TFIDF is scikit-learn's TfidfTransformer (use_idf=True). The zero value
// means smooth IDF, raw term frequencies and L2 rows.
type TFIDF struct {
	// NoSmoothIDF uses ln(n/df)+1 instead of ln((1+n)/(1+df))+1. A column
	// with df = 0 then gets weight 0 where scikit-learn would give +Inf and
	// NaN rows.
	NoSmoothIDF bool
	// SublinearTF replaces a positive tf by 1+ln(tf).
	SublinearTF bool
	Norm        Norm
	// IDF holds one weight per column; Fit sets it, a model file may too.
	IDF []float64
}

// Fit computes IDF from the document frequencies of X's columns.
func (t *TFIDF) Fit(X *CSR) error {
	return fitMatrix(X, &t.IDF, func(n int, df []int64) ([]float64, error) { return idf.TFIDF(n, df, !t.NoSmoothIDF) })
}

// fitMatrix validates X and sets *dst to the weights that fit computes
// from its column counts; on error *dst is unchanged.
func fitMatrix(X *CSR, dst *[]float64, fit func(n int, df []int64) ([]float64, error)) error {
	if err := X.Validate(); err != nil {
		return err
	}
	counts := sparseOf(X).ColumnCounts(nil)
	df := make([]int64, len(counts))
	for j, d := range counts {
		df[j] = int64(d)
	}
	w, err := fit(X.Rows, df)
	if err == nil {
		*dst = w
	}
	return err
}

// Transform weights X in place.
func (t *TFIDF) Transform(X *CSR) error { return transformMatrix(t, X) }

// TransformRow weights one row (as Vocabulary.Transform returns it) in place.
func (t *TFIDF) TransformRow(idx []int32, val []float64) error { return transformRow(t, idx, val) }

func (t *TFIDF) weights() []float64 { return t.IDF }

func (t *TFIDF) transform(idx []int32, val []float64) {
	for k, j := range idx {
		v := val[k]
		if t.SublinearTF && v > 0 {
			v = 1 + logCount(v)
		}
		val[k] = v * t.IDF[j]
	}
	NormalizeRow(val, t.Norm)
}

// logSmall[k] is math.Log(k) and log1pSmall[k] math.Log1p(k): counts are
// mostly small integers, and a table look-up is several times faster than
// the logarithm.
var logSmall, log1pSmall = atSmallCounts(math.Log), atSmallCounts(math.Log1p)

func atSmallCounts(f func(float64) float64) (t [256]float64) {
	for k := range t {
		t[k] = f(float64(k))
	}
	return t
}

// logCount is math.Log(v), from logSmall when v is a small integer.
func logCount(v float64) float64 {
	if k, ok := smallCount(v); ok {
		return logSmall[k]
	}
	return math.Log(v)
}

// log1pCount is math.Log1p(v), from log1pSmall when v is a small integer.
func log1pCount(v float64) float64 {
	if k, ok := smallCount(v); ok {
		return log1pSmall[k]
	}
	return math.Log1p(v)
}

// smallCount returns v as an index of the small-count tables, if it is one.
func smallCount(v float64) (uint8, bool) {
	k := int(v)
	return uint8(k), float64(k) == v && k >= 0 && k < 256
}

// Rennie is the transform of Rennie et al. 2003 (TWCNB steps 1–3):
// d ← ln(1+tf), d ← d·ln(N/df), d ← d/‖d‖₂. It differs from TFIDF: no +1 on
// the IDF, so a term in every document gets weight 0.
type Rennie struct {
	// IDF holds ln(N/df) per column (0 where df = 0); Fit sets it.
	IDF []float64
}

// Fit computes IDF from the document frequencies of X's columns.
func (r *Rennie) Fit(X *CSR) error { return fitMatrix(X, &r.IDF, idf.Rennie) }

// Transform weights X in place.
func (r *Rennie) Transform(X *CSR) error { return transformMatrix(r, X) }

// TransformRow weights one row in place.
func (r *Rennie) TransformRow(idx []int32, val []float64) error { return transformRow(r, idx, val) }

func (r *Rennie) weights() []float64 { return r.IDF }

func (r *Rennie) transform(idx []int32, val []float64) {
	for k, j := range idx {
		val[k] = log1pCount(val[k]) * r.IDF[j]
	}
	NormalizeRow(val, L2)
}

// rowWeighting is a fitted per-column weighting applied row by row.
type rowWeighting interface {
	weights() []float64
	transform(idx []int32, val []float64) // idx already checked
}

func transformMatrix(w rowWeighting, X *CSR) error {
	idf := w.weights()
	if idf == nil {
		return ErrNotFitted
	}
	if err := X.Validate(); err != nil {
		return err
	}
	if X.Cols != len(idf) {
		return fmt.Errorf("%w: matrix has %d columns, weights %d", ErrShape, X.Cols, len(idf))
	}
	// Rows are independent: weight blocks of them in parallel.
	parallel.Chunks(X.Rows, 256, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			w.transform(X.Row(i))
		}
	})
	return nil
}

func transformRow(w rowWeighting, idx []int32, val []float64) error {
	idf := w.weights()
	if idf == nil {
		return ErrNotFitted
	}
	if len(idx) != len(val) {
		return fmt.Errorf("%w: row has %d columns and %d values", ErrShape, len(idx), len(val))
	}
	for _, j := range idx {
		if j < 0 || int(j) >= len(idf) {
			return fmt.Errorf("%w: column %d not below %d weights", ErrShape, j, len(idf))
		}
	}
	w.transform(idx, val)
	return nil
}
