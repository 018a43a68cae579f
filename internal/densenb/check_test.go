package densenb_test

import (
	"math"
	"testing"

	"github.com/textnb/textnb/internal/densenb"
)

// Prepare refuses fitted fields no fit gives, as a decoded model may hold.
func TestPrepareRefusesBadValues(t *testing.T) {
	X := [][]float64{{1, 2}, {1.5, 2.5}, {5, 7}, {6, 6}}
	y := []int{0, 0, 1, 1}
	for name, edit := range map[string]func(g *densenb.Gaussian){
		"negative variance": func(g *densenb.Gaussian) { g.Var[1] = -1 },
		"subnormal variance": func(g *densenb.Gaussian) {
			g.Var[1] = 5e-324
		},
		"NaN mean":         func(g *densenb.Gaussian) { g.Theta[0] = math.NaN() },
		"prior above 1":    func(g *densenb.Gaussian) { g.ClassPrior[0] = 1.5 },
		"negative count":   func(g *densenb.Gaussian) { g.ClassCount[0] = -2 },
		"infinite epsilon": func(g *densenb.Gaussian) { g.Epsilon = math.Inf(1) },
	} {
		g := &densenb.Gaussian{}
		if err := g.Fit(X, y, 2); err != nil {
			t.Fatal(err)
		}
		edit(g)
		if err := g.Prepare(); err == nil {
			t.Errorf("Gaussian with a %s: prepared", name)
		}
	}
	ids := [][]int{{0, 1}, {1, 1}, {2, 0}, {2, 2}}
	for name, edit := range map[string]func(c *densenb.Categorical){
		"no class counts":       func(c *densenb.Categorical) { c.ClassCount = nil },
		"2^62 categories":       func(c *densenb.Categorical) { c.NCategories[0] = 1 << 62 },
		"no categories":         func(c *densenb.Categorical) { c.NCategories[0], c.CategoryCount[0], c.FeatureLogProb[0] = 0, nil, nil },
		"NaN log probability":   func(c *densenb.Categorical) { c.FeatureLogProb[1][0] = math.NaN() },
		"log priors above 1":    func(c *densenb.Categorical) { c.ClassLogPrior[0] = 0 },
		"negative count":        func(c *densenb.Categorical) { c.CategoryCount[0][1] = -1 },
		"overflowing smoothing": func(c *densenb.Categorical) { c.Alpha = math.MaxFloat64 },
	} {
		c := &densenb.Categorical{}
		if err := c.Fit(ids, y, 2); err != nil {
			t.Fatal(err)
		}
		edit(c)
		if err := c.Prepare(); err == nil {
			t.Errorf("Categorical with %s: prepared", name)
		}
	}
}
