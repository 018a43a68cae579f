package nb_test

import (
	"math"
	"testing"

	"github.com/textnb/textnb/nb"
)

// Prepare refuses fitted fields no fit gives, as a decoded model may hold.
func TestPrepareRefusesBadValues(t *testing.T) {
	X := [][]float64{{1, 2}, {1.5, 2.5}, {5, 7}, {6, 6}}
	y := []int{0, 0, 1, 1}
	for name, edit := range map[string]func(g *nb.Gaussian){
		"negative variance": func(g *nb.Gaussian) { g.Var[1] = -1 },
		"subnormal variance": func(g *nb.Gaussian) {
			g.Var[1] = 5e-324
		},
		"NaN mean":         func(g *nb.Gaussian) { g.Theta[0] = math.NaN() },
		"prior above 1":    func(g *nb.Gaussian) { g.ClassPrior[0] = 1.5 },
		"negative count":   func(g *nb.Gaussian) { g.ClassCount[0] = -2 },
		"infinite epsilon": func(g *nb.Gaussian) { g.Epsilon = math.Inf(1) },
	} {
		g := &nb.Gaussian{}
		if err := g.Fit(X, y, 2); err != nil {
			t.Fatal(err)
		}
		edit(g)
		if err := g.Prepare(); err == nil {
			t.Errorf("Gaussian with a %s: prepared", name)
		}
	}
	ids := [][]int{{0, 1}, {1, 1}, {2, 0}, {2, 2}}
	for name, edit := range map[string]func(c *nb.Categorical){
		"no class counts":       func(c *nb.Categorical) { c.ClassCount = nil },
		"2^62 categories":       func(c *nb.Categorical) { c.NCategories[0] = 1 << 62 },
		"no categories":         func(c *nb.Categorical) { c.NCategories[0], c.CategoryCount[0], c.FeatureLogProb[0] = 0, nil, nil },
		"NaN log probability":   func(c *nb.Categorical) { c.FeatureLogProb[1][0] = math.NaN() },
		"log priors above 1":    func(c *nb.Categorical) { c.ClassLogPrior[0] = 0 },
		"negative count":        func(c *nb.Categorical) { c.CategoryCount[0][1] = -1 },
		"overflowing smoothing": func(c *nb.Categorical) { c.Alpha = math.MaxFloat64 },
	} {
		c := &nb.Categorical{}
		if err := c.Fit(ids, y, 2); err != nil {
			t.Fatal(err)
		}
		edit(c)
		if err := c.Prepare(); err == nil {
			t.Errorf("Categorical with %s: prepared", name)
		}
	}
}

// Scores so large that jll − logsumexp(jll) would round their differences
// away still give posteriors that sum to 1.
func TestProbaOfHugeScores(t *testing.T) {
	for _, jll := range [][]float64{{1e17, 1e17, 1e17}, {-1e300, -1e300 + 1e284}, {1e10, 1e10 + 1}} {
		p := nb.Proba(nil, jll)
		var sum float64
		for _, v := range p {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("Proba(%v) = %v, summing to %g", jll, p, sum)
		}
	}
	if p := nb.Proba(nil, []float64{1e17, 1e17}); p[0] != 0.5 || p[1] != 0.5 {
		t.Errorf("Proba of two equal huge scores = %v, want 0.5 each", p)
	}
}
