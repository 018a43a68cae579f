package compact

import (
	"fmt"
	"math"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// txtEstimator builds the model a golden case describes.
func txtEstimator(t *testing.T, c golden.Case) nb.Estimator {
	t.Helper()
	alpha, _ := c.Params["alpha"].(float64)
	switch c.Model {
	case "MultinomialNB":
		fitPrior, ok := c.Params["fit_prior"].(bool)
		return &nb.Multinomial{Alpha: alpha, UniformPrior: ok && !fitPrior}
	case "ComplementNB":
		norm, _ := c.Params["norm"].(bool)
		return &nb.Complement{Alpha: alpha, Norm: norm}
	case "BernoulliNB":
		thr, _ := c.Params["binarize"].(float64)
		return &nb.Bernoulli{Alpha: alpha, Binarize: thr}
	}
	t.Fatalf("unknown model %s", c.Model)
	return nil
}

func txtParams(est nb.Estimator) (flp, clp []float64) {
	switch m := est.(type) {
	case *nb.Multinomial:
		return m.FeatureLogProb, m.ClassLogPrior
	case *nb.Complement:
		return m.FeatureLogProb, m.ClassLogPrior
	case *nb.Bernoulli:
		return m.FeatureLogProb, m.ClassLogPrior
	}
	return nil, nil
}

// txtDense is the scoring table of a fitted nb text model, built from its
// fitted fields as its own scoring does.
func txtDense(est nb.Estimator) *Dense {
	flp, clp := txtParams(est)
	k := len(clp)
	f := len(flp) / k
	d := &Dense{K: k, W: make([]float64, len(flp)), Bias: make([]float64, k)}
	for c := range k {
		for j := range f {
			d.W[j*k+c] = flp[c*f+j]
		}
	}
	switch m := est.(type) {
	case *nb.Multinomial:
		copy(d.Bias, clp)
	case *nb.Complement:
		if k == 1 {
			d.Bias[0] = clp[0]
		}
	case *nb.Bernoulli:
		d.Binary, d.Threshold = !m.NoBinarize, m.Binarize
		for c := range k {
			d.Bias[c] = clp[c]
			for j := range f {
				lp := flp[c*f+j]
				neg := math.Log1p(-math.Exp(lp))
				d.W[j*k+c] = lp - neg
				d.Bias[c] += neg
			}
		}
	}
	return d
}

// txtFit counts X and y the way est needs and fits est.
func txtFit(t testing.TB, est nb.Estimator, X *vectorize.CSR, y []int, classes int) *nb.Counts {
	t.Helper()
	c := nb.NewCounts(est, classes, X.Cols)
	if err := c.Add(X, y, nil); err != nil {
		t.Fatal(err)
	}
	if err := est.Fit(c); err != nil {
		t.Fatal(err)
	}
	return c
}

// txtSlice returns rows [lo, hi) of X as a new matrix.
func txtSlice(X *vectorize.CSR, lo, hi int) *vectorize.CSR {
	out := vectorize.NewCSR(X.Cols)
	for i := lo; i < hi; i++ {
		out.AppendRow(X.Row(i))
	}
	return out
}

// jointCSR returns the rows×K joint log-likelihoods of X.
func jointCSR(m nb.Model, X *vectorize.CSR) []float64 {
	var out []float64
	for i := range X.Rows {
		idx, val := X.Row(i)
		out = m.JointLogLikelihood(out, idx, val)
	}
	return out
}

// Term counts of five short documents over the vocabulary
// [ball, goal, vote, party]: two sport (0), three politics (1).
var (
	exampleX = vectorize.FromDense([][]float64{
		{2, 1, 0, 0},
		{1, 2, 0, 1},
		{0, 0, 2, 1},
		{0, 1, 1, 2},
		{0, 0, 3, 1},
	})
	exampleY = []int{0, 0, 1, 1, 1}
)

// denseRemap is Counts.Remap over dense counts, the reference the sparse
// one is tested against: old feature j moves to column oldToNew[j], or is
// dropped when that is negative; several old features may map to one new
// column (their counts add). c is unchanged.
func denseRemap(c *nb.Counts, features int, oldToNew []int32) (*nb.Counts, error) {
	if len(oldToNew) != c.Features {
		return nil, fmt.Errorf("%w: mapping has %d entries for %d features", nb.ErrShape, len(oldToNew), c.Features)
	}
	if len(c.FeatureCount) != c.Classes*c.Features {
		return nil, fmt.Errorf("%w: %d feature counts for %d classes × %d features",
			nb.ErrShape, len(c.FeatureCount), c.Classes, c.Features)
	}
	for j, to := range oldToNew {
		if int(to) >= features {
			return nil, fmt.Errorf("%w: feature %d maps to column %d of %d", nb.ErrShape, j, to, features)
		}
	}
	d := nb.NewCounts(nil, c.Classes, features)
	d.Binary, d.Threshold = c.Binary, c.Threshold
	copy(d.ClassCount, c.ClassCount)
	for k := range c.Classes {
		src := c.FeatureCount[k*c.Features : (k+1)*c.Features]
		dst := d.FeatureCount[k*features : (k+1)*features]
		for j, to := range oldToNew {
			if to >= 0 {
				dst[to] += src[j]
			}
		}
	}
	return d, nil
}
