// Package dense holds the K×F scoring table every text model reduces to,
// and the row helpers that nb's models and compact's share.
package dense

import "math"

// Table is the scoring form every text model reduces to:
// jll = Bias + Σ_j x_j·W[j·K : j·K+K]. Interleaving the classes per feature
// makes scoring one sparse pass that reads K contiguous weights per term.
// With Binary set, x_j counts as 0 when it is at most Threshold and 1
// otherwise, NaN included (Bernoulli NB; see Binarized).
type Table struct {
	K         int
	W         []float64 // features×K
	Bias      []float64 // K
	Binary    bool
	Threshold float64
}

// NumClasses returns K.
func (t *Table) NumClasses() int { return t.K }

// NumFeatures returns the number of feature rows of W.
func (t *Table) NumFeatures() int {
	if t.K == 0 {
		return 0
	}
	return len(t.W) / t.K
}

// Fits reports whether t was built for a model with k classes and n weights.
func (t *Table) Fits(k, n int) bool { return t.K == k && k > 0 && len(t.W) == n }

// JointLogLikelihood appends the K scores of one sparse row; a malformed t
// or a row whose idx and val differ in length scores NaN.
func (t *Table) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	if t.K == 0 || len(t.Bias) != t.K || len(t.W)%t.K != 0 {
		return NaNRow(dst, len(t.Bias))
	}
	return t.Score(dst, idx, val, t.Binary, t.Threshold)
}

// Score appends the row's scores (NaNs if idx and val differ in length),
// binarizing with binary and thr instead of t's fields. t must be well
// formed.
func (t *Table) Score(dst []float64, idx []int32, val []float64, binary bool, thr float64) []float64 {
	if len(val) != len(idx) {
		return NaNRow(dst, t.K)
	}
	n := len(dst)
	dst = append(dst, t.Bias...)
	out := dst[n:]
	k, f := t.K, len(t.W)/t.K
	for p, j := range idx {
		if uint(j) >= uint(f) {
			continue
		}
		v, ok := Binarized(val[p], binary, thr)
		if !ok {
			continue
		}
		w := t.W[int(j)*k : int(j)*k+k]
		w = w[:len(out)] // lets the compiler drop bounds checks
		for c, wc := range w {
			out[c] += v * wc
		}
	}
	return dst
}

// NaNRow appends k NaNs: the score of a model whose fields are inconsistent.
func NaNRow(dst []float64, k int) []float64 {
	for range k {
		dst = append(dst, math.NaN())
	}
	return dst
}

// Binarized returns what a row's value x adds to counts or scores: x
// itself, or with binary nothing (false) if x is at most threshold and 1
// if not (NaN too). Every model that binarizes goes through it.
func Binarized(x float64, binary bool, threshold float64) (float64, bool) {
	if !binary {
		return x, true
	}
	return 1, !(x <= threshold)
}
