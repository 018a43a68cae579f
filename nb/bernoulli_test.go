package nb

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

// The sparse scoring equals the dense Bernoulli formula over every feature,
// with query rows binarized at the threshold.
func TestBernoulliMatchesDenseFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	X := txtRandomCSR(r, 80, 25, 6)
	y := testkit.Labels(r, X.Rows, 3)
	m := &Bernoulli{Alpha: 0.7, Binarize: 1.5}
	txtFit(t, m, X, y, 3)
	got := jointLogLikelihoodCSR(m, X)
	dense := make([]float64, X.Cols)
	for i := range X.Rows {
		clear(dense)
		idx, val := X.Row(i)
		for p, j := range idx {
			if val[p] > 1.5 {
				dense[j] = 1
			}
		}
		for k := range 3 {
			want := m.ClassLogPrior[k]
			for j, x := range dense {
				lp := m.FeatureLogProb[k*X.Cols+j]
				want += x*lp + (1-x)*math.Log(1-math.Exp(lp))
			}
			if math.Abs(got[i*3+k]-want) > 1e-10 {
				t.Fatalf("row %d class %d: %v, want %v", i, k, got[i*3+k], want)
			}
		}
	}
}

func TestBernoulliBinarizesQuery(t *testing.T) {
	m := &Bernoulli{}
	c := NewCounts(m, 2, 3)
	if err := c.Add(vectorize.FromDense([][]float64{{1, 0, 1}, {0, 2, 0}}), []int{0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := m.Fit(c); err != nil {
		t.Fatal(err)
	}
	a := m.JointLogLikelihood(nil, []int32{0, 2}, []float64{1, 1})
	b := m.JointLogLikelihood(nil, []int32{0, 2}, []float64{7, 0.5})
	golden.Close(t, "binarized query", b, a, 0)
	zero := m.JointLogLikelihood(nil, []int32{1}, []float64{0})
	empty := m.JointLogLikelihood(nil, nil, nil)
	golden.Close(t, "explicit zero", zero, empty, 0)
}

func TestBernoulliCountsMustMatch(t *testing.T) {
	X := vectorize.FromDense([][]float64{{3, 0}, {0, 1}})
	raw := NewCounts(nil, 2, 2)
	if err := raw.Add(X, []int{0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := (&Bernoulli{}).Fit(raw); !errors.Is(err, ErrConfig) {
		t.Fatalf("raw counts into a binarizing model: %v, want ErrConfig", err)
	}
	other := NewCounts(&Bernoulli{Binarize: 0.5}, 2, 2)
	if err := other.Add(X, []int{0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := (&Bernoulli{}).Fit(other); !errors.Is(err, ErrConfig) {
		t.Fatalf("counts binarized at another threshold: %v, want ErrConfig", err)
	}
	// NoBinarize accepts raw counts only of 0/1 data.
	if err := (&Bernoulli{NoBinarize: true}).Fit(raw); !errors.Is(err, ErrConfig) {
		t.Fatalf("non-binary data with NoBinarize: %v, want ErrConfig", err)
	}
	ok := NewCounts(nil, 2, 2)
	if err := ok.Add(vectorize.FromDense([][]float64{{1, 0}, {0, 1}}), []int{0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	if err := (&Bernoulli{NoBinarize: true}).Fit(ok); err != nil {
		t.Fatal(err)
	}
}
