package compact

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/textnb/textnb/nb"
)

// A decoded Linear with a weight that is NaN, infinite or beyond
// MaxWeight, or a threshold that is not finite, is refused, naming it.
func TestCheckWeights(t *testing.T) {
	if err := cpFit(t).CheckWeights(); err != nil {
		t.Fatalf("a fitted model: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(l *Linear)
	}{
		{"bias 1", func(l *Linear) { l.Bias[1] = math.NaN() }},
		{"P 0", func(l *Linear) { l.P[0] = math.Inf(1) }},
		{"Q 1", func(l *Linear) { l.Q[1] = -2 * MaxWeight }},
		{"cell weight 2", func(l *Linear) { l.Delta[2] = math.Inf(-1) }},
		{"base weight 0", func(l *Linear) { l.Base = make([]float64, l.Features); l.Base[0] = math.NaN() }},
		{"threshold", func(l *Linear) { l.Threshold = math.NaN() }},
	} {
		l := cpFit(t)
		tc.edit(l)
		if err := l.CheckWeights(); !errors.Is(err, nb.ErrNotFinite) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: %v, want nb.ErrNotFinite naming it", tc.name, err)
		}
	}
	l := cpFit(t)
	l.Delta[0], l.Bias[0] = MaxWeight, -MaxWeight
	if err := l.CheckWeights(); err != nil {
		t.Errorf("weights of ±MaxWeight: %v", err)
	}
}
