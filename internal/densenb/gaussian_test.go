package densenb_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/densenb"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/nb"
	"gonum.org/v1/gonum/floats"
)

// logPosteriors appends jll − logsumexp(jll) to dst.
func logPosteriors(dst, jll []float64) []float64 {
	lse := floats.LogSumExp(jll)
	for _, v := range jll {
		dst = append(dst, v-lse)
	}
	return dst
}

// dnCheckQueries compares the scores of every query row with the golden
// outputs, turning them into posteriors.
func dnCheckQueries(t *testing.T, c golden.Case, jll func(dst []float64, row int) []float64) {
	t.Helper()
	var buf, lp, p []float64
	for r := range c.XQuery {
		buf = jll(buf[:0], r)
		golden.Close(t, fmt.Sprintf("row %d jll", r), buf, c.JLL[r], 1e-9)
		lp = logPosteriors(lp[:0], buf)
		golden.Close(t, fmt.Sprintf("row %d log proba", r), lp, c.LogProba[r], 1e-9)
		p = nb.Proba(p[:0], buf)
		golden.Close(t, fmt.Sprintf("row %d proba", r), p, c.Proba[r], 1e-9)
		if got := nb.Argmax(buf); got != c.Predict[r] {
			t.Fatalf("row %d predicted %d, want %d", r, got, c.Predict[r])
		}
	}
}

func TestGaussianGolden(t *testing.T) {
	c := golden.Named(t, "gnb_iris")
	g := densenb.Gaussian{VarSmoothing: c.Params["var_smoothing"].(float64)}
	if err := g.Fit(c.XTrain, c.YTrain, len(c.Classes)); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "theta", g.Theta, slices.Concat(c.Theta...), 1e-9)
	golden.Close(t, "var", g.Var, slices.Concat(c.Var...), 1e-9)
	golden.Close(t, "class prior", g.ClassPrior, c.ClassPrior, 1e-9)
	golden.Close(t, "epsilon", []float64{g.Epsilon}, []float64{c.Epsilon}, 1e-18)
	dnCheckQueries(t, c, func(dst []float64, r int) []float64 {
		return g.JointLogLikelihoodDense(dst, c.XQuery[r])
	})
}

func TestGaussianDefaultVarSmoothing(t *testing.T) {
	c := golden.Named(t, "gnb_iris")
	var g densenb.Gaussian // the golden case uses scikit-learn's default 1e-9
	if err := g.Fit(c.XTrain, c.YTrain, 3); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "epsilon", []float64{g.Epsilon}, []float64{c.Epsilon}, 1e-18)
}

// dnRawVar returns Var without Epsilon.
func dnRawVar(g *densenb.Gaussian) []float64 {
	out := make([]float64, len(g.Var))
	for i, v := range g.Var {
		out[i] = v - g.Epsilon
	}
	return out
}

func TestGaussianPartialFitEqualsFit(t *testing.T) {
	c := golden.Named(t, "gnb_iris")
	var all, part, last densenb.Gaussian
	if err := all.Fit(c.XTrain, c.YTrain, 3); err != nil {
		t.Fatal(err)
	}
	const cut = 40
	for _, b := range [][2]int{{0, cut}, {cut, len(c.XTrain)}} {
		if err := part.PartialFit(c.XTrain[b[0]:b[1]], c.YTrain[b[0]:b[1]], 3); err != nil {
			t.Fatal(err)
		}
	}
	golden.Close(t, "class count", part.ClassCount, all.ClassCount, 0)
	golden.Close(t, "class prior", part.ClassPrior, all.ClassPrior, 1e-15)
	golden.Close(t, "theta", part.Theta, all.Theta, 1e-12)
	golden.Close(t, "raw var", dnRawVar(&part), dnRawVar(&all), 1e-12)

	// As in scikit-learn, Epsilon comes from the last batch alone.
	if err := last.Fit(c.XTrain[cut:], c.YTrain[cut:], 3); err != nil {
		t.Fatal(err)
	}
	if part.Epsilon != last.Epsilon {
		t.Fatalf("epsilon %g, want the last batch's %g", part.Epsilon, last.Epsilon)
	}
	golden.Close(t, "var", part.Var, dnRawVar(&all), 1e-12+part.Epsilon)
}

