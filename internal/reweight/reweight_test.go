package reweight

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// TestGains checks the gains of one pass by hand: three documents of two
// classes, one misranked; its row goes to the rest of the class that took
// it (or to its own class with Own), weighted by η times the excess.
func TestGains(t *testing.T) {
	X := vectorize.NewCSR(2)
	X.AppendRow([]int32{0}, []float64{1})
	X.AppendRow([]int32{1}, []float64{1})
	X.AppendRow([]int32{0}, []float64{1}) // class 1, but looks like class 0
	y := []int{0, 1, 1}
	pos, err := compact.CountRows(nil, 2, y, 2, func(i int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := X.Row(i)
		return append(idx, ri...), append(val, rv...)
	})
	if err != nil {
		t.Fatal(err)
	}
	tot := []float64{2, 1}
	task := Task{Classes: 2, Features: 2, Docs: []int{0, 1, 2}, Row: X.Row,
		Holds: func(i, c int) bool { return y[i] == c },
		Fit: func(dst *compact.Linear, g *compact.Counts) (*compact.Linear, error) {
			return RestLinear(dst, pos, tot, 3, g, 1, false)
		},
		LogProbs: Softmax}
	if g, err := Gains(task, 0, 20); g != nil || err != nil {
		t.Fatalf("no passes: %v, %v", g, err)
	}
	lin, _ := task.Fit(nil, nil)
	jll := lin.JointLogLikelihood(nil, []int32{0}, []float64{1})
	Softmax(jll)
	want := 20 * (math.Exp(jll[0]) - 0.5)
	if want <= 0 {
		t.Fatalf("document 2 is not misranked: %v", jll)
	}
	for _, own := range []bool{false, true} {
		task.Own = nil
		at := 0 // the rest of class 0, which took document 2
		if own {
			task.Own, at = func(i int) int { return y[i] }, 1
		}
		g, err := Gains(task, 1, 20)
		if err != nil {
			t.Fatal(err)
		}
		d := g.Dense()
		for c := range 2 {
			for j := range 2 {
				w := 0.0
				if c == at && j == 0 {
					w = want
				}
				if got := d.FeatureCount[c*2+j]; math.Abs(got-w) > 1e-12 {
					t.Errorf("own %v: gain of class %d feature %d = %g, want %g", own, c, j, got, w)
				}
			}
		}
		if own && (d.ClassCount[0] != 0 || d.ClassCount[1] != 0) {
			t.Errorf("own: gains count documents %v", d.ClassCount)
		}
	}
	// RestLinear without gains is Complement NB.
	cnb, err := compact.Fit(&nb.Complement{Alpha: 1}, pos)
	if err != nil {
		t.Fatal(err)
	}
	a, b := lin.Dense(), cnb.Dense()
	for i := range a.W {
		if math.Abs(a.W[i]-b.W[i]) > 1e-12 {
			t.Fatalf("weight %d: %g, Complement NB %g", i, a.W[i], b.W[i])
		}
	}
}

// TestGainColumnsIsGain checks that gainColumns, the fast path, sums what
// gain does bit for bit, also in the memory of an earlier pass's counts.
func TestGainColumnsIsGain(t *testing.T) {
	const K, F, n = 7, 50, 200
	rng := rand.New(rand.NewPCG(1, 2))
	X := vectorize.NewCSR(F)
	for range n {
		var idx []int32
		var val []float64
		for j := range F {
			if rng.IntN(5) == 0 {
				idx, val = append(idx, int32(j)), append(val, rng.Float64()/3)
			}
		}
		X.AppendRow(idx, val)
	}
	docs := make([]int, 0, n)
	for i := range n {
		if i%9 != 4 {
			docs = append(docs, i)
		}
	}
	w := make([]float64, len(docs)*K)
	for p := range w {
		if rng.IntN(3) == 0 {
			w[p] = 40 * rng.Float64()
		}
	}
	task := Task{Classes: K, Features: F, Docs: docs, Row: X.Row}
	want, err := task.gain(w)
	if err != nil {
		t.Fatal(err)
	}
	parts := task.parts(false)
	var s gainScratch
	var dst *compact.Counts // the second pass reuses the first's counts
	for pass := range 2 {
		got, err := task.gainColumns(dst, parts, w, &s)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("pass %d: gainColumns differs from gain", pass)
		}
		dst = got
	}
}

