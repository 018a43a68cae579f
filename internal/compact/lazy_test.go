package compact

import (
	"math"
	"reflect"
	"testing"

	"github.com/textnb/textnb/nb"
)

// FitLazy's weights equal Fit's bit for bit, whole or read a block at a
// time from any cell.
func TestFitLazyEqualsFit(t *testing.T) {
	d := cpSynthetic()
	ests := cpEstimators()
	ests["MultinomialAlpha"] = &nb.Multinomial{Alpha: 0.01}
	ests["ComplementNormAlpha"] = &nb.Complement{Alpha: 3, Norm: true}
	for name, est := range ests {
		s, err := Count(est, d.X, d.y, cpK)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Fit(est, s)
		if err != nil {
			t.Fatal(err)
		}
		l, err := FitLazy(est, s)
		if err != nil {
			t.Fatal(err)
		}
		if l.Shape().Delta != nil || l.Cells() != len(want.Delta) {
			t.Fatalf("%s: shape has %d weights, cells %d, want none and %d", name, len(l.Shape().Delta), l.Cells(), len(want.Delta))
		}
		got := l.Linear()
		if !reflect.DeepEqual(bitsOf(got), bitsOf(want)) {
			t.Errorf("%s: lazy fit differs from Fit", name)
			continue
		}
		for _, lo := range []int{0, 1, 7, len(want.Delta) / 3, len(want.Delta) - 5} {
			n := min(len(want.Delta)-lo, 1000)
			dst := make([]float64, n)
			l.Deltas(dst, lo)
			for q, v := range dst {
				if math.Float64bits(v) != math.Float64bits(want.Delta[lo+q]) {
					t.Fatalf("%s: cell %d is %v, want %v", name, lo+q, v, want.Delta[lo+q])
				}
			}
		}
	}
}

// bitsOf returns t's float fields as bits, so that NaN compares equal.
func bitsOf(t *Linear) [][]uint64 {
	var out [][]uint64
	for _, v := range [][]float64{t.Bias, t.P, t.Q, t.Base, t.Delta, {t.Threshold}} {
		b := make([]uint64, len(v))
		for i, x := range v {
			b[i] = math.Float64bits(x)
		}
		out = append(out, b)
	}
	return append(out, []uint64{uint64(t.K), uint64(t.Features), uint64(len(t.Ptr)), uint64(len(t.Class))})
}