func TestGaussianMergeEqualsUnion(t *testing.T) {
	c := golden.Named(t, "gnb_iris")
	var all, a, b densenb.Gaussian
	if err := all.Fit(c.XTrain, c.YTrain, 3); err != nil {
		t.Fatal(err)
	}
	const cut = 70
	if err := a.Fit(c.XTrain[:cut], c.YTrain[:cut], 3); err != nil {
		t.Fatal(err)
	}
	// b sees its rows in two batches: Merge must not depend on that.
	if err := b.PartialFit(c.XTrain[cut:90], c.YTrain[cut:90], 3); err != nil {
		t.Fatal(err)
	}
	if err := b.PartialFit(c.XTrain[90:], c.YTrain[90:], 3); err != nil {
		t.Fatal(err)
	}
	var empty densenb.Gaussian
	if err := a.Merge(&empty); err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(&b); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "class count", a.ClassCount, all.ClassCount, 0)
	golden.Close(t, "class prior", a.ClassPrior, all.ClassPrior, 1e-15)
	golden.Close(t, "theta", a.Theta, all.Theta, 1e-12)
	golden.Close(t, "var", a.Var, all.Var, 1e-12)
	golden.Close(t, "epsilon", []float64{a.Epsilon}, []float64{all.Epsilon}, 1e-20)
	var ga, gall []float64
	for _, x := range c.XQuery {
		ga = a.JointLogLikelihoodDense(ga[:0], x)
		gall = all.JointLogLikelihoodDense(gall[:0], x)
		golden.Close(t, "jll", ga, gall, 1e-9)
	}

	// Merging into an unfitted model copies the statistics.
	var into densenb.Gaussian
	if err := into.Merge(&all); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "copied var", into.Var, all.Var, 1e-15)
	golden.Close(t, "copied epsilon", []float64{into.Epsilon}, []float64{all.Epsilon}, 1e-20)
}

func TestGaussianMergeRejectsMismatch(t *testing.T) {
	var a, b densenb.Gaussian
	if err := a.Fit([][]float64{{1, 2}, {3, 4}}, []int{0, 1}, 2); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit([][]float64{{1}, {3}}, []int{0, 1}, 2); err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(a)
	if err := a.Merge(&b); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("merge of 1 feature into 2: %v, want ErrShape", err)
	}
	if err := a.Merge(nil); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("merge nil: %v, want ErrShape", err)
	}
	if fmt.Sprint(a) != before {
		t.Fatal("failed merge changed the model")
	}
}

func TestGaussianConstantColumns(t *testing.T) {
	// Column 1 is constant: Epsilon keeps its variance positive.
	X := [][]float64{{1, 5}, {2, 5}, {3, 5}, {10, 5}, {11, 5}, {12, 5}}
	y := []int{0, 0, 0, 1, 1, 1}
	var g densenb.Gaussian
	if err := g.Fit(X, y, 2); err != nil {
		t.Fatal(err)
	}
	jll := g.JointLogLikelihoodDense(nil, []float64{2, 7})
	dnFinite(t, "constant column", jll)
	if nb.Argmax(jll) != 0 {
		t.Fatalf("jll %v: want class 0", jll)
	}

	// Every column constant: Epsilon is 0 and variances are scored as
	// VarSmoothing, so scores stay finite and equal across classes whose
	// means agree, leaving the priors to decide.
	X = [][]float64{{4, 4}, {4, 4}, {4, 4}}
	y = []int{0, 1, 1}
	if err := g.Fit(X, y, 2); err != nil {
		t.Fatal(err)
	}
	if g.Epsilon != 0 {
		t.Fatalf("epsilon %g, want 0", g.Epsilon)
	}
	for _, x := range [][]float64{{4, 4}, {5, -3}, {1e100, 0}} {
		jll = g.JointLogLikelihoodDense(jll[:0], x)
		dnFinite(t, fmt.Sprint("all constant ", x), jll)
		if x[0] < 1e10 { // far away, the priors vanish in rounding
			lp := logPosteriors(nil, jll)
			golden.Close(t, "log proba", lp, []float64{math.Log(1.0 / 3), math.Log(2.0 / 3)}, 1e-5)
		}
	}
	want := math.Log(1.0/3) - math.Log(2*math.Pi*densenb.DefaultVarSmoothing) - 0.5*(1+49)/densenb.DefaultVarSmoothing
	golden.Close(t, "floored jll", g.JointLogLikelihoodDense(nil, []float64{5, -3})[:1], []float64{want}, 1e-4)
}

