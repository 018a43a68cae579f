package compact_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/textnb/textnb/nb"
)

// A decoded CompactLinear with a weight that is NaN, infinite or beyond
// MaxWeight, or a threshold that is not finite, is refused, naming it.
func TestCheckWeights(t *testing.T) {
	if err := cpFit(t).CheckWeights(); err != nil {
		t.Fatalf("a fitted model: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(l *nb.CompactLinear)
	}{
		{"bias 1", func(l *nb.CompactLinear) { l.Bias[1] = math.NaN() }},
		{"P 0", func(l *nb.CompactLinear) { l.P[0] = math.Inf(1) }},
		{"Q 1", func(l *nb.CompactLinear) { l.Q[1] = -2 * nb.MaxWeight }},
		{"cell weight 2", func(l *nb.CompactLinear) { l.Delta[2] = math.Inf(-1) }},
		{"base weight 0", func(l *nb.CompactLinear) { l.Base = make([]float64, l.Features); l.Base[0] = math.NaN() }},
		{"threshold", func(l *nb.CompactLinear) { l.Threshold = math.NaN() }},
	} {
		l := cpFit(t)
		tc.edit(l)
		if err := l.CheckWeights(); !errors.Is(err, nb.ErrNotFinite) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: %v, want ErrNotFinite naming it", tc.name, err)
		}
	}
	l := cpFit(t)
	l.Delta[0], l.Bias[0] = nb.MaxWeight, -nb.MaxWeight
	if err := l.CheckWeights(); err != nil {
		t.Errorf("weights of ±MaxWeight: %v", err)
	}
}
