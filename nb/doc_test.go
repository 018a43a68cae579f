package nb_test

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

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

func exampleCounts() *nb.Counts {
	c := nb.NewCounts(nil, 2, 4)
	if err := c.Add(exampleX, exampleY, nil); err != nil {
		panic(err)
	}
	return c
}

func ExampleCounts() {
	c := nb.NewCounts(nil, 2, 4)
	// Two batches: incremental training is just more Add calls.
	first := vectorize.FromDense([][]float64{{2, 1, 0, 0}, {0, 0, 2, 1}})
	second := vectorize.FromDense([][]float64{{1, 2, 0, 1}})
	if err := c.Add(first, []int{0, 1}, nil); err != nil {
		fmt.Println(err)
	}
	if err := c.Add(second, []int{0}, nil); err != nil {
		fmt.Println(err)
	}
	fmt.Println(c.ClassCount)
	fmt.Println(c.FeatureCount)

	bad := vectorize.FromDense([][]float64{{1, -3, 0, 0}})
	fmt.Println(c.Add(bad, []int{0}, nil))
	// Output:
	// [2 1]
	// [3 3 0 1 0 0 2 1]
	// nb: negative value: row 0 column 1 has value -3
}

func ExampleMultinomial() {
	m := &nb.Multinomial{Alpha: 1}
	if err := m.Fit(exampleCounts()); err != nil {
		fmt.Println(err)
	}
	jll := m.JointLogLikelihood(nil, []int32{0, 1}, []float64{1, 1}) // "ball goal"
	fmt.Printf("class %d, P = %.3f\n", nb.Argmax(jll), nb.Proba(nil, jll))
	// Output: class 0, P = [0.908 0.092]
}

func ExampleComplement() {
	m := &nb.Complement{Norm: true}
	if err := m.Fit(exampleCounts()); err != nil {
		fmt.Println(err)
	}
	fmt.Println(nb.PredictCSR(m, vectorize.FromDense([][]float64{{0, 0, 1, 0}, {3, 0, 0, 0}}), 1))
	// Output: [1 0]
}

func ExampleBernoulli() {
	m := &nb.Bernoulli{} // presence = value > 0
	c := nb.NewCounts(m, 2, 4)
	if err := c.Add(exampleX, exampleY, nil); err != nil {
		fmt.Println(err)
	}
	if err := m.Fit(c); err != nil {
		fmt.Println(err)
	}
	// Repeating a word does not change a Bernoulli score.
	once := m.JointLogLikelihood(nil, []int32{2}, []float64{1})
	often := m.JointLogLikelihood(nil, []int32{2}, []float64{9})
	fmt.Println(nb.Argmax(once), once[0] == often[0] && once[1] == often[1])
	// Output: 1 true
}

func ExampleModel() {
	var m nb.Model = &nb.Multinomial{}
	if err := m.(nb.Estimator).Fit(exampleCounts()); err != nil {
		fmt.Println(err)
	}
	query := vectorize.FromDense([][]float64{{0, 0, 1, 1}, {1, 1, 0, 0}})
	lp := nb.LogProbaCSR(m, query, 1)
	fmt.Printf("%d classes, predictions %v, P(politics|row 0) = %.3f\n",
		m.NumClasses(), nb.PredictCSR(m, query, 1), math.Exp(lp[1]))
	// Output: 2 classes, predictions [1 0], P(politics|row 0) = 0.979
}

func ExampleEstimator() {
	// Any Estimator can be refitted from the same statistics.
	for _, est := range []nb.Estimator{&nb.Multinomial{}, &nb.Complement{}, &nb.Bernoulli{}} {
		c := nb.NewCounts(est, 2, 4)
		if err := c.Add(exampleX, exampleY, nil); err != nil {
			fmt.Println(err)
		}
		if err := est.Fit(c); err != nil {
			fmt.Println(err)
		}
		fmt.Printf("%T %v\n", est, nb.PredictCSR(est, exampleX, 1))
	}
	// Output:
	// *nb.Multinomial [0 0 1 1 1]
	// *nb.Complement [0 0 1 1 1]
	// *nb.Bernoulli [0 0 1 1 1]
}

func ExampleNewCounts() {
	// Counts for a Bernoulli model count presence: value > Binarize.
	var est nb.Estimator = &nb.Bernoulli{Binarize: 1}
	c := nb.NewCounts(est, 2, 4)
	fmt.Println(c.Binary, c.Threshold)
	// Output: true 1
}

func ExampleAdjustPriors() {
	// Posteriors under training priors [.5 .5]; the new data is 90% class 1.
	p, err := nb.AdjustPriors(nil, []float64{0.5, 0.5, 0.8, 0.2}, []float64{0.5, 0.5}, []float64{0.1, 0.9})
	fmt.Printf("%.3f %v\n", p, err)
	// Output: [0.100 0.900 0.308 0.692] <nil>
}

func ExamplePriorShift() {
	// The same correction as AdjustPriors, one prediction at a time.
	s, err := nb.NewPriorShift([]float64{0.5, 0.5}, []float64{0.1, 0.9})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range [][]float64{{0.5, 0.5}, {0.8, 0.2}} {
		s.Apply(row)
		fmt.Printf("%.3f\n", row)
	}
	// Output:
	// [0.100 0.900]
	// [0.308 0.692]
}

func ExamplePriorEM() {
	// Posteriors of six documents computed under training priors [.5 .5].
	proba := []float64{
		0.9, 0.1,
		0.8, 0.2,
		0.3, 0.7,
		0.2, 0.8,
		0.1, 0.9,
		0.4, 0.6,
	}
	priors, iters, err := nb.PriorEM{}.Estimate(proba, []float64{0.5, 0.5})
	fmt.Printf("%.2f converged=%t\n", priors, err == nil && iters > 1)
	// Output: [0.37 0.63] converged=true
}

// exampleUnlabeled holds unlabeled documents for the semi-supervised examples.
var exampleUnlabeled = vectorize.FromDense([][]float64{
	{3, 1, 0, 0},
	{0, 0, 1, 3},
	{1, 1, 0, 0},
	{0, 1, 3, 0},
})

func ExampleSelfTraining() {
	m := &nb.Multinomial{}
	res, err := nb.SelfTraining{K: 2}.Fit(m, exampleX, exampleY, exampleUnlabeled, 2)
	fmt.Println(res.Rounds, res.Added, res.Labels, err)
	// Output: 2 4 [0 1 0 1] <nil>
}

func ExampleSelfTraining_sNB() {
	for _, snb := range []bool{false, true} {
		res, err := nb.SelfTraining{SNB: snb, Threshold: 0.95}.Fit(&nb.Multinomial{Alpha: 1}, exampleX, exampleY, exampleUnlabeled, 2)
		fmt.Println(snb, res.Added, err)
	}
	// Output:
	// false 4 <nil>
	// true 3 <nil>
}

func ExampleEM() {
	m := &nb.Multinomial{}
	res, err := nb.EM{Lambda: 0.5}.Fit(m, exampleX, exampleY, exampleUnlabeled, 2)
	fmt.Println(res.Labels, res.Converged, err)
	// Output: [0 1 0 1] true <nil>
}

func ExampleResult() {
	res, _ := nb.SelfTraining{K: 1, Rounds: 3}.Fit(&nb.Multinomial{}, exampleX, exampleY, exampleUnlabeled, 2)
	fmt.Printf("rounds=%d added=%d converged=%t labels=%v\n", res.Rounds, res.Added, res.Converged, res.Labels)
	// Output: rounds=3 added=3 converged=false labels=[0 1 -1 1]
}
