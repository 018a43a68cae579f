package nb

import (
	"math"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/vectorize"
)

func TestComplementNormWeights(t *testing.T) {
	c := txtTinyCounts(t)
	m := &Complement{Norm: true}
	if err := m.Fit(c); err != nil {
		t.Fatal(err)
	}
	for k := range 3 {
		var sum float64
		for _, w := range m.FeatureLogProb[k*3 : k*3+3] {
			if w <= 0 {
				t.Fatalf("normalized weight %v, want > 0", w)
			}
			sum += w
		}
		if math.Abs(sum-1) > 1e-15 {
			t.Fatalf("class %d weights sum to %v, want 1", k, sum)
		}
	}
}

// Like scikit-learn, the prior is part of the score only with one class.
func TestComplementPriorOnlyForOneClass(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 2}, {3, 0}})
	one := NewCounts(nil, 1, 2)
	if err := one.Add(X, []int{0, 0}, nil); err != nil {
		t.Fatal(err)
	}
	m := &Complement{ClassPrior: []float64{1}}
	if err := m.Fit(one); err != nil {
		t.Fatal(err)
	}
	m.ClassLogPrior[0] = -2 // visible in the score after prepare
	if err := m.prepare(); err != nil {
		t.Fatal(err)
	}
	jll := m.JointLogLikelihood(nil, []int32{0}, []float64{1})
	golden.Close(t, "one class", jll, []float64{-2 + m.FeatureLogProb[0]}, 1e-15)

	two := NewCounts(nil, 2, 2)
	if err := two.Add(X, []int{0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Fit(two); err == nil {
		t.Fatal("one prior accepted for two classes")
	}
	m.ClassPrior = nil
	if err := m.Fit(two); err != nil {
		t.Fatal(err)
	}
	jll = m.JointLogLikelihood(nil, []int32{0}, []float64{1})
	golden.Close(t, "two classes", jll, []float64{m.FeatureLogProb[0], m.FeatureLogProb[2]}, 0)
}
