package check

import (
	"errors"
	"math"
	"testing"
)

func TestBadAndAlpha(t *testing.T) {
	for v, want := range map[float64]error{0: nil, 2: nil, -1: ErrNegative, math.Inf(1): ErrNotFinite, math.Inf(-1): ErrNegative} {
		if err := Bad(v); err != want {
			t.Errorf("Bad(%g) = %v, want %v", v, err, want)
		}
	}
	if err := Bad(math.NaN()); err != ErrNotFinite {
		t.Errorf("Bad(NaN) = %v, want ErrNotFinite", err)
	}
	for _, c := range []struct{ a, want float64 }{{0, 0.3}, {1e-20, 1e-10}, {2, 2}} {
		if got, err := Alpha(c.a, 0.3, 1e-10); err != nil || got != c.want {
			t.Errorf("Alpha(%g) = %g, %v, want %g", c.a, got, err, c.want)
		}
	}
	for _, a := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := Alpha(a, 0.3, 1e-10); !errors.Is(err, ErrConfig) {
			t.Errorf("Alpha(%g): %v, want ErrConfig", a, err)
		}
	}
}
