// Package finite finds values that are NaN or too large: the checks that
// nb's and compact's decoded models, and pipeline's and table's fitted
// weights, share.
package finite

import (
	"fmt"
	"math"
)

// Beyond returns the index of the first value of v that is NaN or whose
// magnitude exceeds limit, or -1. Shifted left, a float's bits order its
// magnitudes as integers, NaN above +Inf: the scan is one branch-free max.
func Beyond(v []float64, limit float64) int {
	lim := math.Float64bits(limit) << 1
	var top uint64
	for _, x := range v {
		top = max(top, math.Float64bits(x)<<1)
	}
	if top <= lim {
		return -1
	}
	for i, x := range v {
		if math.Float64bits(x)<<1 > lim {
			return i
		}
	}
	return -1
}

// Weights reports, wrapping sentinel, fitted weights that overflowed
// because alpha is huge.
func Weights(sentinel error, alpha float64, weights ...[]float64) error {
	for _, w := range weights {
		if i := Beyond(w, math.MaxFloat64); i >= 0 {
			return fmt.Errorf("%w: alpha %g makes weights of %g; use a smaller alpha", sentinel, alpha, w[i])
		}
	}
	return nil
}
