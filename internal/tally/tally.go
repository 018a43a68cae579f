// Package tally holds small counting helpers shared by metrics, the
// multi-label threshold search, pipeline and the command.
package tally

import (
	"cmp"
	"math"
	"slices"
)

// Confusion counts binary decisions.
type Confusion struct{ TP, FP, FN, TN int }

// Add counts one decision.
func (c *Confusion) Add(predicted, truth bool) {
	switch {
	case predicted && truth:
		c.TP++
	case predicted:
		c.FP++
	case truth:
		c.FN++
	default:
		c.TN++
	}
}

// F1 is the harmonic mean of precision and recall, 0 when nothing is
// predicted or true.
func (c Confusion) F1() float64 { return Ratio(2*c.TP, 2*c.TP+c.FP+c.FN) }

// Ratio is a/b, or 0 when b is 0.
func Ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// BoolInt is 1 for true and 0 for false.
func BoolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MeanSD returns the mean of xs and their population standard deviation
// (the squares' mean under the root, as numpy's std), as cross-validation
// reports a score over folds.
func MeanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)))
}

// Ranked appends to dst the indices of v's k largest values (all of them if
// k ≥ len(v)), largest first, ties by index: a prediction's most probable
// classes or labels.
func Ranked(dst []int, v []float64, k int) []int {
	n := len(dst)
	for i := range v {
		dst = append(dst, i)
	}
	SortDesc(dst[n:], v)
	return dst[:n+min(k, len(v))]
}

// SortDesc sorts the indices idx by decreasing v, ties in the order given.
func SortDesc(idx []int, v []float64) {
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v[b], v[a]) })
}

// AtLeast appends to dst every index whose value in proba is at least p,
// most probable first (SortDesc): the labels of a multi-label model that
// a threshold of the caller's, instead of the learned ones, predicts.
func AtLeast(dst []int, proba []float64, p float64) []int {
	n := len(dst)
	for l, v := range proba {
		if v >= p {
			dst = append(dst, l)
		}
	}
	SortDesc(dst[n:], proba)
	return dst
}
