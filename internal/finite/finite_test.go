package finite

import (
	"math"
	"testing"
)

func TestBeyond(t *testing.T) {
	for _, c := range []struct {
		v     []float64
		limit float64
		want  int
	}{
		{nil, 1, -1},
		{[]float64{0, -1, 1}, 1, -1},
		{[]float64{0, -1.5, 2}, 1, 1},
		{[]float64{1, math.NaN(), math.Inf(1)}, math.MaxFloat64, 1},
		{[]float64{-math.MaxFloat64, math.Inf(-1)}, math.MaxFloat64, 1},
		{[]float64{math.Copysign(0, -1), 5e-324}, 0, 1},
	} {
		if got := Beyond(c.v, c.limit); got != c.want {
			t.Errorf("Beyond(%v, %g) = %d, want %d", c.v, c.limit, got, c.want)
		}
	}
}
