package compact

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/nb"
)

// MaxWeight bounds the magnitude of every weight of a Linear that
// CheckWeights accepts. Naive Bayes weights are logarithms of probabilities
// or of their ratios, far below it; below it the score of a row whose
// values sum to less than 1e80 stays finite.
const MaxWeight = 1e64

// CheckWeights reports a weight of t (Bias, P, Q, Base or Delta) that is NaN,
// infinite or beyond ±MaxWeight, or a Threshold that is not finite: what a
// damaged or hostile model file could hold, and no fit gives. Call it on a
// Linear decoded from a file, with Validate or Scorer for its shape.
func (t *Linear) CheckWeights() error {
	if math.IsNaN(t.Threshold) || math.IsInf(t.Threshold, 0) {
		return fmt.Errorf("%w: threshold %g", nb.ErrNotFinite, t.Threshold)
	}
	for _, w := range [...]struct {
		name string
		v    []float64
	}{{"bias", t.Bias}, {"P", t.P}, {"Q", t.Q}, {"base weight", t.Base}, {"cell weight", t.Delta}} {
		if i := beyond(w.v, MaxWeight); i >= 0 {
			return fmt.Errorf("%w: %s %d is %g, beyond ±%g", nb.ErrNotFinite, w.name, i, w.v[i], MaxWeight)
		}
	}
	return nil
}

// beyond returns the index of the first value of v that is NaN or whose
// magnitude exceeds limit, or -1. Shifted left, a float's bits order its
// magnitudes as integers, NaN above +Inf: the scan is one branch-free max.
func beyond(v []float64, limit float64) int {
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

// Validate reports whether s is well formed: consistent lengths, every
// feature's classes strictly increasing below Classes, and counts finite
// and non-negative. Call it on Counts decoded from a file.
func (s *Counts) Validate() error { return s.check() }
