package nb

import (
	"math"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/vectorize"
)

func txtTinyCounts(t *testing.T) *Counts {
	t.Helper()
	c := NewCounts(nil, 3, 3)
	X := vectorize.FromDense([][]float64{{2, 0, 1}, {0, 3, 0}, {1, 1, 0}, {0, 0, 4}})
	if err := c.Add(X, []int{0, 1, 0, 2}, nil); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMultinomialPriors(t *testing.T) {
	c := txtTinyCounts(t)
	emp, uni := &Multinomial{}, &Multinomial{UniformPrior: true}
	given := &Multinomial{UniformPrior: true, ClassPrior: []float64{0.2, 0.3, 0.5}}
	for _, m := range []*Multinomial{emp, uni, given} {
		if err := m.Fit(c); err != nil {
			t.Fatal(err)
		}
	}
	golden.Close(t, "empirical", emp.ClassLogPrior, []float64{math.Log(0.5), math.Log(0.25), math.Log(0.25)}, 1e-15)
	l3 := -math.Log(3)
	golden.Close(t, "uniform", uni.ClassLogPrior, []float64{l3, l3, l3}, 1e-15)
	golden.Close(t, "given", given.ClassLogPrior, []float64{math.Log(0.2), math.Log(0.3), math.Log(0.5)}, 1e-15)
	// Priors do not change the feature probabilities.
	golden.Close(t, "flp", given.FeatureLogProb, emp.FeatureLogProb, 0)
}

// A class without documents gets log prior −Inf (unsmoothed priors) and is
// never predicted.
func TestMultinomialEmptyClass(t *testing.T) {
	var m Multinomial
	txtFit(t, &m, vectorize.FromDense([][]float64{{1, 0}, {0, 1}}), []int{0, 2}, 3)
	if !math.IsInf(m.ClassLogPrior[1], -1) {
		t.Fatalf("empty class log prior %v, want -Inf", m.ClassLogPrior[1])
	}
	p := Proba(nil, m.JointLogLikelihood(nil, []int32{0, 1}, []float64{1, 1}))
	if p[1] != 0 || math.Abs(p[0]+p[2]-1) > 1e-15 {
		t.Fatalf("posteriors %v", p)
	}
}

// Fit is deterministic and refitting replaces the parameters.
func TestMultinomialRefit(t *testing.T) {
	c := txtTinyCounts(t)
	var m Multinomial
	if err := m.Fit(c); err != nil {
		t.Fatal(err)
	}
	first := jointLogLikelihoodCSR(&m, vectorize.FromDense([][]float64{{1, 1, 1}}))
	c2 := NewCounts(nil, 3, 3)
	if err := c2.Add(vectorize.FromDense([][]float64{{0, 0, 9}}), []int{1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Fit(c2); err != nil {
		t.Fatal(err)
	}
	if err := m.Fit(c); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "refit", jointLogLikelihoodCSR(&m, vectorize.FromDense([][]float64{{1, 1, 1}})), first, 0)
}
