package nb

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

// txtEstimator builds the model a golden case describes.
func txtEstimator(t *testing.T, c golden.Case) Estimator {
	t.Helper()
	alpha, _ := c.Params["alpha"].(float64)
	switch c.Model {
	case "MultinomialNB":
		fitPrior, ok := c.Params["fit_prior"].(bool)
		return &Multinomial{Alpha: alpha, UniformPrior: ok && !fitPrior}
	case "ComplementNB":
		norm, _ := c.Params["norm"].(bool)
		return &Complement{Alpha: alpha, Norm: norm}
	case "BernoulliNB":
		thr, _ := c.Params["binarize"].(float64)
		return &Bernoulli{Alpha: alpha, Binarize: thr}
	}
	t.Fatalf("unknown model %s", c.Model)
	return nil
}

func TestGoldenTextModels(t *testing.T) {
	for _, c := range testkit.TextGoldenCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			est := txtEstimator(t, c)
			X := vectorize.FromDense(c.XTrain)
			txtFit(t, est, X, c.YTrain, len(c.Classes))
			flp, clp := txtParams(est)
			var want [][]float64
			if err := json.Unmarshal(c.FeatureLogProb, &want); err != nil {
				t.Fatal(err)
			}
			golden.Close(t, "feature_log_prob_", flp, slices.Concat(want...), 1e-9)
			golden.Close(t, "class_log_prior_", clp, c.ClassLogPrior, 1e-9)

			Q := vectorize.FromDense(c.XQuery)
			golden.Close(t, "joint_log_likelihood", jointLogLikelihoodCSR(est, Q), slices.Concat(c.JLL...), 1e-9)
			golden.Close(t, "predict_log_proba", LogProbaCSR(est, Q, 1), slices.Concat(c.LogProba...), 1e-9)
			var proba []float64
			var jll []float64
			for i := range Q.Rows {
				idx, val := Q.Row(i)
				jll = est.JointLogLikelihood(jll[:0], idx, val)
				proba = Proba(proba, jll)
			}
			golden.Close(t, "predict_proba", proba, slices.Concat(c.Proba...), 1e-9)
			pred := PredictCSR(est, Q, 1)
			for i, p := range pred {
				if p != c.Predict[i] {
					t.Fatalf("predict[%d] = %d, want %d", i, p, c.Predict[i])
				}
			}
		})
	}
}

func txtParams(est Estimator) (flp, clp []float64) {
	switch m := est.(type) {
	case *Multinomial:
		return m.FeatureLogProb, m.ClassLogPrior
	case *Complement:
		return m.FeatureLogProb, m.ClassLogPrior
	case *Bernoulli:
		return m.FeatureLogProb, m.ClassLogPrior
	}
	return nil, nil
}