func dnFinite(t *testing.T, what string, v []float64) {
	t.Helper()
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatalf("%s: value %d is %g", what, i, x)
		}
	}
}

func TestGaussianRejectsBadInput(t *testing.T) {
	good := [][]float64{{1, 2, 3}, {2, 3, 4}}
	var g densenb.Gaussian
	if err := g.Fit(good, []int{0, 1}, 2); err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(g)
	cases := []struct {
		name    string
		fit     func() error
		want    error
		message string
	}{
		{"NaN", func() error { return g.Fit([][]float64{{1, 2, 3}, {1, 2, math.NaN()}}, []int{0, 1}, 2) },
			nb.ErrNotFinite, "row 1 column 2"},
		{"Inf", func() error { return g.PartialFit([][]float64{{math.Inf(-1), 2, 3}}, []int{0}, 2) },
			nb.ErrNotFinite, "row 0 column 0"},
		{"ragged", func() error { return g.Fit([][]float64{{1, 2, 3}, {1, 2}}, []int{0, 1}, 2) }, nb.ErrShape, "row 1"},
		{"empty", func() error { return g.Fit(nil, nil, 2) }, nb.ErrEmpty, ""},
		{"label", func() error { return g.Fit(good, []int{0, 2}, 2) }, nb.ErrLabel, "row 1"},
		{"labels", func() error { return g.Fit(good, []int{0}, 2) }, nb.ErrShape, ""},
		{"classes", func() error { return g.Fit(good, []int{0, 0}, 0) }, nb.ErrConfig, ""},
		{"features", func() error { return g.PartialFit([][]float64{{1, 2}}, []int{0}, 2) }, nb.ErrShape, ""},
		{"class count", func() error { return g.PartialFit(good, []int{0, 1}, 3) }, nb.ErrShape, ""},
		{"smoothing", func() error {
			h := g
			h.VarSmoothing = -1
			return h.PartialFit(good, []int{0, 1}, 2)
		}, nb.ErrConfig, ""},
	}
	for _, c := range cases {
		err := c.fit()
		if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.message) {
			t.Errorf("%s: error %v, want %v mentioning %q", c.name, err, c.want, c.message)
		}
		if fmt.Sprint(g) != before {
			t.Fatalf("%s: failed fit changed the model", c.name)
		}
	}
	for _, p := range [][]float64{{0.5}, {0.5, 0.6}, {-0.5, 1.5}, {math.NaN(), 1}} {
		h := densenb.Gaussian{Priors: p}
		if err := h.Fit(good, []int{0, 1}, 2); !errors.Is(err, nb.ErrConfig) {
			t.Errorf("priors %v: error %v, want ErrConfig", p, err)
		}
	}
}

