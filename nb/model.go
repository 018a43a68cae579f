package nb

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/vectorize"
	"gonum.org/v1/gonum/floats"
)

// Sentinel errors; the returned errors wrap them with the details.
var (
	ErrNegative     = check.ErrNegative  // "nb: negative value"
	ErrNotFinite    = check.ErrNotFinite // "nb: NaN or infinite value"
	ErrShape        = check.ErrShape     // "nb: dimension mismatch"
	ErrLabel        = errors.New("nb: label out of range")
	ErrConfig       = check.ErrConfig // "nb: invalid configuration"
	ErrEmpty        = errors.New("nb: no training documents")
	ErrNotFitted    = errors.New("nb: model not fitted")
	ErrNotConverged = errors.New("nb: did not converge")
)

// Model scores documents. JointLogLikelihood appends one value per class,
// log P(c) + log P(x|c) up to a per-document constant, for the sparse row
// (idx, val) to dst and returns the extended slice. Columns outside the
// model's feature range are ignored (like unseen terms); a row whose idx and
// val differ in length, or a model whose fields are inconsistent, scores NaN. Implementations in
// this package are safe for concurrent scoring.
type Model interface {
	NumClasses() int
	JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64
}

// Estimator is a Model that can be (re)fitted from sufficient statistics.
type Estimator interface {
	Model
	Fit(c *Counts) error
}

// logProba appends the log posteriors jll − logsumexp(jll) to dst.
func logProba(dst, jll []float64) []float64 {
	if len(jll) == 0 {
		return dst
	}
	n := len(dst)
	dst = append(dst, jll...)
	normalizeLog(dst[n:])
	return dst
}

// Proba appends the posteriors exp(jll − logsumexp(jll)) to dst.
func Proba(dst, jll []float64) []float64 {
	n := len(dst)
	dst = logProba(dst, jll)
	for i := n; i < len(dst); i++ {
		dst[i] = math.Exp(dst[i])
	}
	return dst
}

// Argmax returns the index of the largest value, the first on ties; NaN
// never wins. It returns -1 for an empty slice and 0 if all values are NaN.
func Argmax(jll []float64) int {
	if len(jll) == 0 {
		return -1
	}
	best := 0
	for i, v := range jll {
		if v > jll[best] || math.IsNaN(jll[best]) && !math.IsNaN(v) {
			best = i
		}
	}
	return best
}

// checkCSR reports whether X is a well-formed matrix of non-negative,
// finite values with at most features columns (features < 0: any).
func checkCSR(X *vectorize.CSR, features int) error {
	if err := check.Shape(X, features); err != nil {
		return err
	}
	for i := 0; i < X.Rows; i++ {
		idx, val := X.Row(i)
		if err := checkValues(i, idx, val); err != nil { // checkShape checked the columns
			return err
		}
	}
	return nil
}

// checkValues reports a negative or non-finite value in row i.
func checkValues(i int, idx []int32, val []float64) error {
	for p, v := range val {
		if !check.Good(v) {
			return check.Value(i, idx[p], v)
		}
	}
	return nil
}

// LogProbaCSR returns the rows×K log posteriors of X, scoring rows on
// workers goroutines (≤ 0: GOMAXPROCS), or nil if X is malformed. The
// output does not depend on workers.
func LogProbaCSR(m Model, X *vectorize.CSR, workers int) []float64 {
	if X == nil || X.Validate() != nil {
		return nil
	}
	return scoreRows(m, X, nil, workers, make([]float64, 0, X.Rows*m.NumClasses()), nil)
}

// PredictCSR returns the predicted class of every row of X, scoring rows on
// workers goroutines (≤ 0: GOMAXPROCS), or nil if X is malformed. A model
// without classes predicts -1. The output does not depend on workers.
func PredictCSR(m Model, X *vectorize.CSR, workers int) []int {
	if X == nil || X.Validate() != nil {
		return nil
	}
	out := make([]int, X.Rows)
	parallel.Chunks(X.Rows, parallelChunk, workers, func(lo, hi int) {
		var buf []float64
		for i := lo; i < hi; i++ {
			idx, val := X.Row(i)
			buf = m.JointLogLikelihood(buf[:0], idx, val)
			out[i] = Argmax(buf)
		}
	})
	return out
}

// jointRows fills dst with the joint log-likelihoods of the given rows of X
// (all rows if rows is nil), K per row, and calls post, if not nil, on each
// filled row p while it is in cache.
func jointRows(m Model, X *vectorize.CSR, rows []int, workers int, dst []float64, post func(p int, row []float64)) []float64 {
	n, k := scoredRows(m, X, rows), m.NumClasses()
	dst = slices.Grow(dst[:0], n*k)[:n*k]
	parallel.Chunks(n, parallelChunk, workers, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			r := p
			if rows != nil {
				r = rows[p]
			}
			idx, val := X.Row(r)
			// Capping the capacity keeps a misbehaving model from writing
			// into the next row.
			row := dst[p*k : p*k+k]
			copy(row, m.JointLogLikelihood(row[:0:k], idx, val))
			if post != nil {
				post(p, row)
			}
		}
	})
	return dst
}

// scoreRows fills dst with the log posteriors of the given rows of X (all
// rows if rows is nil), K per row; if lse is non-nil it receives each row's
// logsumexp of the joint log-likelihoods.
func scoreRows(m Model, X *vectorize.CSR, rows []int, workers int, dst []float64, lse *[]float64) []float64 {
	if lse != nil {
		n := scoredRows(m, X, rows)
		*lse = slices.Grow((*lse)[:0], n)[:n]
	}
	return jointRows(m, X, rows, workers, dst, func(p int, row []float64) {
		s := normalizeLog(row)
		if lse != nil {
			(*lse)[p] = s
		}
	})
}

