package nb

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/internal/check"
)

// priorEps smooths zero training priors, which the prior-shift formula
// divides by.
const priorEps = 1e-6

// validatePriors checks that p is a probability vector: at least one entry,
// none negative or NaN, summing to 1 within 1e-6.
func validatePriors(p []float64) error {
	if len(p) == 0 {
		return fmt.Errorf("%w: no class priors", ErrShape)
	}
	var sum float64
	for i, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: prior of class %d is %g", ErrNotFinite, i, v)
		}
		if v < 0 {
			return fmt.Errorf("%w: prior of class %d is %g", ErrNegative, i, v)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("%w: class priors sum to %g, want 1", ErrConfig, sum)
	}
	return nil
}

// AdjustPriors appends posteriors corrected for new class priors to dst
// (Saerens, Latinne & Decaestecker 2002):
//
//	p′(c|x) = (π′_c/π_c)·p(c|x) / Σ_k (π′_k/π_k)·p(k|x)
//
// proba holds rows×K posteriors obtained under the training priors train; a
// zero training prior is smoothed first: if any is zero, every π_c becomes
// (π_c + 1e-6)/(1 + K·1e-6). For a Multinomial model this is the same as
// replacing ClassLogPrior with log target.
func AdjustPriors(dst, proba []float64, train, target []float64) ([]float64, error) {
	if err := checkProba(proba, len(train)); err != nil {
		return dst, err
	}
	s, err := NewPriorShift(train, target)
	if err != nil {
		return dst, err
	}
	k := len(train)
	for i := 0; i < len(proba); i += k {
		n := len(dst)
		dst = append(dst, proba[i:i+k]...)
		s.Apply(dst[n:])
	}
	return dst, nil
}

// A PriorShift is AdjustPriors for one row at a time, with the priors
// checked and their ratios computed once: for a stream of predictions.
type PriorShift struct {
	ratio []float64 // target/train, per class
}

// NewPriorShift returns the correction from the training priors train to
// target, which must be probability vectors of the same length.
func NewPriorShift(train, target []float64) (PriorShift, error) {
	if err := validatePriors(train); err != nil {
		return PriorShift{}, fmt.Errorf("training priors: %w", err)
	}
	if len(target) != len(train) {
		return PriorShift{}, fmt.Errorf("%w: %d target priors for %d classes", ErrShape, len(target), len(train))
	}
	if err := validatePriors(target); err != nil {
		return PriorShift{}, fmt.Errorf("target priors: %w", err)
	}
	return PriorShift{ratio: priorRatio(nil, smoothPriors(train), target)}, nil
}

// Apply corrects one row of K posteriors in place.
func (s PriorShift) Apply(row []float64) { reweight(row, s.ratio) }

// smoothPriors returns a copy of p; if some entry is zero, every entry
// becomes (p_c + ε)/(1 + Kε) with ε = 1e-6.
func smoothPriors(p []float64) []float64 {
	out := append([]float64(nil), p...)
	for _, v := range p {
		if v == 0 {
			for c := range out {
				out[c] = (out[c] + priorEps) / (1 + float64(len(p))*priorEps)
			}
			break
		}
	}
	return out
}

// priorRatio sets dst[c] = target[c]/train[c].
func priorRatio(dst, train, target []float64) []float64 {
	dst = dst[:0]
	for c, t := range target {
		dst = append(dst, t/train[c])
	}
	return dst
}

// reweight multiplies row by ratio and normalizes it. A row that the
// weights zero out entirely is left as it was, renormalized.
func reweight(row, ratio []float64) {
	var sum float64
	for c, r := range ratio {
		sum += row[c] * r
	}
	if sum > 0 && !math.IsInf(sum, 0) {
		for c, r := range ratio {
			row[c] *= r / sum
		}
		return
	}
	sum = 0
	for _, v := range row {
		sum += v
	}
	for c := range row {
		row[c] /= sum
	}
}

// checkProba validates a rows×k posterior matrix: non-negative, finite,
// every row with a positive sum.
func checkProba(proba []float64, k int) error {
	if k == 0 || len(proba)%k != 0 {
		return fmt.Errorf("%w: %d posteriors do not form rows of %d classes", ErrShape, len(proba), k)
	}
	for i := 0; i < len(proba); i += k {
		var sum float64
		for c, v := range proba[i : i+k] {
			if err := check.Value(i/k, int32(c), v); err != nil {
				return err
			}
			sum += v
		}
		if sum == 0 {
			return fmt.Errorf("%w: posterior row %d is all zero", ErrShape, i/k)
		}
	}
	return nil
}

// PriorEM estimates the class priors of a new data set from posteriors
// computed under the training priors, by the EM algorithm of Saerens,
// Latinne & Decaestecker (2002); a zero field means its default (see the
// package documentation). Naive Bayes posteriors are over-confident;
// calibrated ones give better estimates.
type PriorEM struct {
	Tol     float64 // stop when no prior moves more than Tol
	MaxIter int
}

// Estimate returns the estimated priors and the number of EM iterations.
// proba holds rows×K posteriors (rows need not be normalized) and train the
// K training priors (zeros are smoothed as in AdjustPriors). If the estimate has not converged after MaxIter
// iterations it is returned with an error wrapping ErrNotConverged.
func (e PriorEM) Estimate(proba []float64, train []float64) ([]float64, int, error) {
	tol, maxIter := e.Tol, e.MaxIter
	if tol == 0 {
		tol = 1e-6
	}
	if maxIter == 0 {
		maxIter = 1000
	}
	if !(tol > 0) || maxIter < 0 {
		return nil, 0, fmt.Errorf("%w: PriorEM Tol %g MaxIter %d", ErrConfig, tol, maxIter)
	}
	if err := checkProba(proba, len(train)); err != nil {
		return nil, 0, err
	}
	if err := validatePriors(train); err != nil {
		return nil, 0, fmt.Errorf("training priors: %w", err)
	}
	k, rows := len(train), len(proba)/len(train)
	train = smoothPriors(train)
	q := append([]float64(nil), train...)
	next := make([]float64, k)
	ratio := make([]float64, k)
	row := make([]float64, k)
	for it := 1; it <= maxIter; it++ {
		ratio = priorRatio(ratio, train, q)
		clear(next)
		for i := 0; i < len(proba); i += k {
			copy(row, proba[i:i+k])
			reweight(row, ratio)
			for c, v := range row {
				next[c] += v
			}
		}
		var delta float64
		for c := range next {
			next[c] /= float64(rows)
			delta = max(delta, math.Abs(next[c]-q[c]))
		}
		q, next = next, q
		if delta < tol {
			return q, it, nil
		}
	}
	return q, maxIter, fmt.Errorf("%w: prior EM moved more than %g after %d iterations", ErrNotConverged, tol, maxIter)
}
