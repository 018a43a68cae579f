package compact

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// The scorer's scores equal its Linear's bit for bit, for every
// compact model, with 2 to 40 classes (beyond MaxScorerClasses it scores
// through the Linear), features with cells in some, all or no
// classes, columns past the model, explicit zeros and a rare NaN.
func TestScorerMatchesLinear(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{2, 3, 20, 32, 33, 40} {
		const f = 300
		X, y := vectorize.NewCSR(f), make([]int, 0, 4*k)
		for i := range cap(y) {
			y = append(y, i%k)
			var idx []int32
			var val []float64
			for j := range f {
				// Features 0–9 occur in every class; the others now and then.
				if j < 10 || r.IntN(8) == 0 {
					idx, val = append(idx, int32(j)), append(val, float64(1+r.IntN(4)))
				}
			}
			X.AppendRow(idx, val)
		}
		for name, est := range cpEstimators() {
			s, err := Count(est, X, y, k)
			if err != nil {
				t.Fatal(err)
			}
			lin, err := Fit(est, s)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := lin.Scorer()
			if err != nil {
				t.Fatal(err)
			}
			if sc.NumClasses() != k || sc.NumFeatures() != f {
				t.Fatalf("scorer of %d×%d says %d×%d", k, f, sc.NumClasses(), sc.NumFeatures())
			}
			for range 50 {
				var idx []int32
				var val []float64
				for j := range f + 20 { // some past the model
					if r.IntN(6) == 0 {
						v := float64(r.IntN(3)) * 0.7
						if r.IntN(500) == 0 {
							v = math.NaN() // binarized it counts as 1, as in Linear
						}
						idx, val = append(idx, int32(j)), append(val, v)
					}
				}
				want := lin.JointLogLikelihood([]float64{1}, idx, val)
				got := sc.JointLogLikelihood([]float64{1}, idx, val)
				for c := range want {
					if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
						t.Fatalf("%s, %d classes: score %d = %v, Linear's %v", name, k, c, got[c], want[c])
					}
				}
			}
			if got := sc.JointLogLikelihood(nil, []int32{1}, nil); len(got) != k || !math.IsNaN(got[0]) {
				t.Fatalf("%s: a row of 1 index and 0 values scores %v, want NaN", name, got)
			}
		}
	}
}

// Binarized, a NaN value counts as present, in the compact forms as in
// Linear.
func TestCompactBinaryNaNCountsAsLinear(t *testing.T) {
	s, err := Count(&nb.Bernoulli{}, exampleX, exampleY, 2)
	if err != nil {
		t.Fatal(err)
	}
	lin, err := Fit(&nb.Bernoulli{}, s)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := lin.Scorer()
	if err != nil {
		t.Fatal(err)
	}
	idx, val := []int32{0, 1}, []float64{math.NaN(), 1}
	want := lin.Dense().JointLogLikelihood(nil, idx, val)
	for name, got := range map[string][]float64{
		"Linear": lin.JointLogLikelihood(nil, idx, val),
		"Scorer": sc.JointLogLikelihood(nil, idx, val),
	} {
		for c := range want {
			if math.IsNaN(got[c]) || math.Abs(got[c]-want[c]) > 1e-12 {
				t.Fatalf("%s scores %v, Linear %v", name, got, want)
			}
		}
	}
}

// Scorer checks a model as Validate does, in its own pass, and fails with
// the same error.
func TestScorerRejectsMalformed(t *testing.T) {
	for name, bad := range map[string]func(*Linear){
		"k":        func(l *Linear) { l.K = 3 },
		"ptrLen":   func(l *Linear) { l.Ptr = l.Ptr[:2] },
		"ptrRange": func(l *Linear) { l.Ptr[1] = 99 },
		"ptrOrder": func(l *Linear) { l.Ptr[1] = -1 },
		"ptrLast":  func(l *Linear) { l.Ptr[len(l.Ptr)-1]-- },
		"class":    func(l *Linear) { l.Class[0] = 2 },
		"repeat": func(l *Linear) { // a class twice in one feature
			for j := range l.Features {
				if p := l.Ptr[j]; l.Ptr[j+1]-p >= 2 {
					l.Class[p+1] = l.Class[p]
					return
				}
			}
		},
		"base": func(l *Linear) { l.Base = []float64{1} },
	} {
		lin := cpFit(t)
		lin.Ptr, lin.Class = slices.Clone(lin.Ptr), slices.Clone(lin.Class)
		bad(lin)
		want := lin.Validate()
		if want == nil {
			t.Fatalf("%s: Validate accepts the model", name)
		}
		if sc, err := lin.Scorer(); err == nil || err.Error() != want.Error() {
			t.Errorf("%s: Scorer = %v, %v; want Validate's error %v", name, sc, err, want)
		}
	}
}

func ExampleScorer() {
	s, err := count(exampleX, exampleY, 2, false, 0)
	if err != nil {
		fmt.Println(err)
	}
	lin, err := Fit(&nb.Complement{}, s)
	if err != nil {
		fmt.Println(err)
	}
	sc, err := lin.Scorer() // once; then score many rows
	if err != nil {
		fmt.Println(err)
	}
	row, val := []int32{0, 1}, []float64{1, 1} // "ball goal"
	jll := sc.JointLogLikelihood(nil, row, val)
	fmt.Println(nb.Argmax(jll), jll[0] == lin.JointLogLikelihood(nil, row, val)[0])
	// Output:
	// 0 true
}

// ScorerLike, given the Scorer of a Linear fitted on the same counts,
// scores as the Linear's own Scorer does, bit for bit, with and without
// base weights; given one of other counts it lays the Linear out itself,
// and a malformed Linear fails as Scorer fails.
func TestScorerLikeMatchesScorer(t *testing.T) {
	d := cpSynthetic()
	s, err := count(d.X, d.y, cpK, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	first, err := Fit(&nb.Complement{Alpha: 0.1}, s)
	if err != nil {
		t.Fatal(err)
	}
	prev, err := first.Scorer()
	if err != nil {
		t.Fatal(err)
	}
	other, err := count(d.X, d.y, cpK, false, 0) // equal counts, other arrays
	if err != nil {
		t.Fatal(err)
	}
	for name, est := range map[string]nb.Estimator{"Complement": &nb.Complement{Alpha: 1}, "ComplementNorm": &nb.Complement{Norm: true},
		"Multinomial": &nb.Multinomial{Alpha: 0.03}} {
		for _, from := range []*Counts{s, other} {
			lin, err := Fit(est, from)
			if err != nil {
				t.Fatal(err)
			}
			got, err := lin.ScorerLike(prev)
			if err != nil {
				t.Fatal(err)
			}
			want, err := lin.Scorer()
			if err != nil {
				t.Fatal(err)
			}
			for i := range 200 {
				idx, val := d.Query.Row(i)
				g, w := got.JointLogLikelihood(nil, idx, val), want.JointLogLikelihood(nil, idx, val)
				for c := range w {
					if math.Float64bits(g[c]) != math.Float64bits(w[c]) {
						t.Fatalf("%s, row %d, class %d: ScorerLike %v, Scorer %v", name, i, c, g[c], w[c])
					}
				}
			}
		}
	}
	bad, err := Fit(&nb.Complement{}, s)
	if err != nil {
		t.Fatal(err)
	}
	bad.Base = []float64{1}
	if _, err := bad.ScorerLike(prev); err == nil || err.Error() != bad.Validate().Error() {
		t.Errorf("a malformed Linear: %v, want Validate's error %v", err, bad.Validate())
	}
}