// scoredRows returns how many rows jointRows scores: those listed in rows
// (nil: all of X), none if m has no classes.
func scoredRows(m Model, X *vectorize.CSR, rows []int) int {
	switch {
	case m.NumClasses() == 0:
		return 0
	case rows != nil:
		return len(rows)
	}
	return X.Rows
}

// normalizeLog turns a row of joint log-likelihoods into log posteriors in
// place and returns their logsumexp.
func normalizeLog(row []float64) float64 {
	s := floats.LogSumExp(row)
	if a := math.Abs(s); a < hugeScore || math.IsInf(a, 1) || math.IsNaN(a) {
		floats.AddConst(-s, row)
		return s
	}
	// jll − s as scikit-learn computes it would round the posteriors'
	// spread away (scores of 1e17 differing by 1 would all get log
	// posterior 0): take the largest score out first.
	m := floats.Max(row)
	floats.AddConst(-m, row)
	t := floats.LogSumExp(row)
	floats.AddConst(-t, row)
	return m + t
}

// hugeScore is the magnitude of a logsumexp beyond which normalizeLog
// subtracts it in two steps; no fitted model scores a real document that
// high.
const hugeScore = 1 << 32

// parallelChunk is how many rows, features or cells a goroutine takes at a time
// from the loops that nb runs in parallel.
const parallelChunk = 128

// linear is the K×F scoring table of the text models.
type linear = dense.Table

// newTable transposes a K×F row-major matrix into a linear.
func newTable(kf []float64, bias []float64) (linear, error) {
	k := len(bias)
	if k == 0 {
		return linear{}, fmt.Errorf("%w: no classes", ErrNotFitted)
	}
	if len(kf)%k != 0 {
		return linear{}, fmt.Errorf("%w: %d feature weights for %d classes", ErrShape, len(kf), k)
	}
	f := len(kf) / k
	w := make([]float64, len(kf))
	for c := range k {
		for j, v := range kf[c*f : (c+1)*f] {
			w[j*k+c] = v
		}
	}
	return linear{K: k, W: w, Bias: append([]float64(nil), bias...)}, nil
}

// DefaultAlpha is the additive smoothing of a Multinomial, Complement or
// Bernoulli model whose Alpha is 0: textnb's default for text at every
// layer (pipeline and the root package use it too), chosen on text corpora
// (docs/design.md). scikit-learn's default is 1; set it explicitly to match.
const DefaultAlpha = 0.3

// MinAlpha is the least smoothing applied: a positive Alpha below it is
// raised to it (scikit-learn's force_alpha=False clipping). Set Alpha to
// MinAlpha to ask for as little smoothing as there is.
const MinAlpha = 1e-10

// checkCounts validates counts before a fit.
func checkCounts(c *Counts) error {
	if c == nil {
		return fmt.Errorf("%w: nil counts", ErrShape)
	}
	if err := c.checkShape(); err != nil {
		return err
	}
	if err := check.Weights("class count", c.ClassCount); err != nil {
		return err
	}
	if err := check.Weights("feature count", c.FeatureCount); err != nil {
		return err
	}
	if c.total() == 0 {
		return ErrEmpty
	}
	return nil
}

// fitStart validates a fit's inputs and returns the smoothing parameter and
// the class log prior: the steps every discrete model's Fit shares.
func fitStart(alpha float64, c *Counts, uniform bool, given []float64) (float64, []float64, error) {
	alpha, err := check.Alpha(alpha, DefaultAlpha, MinAlpha)
	if err != nil {
		return 0, nil, err
	}
	if err := checkCounts(c); err != nil {
		return 0, nil, err
	}
	prior, err := classLogPrior(c, uniform, given)
	return alpha, prior, err
}

// classLogPrior returns scikit-learn's class_log_prior_: log(given) if
// given, −log K if uniform, otherwise the unsmoothed log frequencies.
func classLogPrior(c *Counts, uniform bool, given []float64) ([]float64, error) {
	k := c.Classes
	out := make([]float64, k)
	switch {
	case given != nil:
		if len(given) != k {
			return nil, fmt.Errorf("%w: %d class priors for %d classes", ErrShape, len(given), k)
		}
		if err := validatePriors(given); err != nil {
			return nil, err
		}
		for i, p := range given {
			out[i] = math.Log(p)
		}
	case uniform:
		for i := range out {
			out[i] = -math.Log(float64(k))
		}
	default:
		logN := math.Log(c.total())
		for i, n := range c.ClassCount {
			out[i] = math.Log(n) - logN
		}
	}
	return out, nil
}

// tableBuilder is a model that can derive its scoring table.
type tableBuilder interface{ buildTable() (linear, error) }

// scoreWith scores with the prepared table t when it matches a model of k
// classes and n feature weights; otherwise (fields set without prepare) it
// builds a temporary table: slow but correct.
func scoreWith(b tableBuilder, t *linear, k, n int, dst []float64, idx []int32, val []float64, binary bool, thr float64) []float64 {
	if t.Fits(k, n) {
		return t.Score(dst, idx, val, binary, thr)
	}
	tmp, err := b.buildTable()
	if err != nil {
		return dense.NaNRow(dst, k)
	}
	return tmp.Score(dst, idx, val, binary, thr)
}
