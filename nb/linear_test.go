package nb_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/textnb/textnb/nb"
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
	for _, est := range []interface {
		nb.Estimator
		Linear() *nb.Linear
	}{&nb.Multinomial{Alpha: 0.5}, &nb.Complement{Alpha: 0.3}, &nb.Complement{Norm: true}, &nb.Bernoulli{Binarize: 0.5}} {
		c := nb.NewCountsFor(est, 3, 5)
		if err := c.Add(X, y); err != nil {
			t.Fatal(err)
		}
		if err := est.Fit(c); err != nil {
			t.Fatal(err)
		}
		lin := est.Linear()
		if lin.NumClasses() != 3 || lin.NumFeatures() != 5 {
			t.Fatalf("%T: linear is %d×%d", est, lin.NumClasses(), lin.NumFeatures())
		}
		for i := 0; i < query.Rows; i++ {
			idx, val := query.Row(i)
			want := est.JointLogLikelihood(nil, idx, val)
			got := lin.JointLogLikelihood(nil, idx, val)
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-12 {
					t.Errorf("%T row %d class %d: linear %v, model %v", est, i, k, got[k], want[k])
				}
			}
		}
	}
}

func ExampleLinear() {
	// Two classes, three features: jll = Bias + Σ x_j·W[j·K:(j+1)·K].
	lin := &nb.Linear{K: 2, W: []float64{-1, -2, -3, -1, -2, -2}, Bias: []float64{-0.5, -0.9}}
	jll := lin.JointLogLikelihood(nil, []int32{0, 1}, []float64{2, 1})
	fmt.Printf("%.1f %d\n", jll, nb.Argmax(jll))
	// Output: [-5.5 -5.9] 0
}