// TestColumnsScoreIsJointLogLikelihood checks that scoring by columns, the
// fast path of Gains, gives each document's JointLogLikelihood bit for bit.
func TestColumnsScoreIsJointLogLikelihood(t *testing.T) {
	const K, F, n = 40, 60, 150 // more classes than a Scorer lays out
	rng := rand.New(rand.NewPCG(3, 4))
	X := vectorize.NewCSR(F)
	y := make([]int, n)
	for i := range n {
		var idx []int32
		var val []float64
		for j := range F {
			if rng.IntN(4) == 0 {
				idx, val = append(idx, int32(j)), append(val, rng.Float64())
			}
		}
		X.AppendRow(idx, val)
		y[i] = rng.IntN(K)
	}
	pos, err := compact.CountRows(nil, F, y, K, func(i int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := X.Row(i)
		return append(idx, ri...), append(val, rv...)
	})
	if err != nil {
		t.Fatal(err)
	}
	tot := FeatureTotals(pos)
	for _, odds := range []bool{false, true} {
		lin, err := RestLinear(nil, pos, tot, n, nil, 0.5, odds)
		if err != nil {
			t.Fatal(err)
		}
		cols := newColumns(F, n, X.Row)
		jll, sx, sb := make([]float64, n*K), make([]float64, n), make([]float64, n)
		cols.score(jll, sx, sb, lin)
		for i := range n {
			idx, val := X.Row(i)
			want := lin.JointLogLikelihood(nil, idx, val)
			for c, v := range want {
				if math.Float64bits(jll[i*K+c]) != math.Float64bits(v) {
					t.Fatalf("odds %v: document %d class %d scores %v by columns, %v by row", odds, i, c, jll[i*K+c], v)
				}
			}
		}
	}
}

// TestLessIsTheOthersSum checks that a reweighting's gains less a part's
// (Sum of the part's weights) are the other documents' gains to rounding,
// with their cells, and that Sum refuses weights of the wrong length.
func TestLessIsTheOthersSum(t *testing.T) {
	const K, F, n = 6, 40, 120
	rng := rand.New(rand.NewPCG(3, 4))
	X := vectorize.NewCSR(F)
	for range n {
		var idx []int32
		var val []float64
		for j := range F {
			if rng.IntN(4) == 0 {
				idx, val = append(idx, int32(j)), append(val, rng.Float64())
			}
		}
		X.AppendRow(idx, val)
	}
	w := make([]float64, n*K) // document i's weights at i·K
	for p := range w {
		if rng.IntN(4) == 0 {
			w[p] = 40 * rng.Float64()
		}
	}
	sub := func(in func(i int) bool) (Task, []float64) {
		t := Task{Classes: K, Features: F, Row: X.Row}
		var ws []float64
		for i := range n {
			if in(i) {
				t.Docs, ws = append(t.Docs, i), append(ws, w[i*K:(i+1)*K]...)
			}
		}
		return t, ws
	}
	sum := func(in func(i int) bool) *compact.Counts {
		task, ws := sub(in)
		g, err := Sum(nil, task, ws)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	all := sum(func(int) bool { return true })
	var dst *compact.Counts
	for fold := range 3 {
		part := sum(func(i int) bool { return i%3 == fold })
		want := sum(func(i int) bool { return i%3 != fold })
		got, err := Less(dst, all, part)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Ptr, want.Ptr) || !slices.Equal(got.Class, want.Class) || !slices.Equal(got.ClassCount, want.ClassCount) {
			t.Fatalf("fold %d: the others' cells or documents differ", fold)
		}
		for p, v := range got.Count {
			if math.Abs(v-want.Count[p]) > 1e-9*want.Count[p] {
				t.Fatalf("fold %d: cell %d %g, want %g", fold, p, v, want.Count[p])
			}
		}
		dst = got // the next fold reuses its memory
	}
	task, ws := sub(func(int) bool { return true })
	if _, err := Sum(nil, task, ws[1:]); err == nil {
		t.Error("Sum took weights of the wrong length")
	}
}