func TestGaussianPriorsAndEmptyClass(t *testing.T) {
	X := [][]float64{{0}, {1}, {5}, {6}}
	g := densenb.Gaussian{Priors: []float64{0.1, 0.2, 0.7}}
	if err := g.Fit(X, []int{0, 0, 1, 1}, 3); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "class prior", g.ClassPrior, []float64{0.1, 0.2, 0.7}, 0)
	jll := g.JointLogLikelihoodDense(nil, []float64{0.5})
	if nb.Argmax(jll) != 0 {
		t.Fatalf("jll %v: want class 0", jll)
	}

	// Without priors, an empty class has prior 0: score −Inf, never NaN.
	g.Priors = nil
	if err := g.Fit(X, []int{0, 0, 1, 1}, 3); err != nil {
		t.Fatal(err)
	}
	jll = g.JointLogLikelihoodDense(jll[:0], []float64{0.5})
	if !math.IsInf(jll[2], -1) {
		t.Fatalf("empty class scores %g, want -Inf", jll[2])
	}
}

func TestGaussianUnpreparedAndBadRows(t *testing.T) {
	c := golden.Named(t, "gnb_iris")
	var g densenb.Gaussian
	if err := g.Fit(c.XTrain, c.YTrain, 3); err != nil {
		t.Fatal(err)
	}
	// A model rebuilt from its exported fields scores the same.
	u := densenb.Gaussian{ClassCount: g.ClassCount, ClassPrior: g.ClassPrior, Theta: g.Theta, Var: g.Var, Epsilon: g.Epsilon}
	for _, x := range c.XQuery {
		golden.Close(t, "unprepared", u.JointLogLikelihoodDense(nil, x), g.JointLogLikelihoodDense(nil, x), 1e-10)
	}
	if err := u.Prepare(); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "prepared", u.JointLogLikelihoodDense(nil, c.XQuery[0]), g.JointLogLikelihoodDense(nil, c.XQuery[0]), 0)

	got := g.JointLogLikelihoodDense([]float64{7}, []float64{1, 2})
	if len(got) != 4 || got[0] != 7 || !math.IsNaN(got[1]) {
		t.Fatalf("short row: %v, want [7 NaN NaN NaN]", got)
	}
	u.Theta = u.Theta[:5]
	if err := u.Prepare(); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("Prepare of inconsistent fields: %v, want ErrShape", err)
	}
	if got := u.JointLogLikelihoodDense(nil, c.XQuery[0]); len(got) != 3 || !math.IsNaN(got[0]) {
		t.Fatalf("inconsistent model scored %v, want NaNs", got)
	}
	var unfitted densenb.Gaussian
	if got := unfitted.JointLogLikelihoodDense(nil, []float64{1}); len(got) != 0 {
		t.Fatalf("unfitted model scored %v", got)
	}
}

func BenchmarkGaussianJointLogLikelihoodDense(b *testing.B) {
	c := golden.Named(b, "gnb_iris")
	var g densenb.Gaussian
	if err := g.Fit(c.XTrain, c.YTrain, 3); err != nil {
		b.Fatal(err)
	}
	buf := make([]float64, 0, 3)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = g.JointLogLikelihoodDense(buf[:0], c.XQuery[i%len(c.XQuery)])
	}
}

func ExampleGaussian() {
	X := [][]float64{{1.0, 20}, {1.2, 22}, {0.8, 21}, {3.0, 10}, {3.3, 12}, {2.9, 11}}
	y := []int{0, 0, 0, 1, 1, 1}
	var g densenb.Gaussian
	if err := g.Fit(X, y, 2); err != nil {
		fmt.Println(err)
		return
	}
	jll := g.JointLogLikelihoodDense(nil, []float64{1.1, 19})
	p := nb.Proba(nil, jll)
	fmt.Printf("class %d, P = %.3f\n", nb.Argmax(jll), p[0])
	fmt.Printf("means of class 1: %.2f\n", g.Theta[2:4])
	// Output:
	// class 0, P = 1.000
	// means of class 1: [3.07 11.00]
}
