package compact

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/internal/finite"
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
		if i := finite.Beyond(w.v, MaxWeight); i >= 0 {
			return fmt.Errorf("%w: %s %d is %g, beyond ±%g", nb.ErrNotFinite, w.name, i, w.v[i], MaxWeight)
		}
	}
	return nil
}

// Validate reports whether s is well formed: consistent lengths, every
// feature's classes strictly increasing below Classes, and counts finite
// and non-negative. Call it on Counts decoded from a file.
func (s *Counts) Validate() error { return s.check() }
