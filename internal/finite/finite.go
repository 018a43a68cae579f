// Package finite finds values that are NaN or too large: the check that
// nb's and compact's decoded models share.
package finite

import "math"

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