func TestComplementWorkedExample(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 2, 3, 4}, {2, 3, 4, 5}, {5, 6, 7, 8}, {6, 7, 8, 9}, {21, 23, 25, 27}})
	counts := NewCounts(nil, 2, 4)
	if err := counts.Add(X, []int{0, 0, 0, 0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	m := Complement{Alpha: 1} // scikit-learn's default, which the worked example uses
	if err := m.Fit(counts); err != nil {
		t.Fatal(err)
	}
	if got := m.FeatureLogProb[0]; math.Abs(got-1.51412773) > 1e-8 {
		t.Fatalf("weight[0][0] = %v, want 1.51412773", got)
	}
	jll := m.JointLogLikelihood(nil, []int32{0, 1, 2, 3}, []float64{6, 7, 8, 9})
	golden.Close(t, "scores", jll, []float64{41.30786115, 41.31864438}, 1e-8) // 8 printed decimals
	if Argmax(jll) != 1 {
		t.Fatalf("label %d, want 1", Argmax(jll))
	}
}

func TestLogProbaStable(t *testing.T) {
	got := logProba(nil, []float64{-1000, -1001, -1e308})
	want := []float64{-math.Log1p(math.Exp(-1)), -1 - math.Log1p(math.Exp(-1)), -1e308}
	for i := range got {
		if got[i] != want[i] && math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("logProba[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	p := Proba([]float64{7}, []float64{800, 800})
	golden.Close(t, "Proba", p, []float64{7, 0.5, 0.5}, 1e-13) // lse rounds at 800
	if out := logProba(nil, nil); len(out) != 0 {
		t.Fatalf("logProba(empty) = %v", out)
	}
}

func TestArgmax(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		in   []float64
		want int
	}{
		{nil, -1},
		{[]float64{1, 3, 3}, 1},
		{[]float64{nan, 2, 5, 5}, 2},
		{[]float64{nan, nan}, 0},
		{[]float64{math.Inf(-1), math.Inf(-1)}, 0},
	} {
		if got := Argmax(c.in); got != c.want {
			t.Errorf("Argmax(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

// txtRandomCSR returns a rows×cols count matrix with about nnz entries per row.
func txtRandomCSR(r *rand.Rand, rows, cols, nnz int) *vectorize.CSR {
	X := vectorize.NewCSR(cols)
	dense := make([]float64, cols)
	for range rows {
		clear(dense)
		for range nnz {
			dense[r.IntN(cols)] += float64(1 + r.IntN(3))
		}
		X.AppendRow(testkit.NonZero(dense))
	}
	return X
}

func TestParallelMatchesSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	X := txtRandomCSR(r, 1000, 300, 20)
	y := make([]int, X.Rows)
	for i := range y {
		y[i] = r.IntN(5)
	}
	for _, est := range []Estimator{&Multinomial{}, &Complement{Norm: true}, &Bernoulli{Binarize: 1}} {
		txtFit(t, est, X, y, 5)
		serial, par := LogProbaCSR(est, X, 1), LogProbaCSR(est, X, 4)
		for i := range serial {
			if serial[i] != par[i] {
				t.Fatalf("%T: parallel log proba differs at %d", est, i)
			}
		}
		ps, pp := PredictCSR(est, X, 1), PredictCSR(est, X, 0)
		for i := range ps {
			if ps[i] != pp[i] {
				t.Fatalf("%T: parallel prediction differs at %d", est, i)
			}
		}
	}
}

// Models whose exported fields are set directly score the same with or
// without prepare.
func TestUnpreparedModelScores(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	X := txtRandomCSR(r, 50, 30, 8)
	y := make([]int, X.Rows)
	for i := range y {
		y[i] = i % 3
	}
	fitted := []Estimator{&Multinomial{Alpha: 0.5}, &Complement{}, &Bernoulli{}}
	for _, est := range fitted {
		txtFit(t, est, X, y, 3)
		flp, clp := txtParams(est)
		var loaded Model
		switch est.(type) {
		case *Multinomial:
			loaded = &Multinomial{FeatureLogProb: flp, ClassLogPrior: clp}
		case *Complement:
			loaded = &Complement{FeatureLogProb: flp, ClassLogPrior: clp}
		case *Bernoulli:
			loaded = &Bernoulli{FeatureLogProb: flp, ClassLogPrior: clp}
		}
		want, got := jointLogLikelihoodCSR(est, X), jointLogLikelihoodCSR(loaded, X)
		golden.Close(t, fmt.Sprintf("%T unprepared", est), got, want, 1e-12)
		if err := loaded.(interface{ prepare() error }).prepare(); err != nil {
			t.Fatal(err)
		}
		golden.Close(t, fmt.Sprintf("%T prepared", est), jointLogLikelihoodCSR(loaded, X), want, 1e-12)
	}
}

func TestBadModelFields(t *testing.T) {
	m := &Multinomial{FeatureLogProb: []float64{1, 2, 3}, ClassLogPrior: []float64{0, 0}}
	if err := m.prepare(); !errors.Is(err, ErrShape) {
		t.Fatalf("prepare error %v, want ErrShape", err)
	}
	jll := m.JointLogLikelihood(nil, []int32{0}, []float64{1})
	if len(jll) != 2 || !math.IsNaN(jll[0]) {
		t.Fatalf("inconsistent model scored %v, want two NaNs", jll)
	}
	var good Multinomial
	txtFit(t, &good, vectorize.FromDense([][]float64{{1, 0}, {0, 1}}), []int{0, 1}, 2)
	if jll := good.JointLogLikelihood(nil, []int32{0, 1}, []float64{1}); len(jll) != 2 || !math.IsNaN(jll[1]) {
		t.Fatalf("row with 2 columns and 1 value scored %v, want two NaNs", jll)
	}
	var empty Multinomial
	if got := PredictCSR(&empty, vectorize.FromDense([][]float64{{1}}), 1); len(got) != 1 || got[0] != -1 {
		t.Fatalf("unfitted model predicted %v, want [-1]", got)
	}
	if err := empty.prepare(); !errors.Is(err, ErrNotFitted) {
		t.Fatalf("prepare on unfitted model: %v, want ErrNotFitted", err)
	}
	if PredictCSR(&empty, &vectorize.CSR{Rows: 2}, 1) != nil {
		t.Fatal("malformed matrix was scored")
	}
}

// Columns beyond the fitted vocabulary are ignored like unseen terms.
func TestUnknownColumnsIgnored(t *testing.T) {
	var m Multinomial
	txtFit(t, &m, vectorize.FromDense([][]float64{{1, 0}, {0, 1}}), []int{0, 1}, 2)
	a := m.JointLogLikelihood(nil, []int32{0}, []float64{2})
	b := m.JointLogLikelihood(nil, []int32{0, 5, 9}, []float64{2, 1, 1})
	golden.Close(t, "unknown columns", b, a, 0)
}

func TestCheckCSR(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 0}, {0, 1}, {2, 0}, {0, 0}})
	X.Data[2] = -1
	err := checkCSR(X, 2)
	if !errors.Is(err, ErrNegative) || !strings.Contains(err.Error(), "row 2 column 0 has value -1") {
		t.Fatalf("CheckCSR = %v, want ErrNegative naming row 2 column 0", err)
	}
	X.Data[2] = math.NaN()
	if err := checkCSR(X, 2); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("checkCSR(NaN) = %v, want ErrNotFinite", err)
	}
	X.Data[2] = 1
	if err := checkCSR(X, 1); !errors.Is(err, ErrShape) {
		t.Fatalf("checkCSR(too many columns) = %v, want ErrShape", err)
	}
	X.Indices[0] = 5
	if err := checkCSR(X, -1); !errors.Is(err, ErrShape) || !errors.Is(err, vectorize.ErrShape) {
		t.Fatalf("checkCSR(bad column) = %v, want ErrShape wrapping vectorize.ErrShape", err)
	}
}

func TestFitErrors(t *testing.T) {
	counts := NewCounts(nil, 2, 3)
	for _, est := range []Estimator{&Multinomial{}, &Complement{}, &Bernoulli{NoBinarize: true}} {
		if err := est.Fit(counts); !errors.Is(err, ErrEmpty) {
			t.Errorf("%T.Fit(empty) = %v, want ErrEmpty", est, err)
		}
	}
	counts.ClassCount[0] = 1
	for _, est := range []Estimator{&Multinomial{Alpha: -1}, &Complement{Alpha: math.NaN()}, &Bernoulli{Alpha: math.Inf(1)}} {
		if err := est.Fit(counts); !errors.Is(err, ErrConfig) {
			t.Errorf("%T.Fit(bad alpha) = %v, want ErrConfig", est, err)
		}
	}
	if err := (&Multinomial{ClassPrior: []float64{1}}).Fit(counts); !errors.Is(err, ErrShape) {
		t.Errorf("one prior for two classes: %v, want ErrShape", err)
	}
	if err := (&Multinomial{ClassPrior: []float64{0.7, 0.7}}).Fit(counts); !errors.Is(err, ErrConfig) {
		t.Errorf("priors summing to 1.4: %v, want ErrConfig", err)
	}
	counts.FeatureCount[4] = -2
	if err := (&Multinomial{}).Fit(counts); !errors.Is(err, ErrNegative) {
		t.Errorf("negative feature count: %v, want ErrNegative", err)
	}
	if err := (&Multinomial{}).Fit(nil); !errors.Is(err, ErrShape) {
		t.Errorf("nil counts: %v, want ErrShape", err)
	}
}

func TestAlphaDefaultsAndClip(t *testing.T) {
	counts := NewCounts(nil, 2, 2)
	if err := counts.Add(vectorize.FromDense([][]float64{{3, 0}, {0, 1}}), []int{0, 1}, nil); err != nil {
		t.Fatal(err)
	}
	var zero, def, tiny, clip, least Multinomial
	def.Alpha, tiny.Alpha, clip.Alpha, least.Alpha = DefaultAlpha, 1e-300, 1e-10, MinAlpha
	for _, m := range []*Multinomial{&zero, &def, &tiny, &clip, &least} {
		if err := m.Fit(counts); err != nil {
			t.Fatal(err)
		}
	}
	golden.Close(t, "alpha 0 = DefaultAlpha", zero.FeatureLogProb, def.FeatureLogProb, 0)
	golden.Close(t, "alpha clipped to 1e-10", tiny.FeatureLogProb, clip.FeatureLogProb, 0)
	golden.Close(t, "MinAlpha", least.FeatureLogProb, clip.FeatureLogProb, 0)
	if math.IsInf(tiny.FeatureLogProb[1], 0) {
		t.Fatal("tiny alpha was not clipped")
	}
	if zero.FeatureLogProb[1] == least.FeatureLogProb[1] {
		t.Fatal("Alpha MinAlpha fitted as the default")
	}
}

func BenchmarkJointLogLikelihood(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const classes, features = 20, 50000
	train := txtRandomCSR(r, 2000, features, 150)
	y := make([]int, train.Rows)
	for i := range y {
		y[i] = i % classes
	}
	X := txtRandomCSR(r, 1000, features, 150)
	for _, est := range []Estimator{&Multinomial{}, &Complement{}, &Bernoulli{}} {
		txtFit(b, est, train, y, classes)
		name := strings.TrimPrefix(fmt.Sprintf("%T", est), "*nb.")
		b.Run(name, func(b *testing.B) {
			var buf []float64
			b.ReportAllocs()
			for b.Loop() {
				for i := range X.Rows {
					idx, val := X.Row(i)
					buf = est.JointLogLikelihood(buf[:0], idx, val)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*X.Rows), "ns/doc")
		})
	}
	m := &Multinomial{}
	txtFit(b, m, train, y, classes)
	b.Run("PredictCSRParallel", func(b *testing.B) {
		for b.Loop() {
			PredictCSR(m, X, 0)
		}
	})
}

// txtFit counts X and y the way est needs and fits est.
func txtFit(t testing.TB, est Estimator, X *vectorize.CSR, y []int, classes int) *Counts {
	t.Helper()
	c := NewCounts(est, classes, X.Cols)
	if err := c.Add(X, y, nil); err != nil {
		t.Fatal(err)
	}
	if err := est.Fit(c); err != nil {
		t.Fatal(err)
	}
	return c
}

// txtExp returns exp of every value: posteriors from log posteriors.
func txtExp(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Exp(x)
	}
	return out
}

// jointLogLikelihoodCSR returns the rows×K joint log-likelihoods of X, or
// nil if X is malformed.
func jointLogLikelihoodCSR(m Model, X *vectorize.CSR) []float64 {
	if X == nil || X.Validate() != nil {
		return nil
	}
	return jointRows(m, X, nil, 1, make([]float64, 0, X.Rows*m.NumClasses()), nil)
}

// Scores so large that jll − logsumexp(jll) would round their differences
// away still give posteriors that sum to 1.
func TestProbaOfHugeScores(t *testing.T) {
	for _, jll := range [][]float64{{1e17, 1e17, 1e17}, {-1e300, -1e300 + 1e284}, {1e10, 1e10 + 1}} {
		p := Proba(nil, jll)
		var sum float64
		for _, v := range p {
			sum += v
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("Proba(%v) = %v, summing to %g", jll, p, sum)
		}
	}
	if p := Proba(nil, []float64{1e17, 1e17}); p[0] != 0.5 || p[1] != 0.5 {
		t.Errorf("Proba of two equal huge scores = %v, want 0.5 each", p)
	}
}
