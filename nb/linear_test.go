package nb

import (
	"fmt"
	"math"
	"testing"

	"github.com/textnb/textnb/vectorize"
)

// TestLinearScoresLikeModel checks that each text model's Linear form, the
// part a model file keeps, scores exactly as the model itself.
func TestLinearScoresLikeModel(t *testing.T) {
	X := vectorize.FromDense([][]float64{
		{2, 1, 0, 0, 3}, {0, 0, 4, 1, 0}, {1, 0, 0, 2, 0.5}, {0, 3, 1, 0, 0}, {5, 0, 0, 0, 1},
	})
	y := []int{0, 1, 2, 1, 0}
	query := vectorize.FromDense([][]float64{{1, 0, 2, 0, 0}, {0, 0, 0, 0, 0}, {0.2, 7, 0, 1, 1}})
	for _, est := range []Estimator{&Multinomial{Alpha: 0.5}, &Complement{Alpha: 0.3}, &Complement{Norm: true}, &Bernoulli{Binarize: 0.5}} {
		c := NewCounts(est, 3, 5)
		if err := c.Add(X, y, nil); err != nil {
			t.Fatal(err)
		}
		if err := est.Fit(c); err != nil {
			t.Fatal(err)
		}
		lin := tableOf(est)
		if lin.K != 3 || len(lin.W)/lin.K != 5 {
			t.Fatalf("%T: linear is %d×%d", est, lin.K, len(lin.W)/lin.K)
		}
		for i := 0; i < query.Rows; i++ {
			idx, val := query.Row(i)
			want := est.JointLogLikelihood(nil, idx, val)
			got := lin.Score(nil, idx, val, lin.Binary, lin.Threshold)
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-12 {
					t.Errorf("%T row %d class %d: linear %v, model %v", est, i, k, got[k], want[k])
				}
			}
		}
	}
}

// tableOf returns the scoring table of a fitted text model.
func tableOf(est Estimator) *linear {
	switch m := est.(type) {
	case *Multinomial:
		return &m.tab
	case *Complement:
		return &m.tab
	case *Bernoulli:
		return &m.tab
	}
	return nil
}

func TestLinearScores(t *testing.T) {
	// Two classes, three features: jll = Bias + Σ x_j·W[j·K:(j+1)·K].
	lin := &linear{K: 2, W: []float64{-1, -2, -3, -1, -2, -2}, Bias: []float64{-0.5, -0.9}}
	jll := lin.Score(nil, []int32{0, 1}, []float64{2, 1}, false, 0)
	if got := fmt.Sprintf("%.1f %d", jll, Argmax(jll)); got != "[-5.5 -5.9] 0" {
		t.Fatalf("scores %s, want [-5.5 -5.9] 0", got)
	}
}
