package nb

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/vectorize"
)

// txtSemiProblem is a seeded three-class text-like problem with two labeled
// documents per class, 1000 unlabeled and 1000 test documents.
type txtSemiProblem struct {
	XL, XU, XT *vectorize.CSR
	yL, yU, yT []int
}

func txtNewSemiProblem(seed uint64) txtSemiProblem {
	r := rand.New(rand.NewPCG(seed, 99))
	dists := txtWordDists(r, 3, 300, 0.5)
	pri := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	var p txtSemiProblem
	p.XL, p.yL = txtMixture(r, dists, pri, 6, 40)
	p.XU, p.yU = txtMixture(r, dists, pri, 1000, 40)
	p.XT, p.yT = txtMixture(r, dists, pri, 1000, 40)
	return p
}

func txtAccuracy(m Model, X *vectorize.CSR, y []int) float64 {
	n := 0
	for i, p := range PredictCSR(m, X, 1) {
		if p == y[i] {
			n++
		}
	}
	return float64(n) / float64(len(y))
}

type txtSemiMethod interface {
	Fit(Estimator, *vectorize.CSR, []int, *vectorize.CSR, int) (Result, error)
}

func TestSemiSupervisedImprovesAccuracy(t *testing.T) {
	p := txtNewSemiProblem(2)
	base := &Multinomial{}
	txtFit(t, base, p.XL, p.yL, 3)
	acc0 := txtAccuracy(base, p.XT, p.yT)
	for name, method := range map[string]txtSemiMethod{
		"nsnb": SelfTraining{},
		"snb":  SelfTraining{SNB: true},
		"em":   EM{},
	} {
		m := &Multinomial{}
		res, err := method.Fit(m, p.XL, p.yL, p.XU, 3)
		if err != nil {
			t.Fatal(err)
		}
		acc := txtAccuracy(m, p.XT, p.yT)
		t.Logf("%s: accuracy %.3f (labeled only %.3f), %d rounds, %d added", name, acc, acc0, res.Rounds, res.Added)
		if acc < acc0+0.1 {
			t.Errorf("%s: accuracy %.3f, labeled-only %.3f: want an improvement of 0.1", name, acc, acc0)
		}
		if res.Rounds < 1 || res.Added < 1 || len(res.Labels) != p.XU.Rows {
			t.Errorf("%s: result %+v", name, res)
		}
	}
}

func TestEMOtherEstimators(t *testing.T) {
	p := txtNewSemiProblem(3)
	for _, est := range []Estimator{&Complement{}, &Bernoulli{}} {
		res, err := EM{MaxIter: 5}.Fit(est, p.XL, p.yL, p.XU, 3)
		if err != nil {
			t.Fatalf("%T: %v", est, err)
		}
		if res.Rounds < 1 || res.Rounds > 5 || res.Added != p.XU.Rows {
			t.Fatalf("%T: result %+v", est, res)
		}
		for _, l := range res.Labels {
			if l < 0 || l > 2 {
				t.Fatalf("%T: label %d", est, l)
			}
		}
		if math.IsNaN(res.LogLikelihood) {
			t.Fatalf("%T: NaN objective", est)
		}
	}
	if _, err := (SelfTraining{}).Fit(&Bernoulli{}, p.XL, p.yL, p.XU, 3); err != nil {
		t.Fatalf("self-training a Bernoulli model: %v", err)
	}
}

func TestEMConverges(t *testing.T) {
	p := txtNewSemiProblem(4)
	res, err := EM{Lambda: 1, MaxIter: 100}.Fit(&Multinomial{}, p.XL, p.yL, p.XU, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged || res.Rounds >= 100 {
		t.Fatalf("EM did not converge: %+v", res)
	}
}

func TestSemiDeterministic(t *testing.T) {
	p := txtNewSemiProblem(5)
	for _, method := range []txtSemiMethod{SelfTraining{K: 37}, SelfTraining{K: 37, Standardize: true},
		SelfTraining{SNB: true, Threshold: 0.99}, EM{MaxIter: 4}} {
		var first []float64
		var firstLabels []int
		for _, workers := range []int{1, 3, 1} {
			m := &Multinomial{}
			var res Result
			var err error
			switch s := method.(type) {
			case SelfTraining:
				s.Workers = workers
				res, err = s.Fit(m, p.XL, p.yL, p.XU, 3)
			case EM:
				s.Workers = workers
				res, err = s.Fit(m, p.XL, p.yL, p.XU, 3)
			}
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first, firstLabels = m.FeatureLogProb, res.Labels
				continue
			}
			if !slices.Equal(first, m.FeatureLogProb) || !slices.Equal(firstLabels, res.Labels) {
				t.Fatalf("%T with %d workers differs", method, workers)
			}
		}
	}
}

func TestNSNBCounts(t *testing.T) {
	p := txtNewSemiProblem(6)
	res, err := SelfTraining{K: 5, Rounds: 3}.Fit(&Multinomial{}, p.XL, p.yL, p.XU, 3)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != 3 || res.Added != 15 || res.Converged {
		t.Fatalf("K=5 for 3 rounds: %+v", res)
	}
	added := 0
	for _, l := range res.Labels {
		if l >= 0 {
			added++
		}
	}
	if added != 15 {
		t.Fatalf("%d pseudo-labels, want 15", added)
	}
	// Half of the remaining documents each round (rounded up: 500, 250,
	// 125, 63, 31, 16, 8, 4, 2, 1): all 1000 are added after 10 rounds,
	// then self-training stops.
	res, err = SelfTraining{K: 0.5, Rounds: 20}.Fit(&Multinomial{}, p.XL, p.yL, p.XU, 3)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != 10 || res.Added != 1000 || !res.Converged {
		t.Fatalf("K=0.5: %d rounds, %d added, converged %t", res.Rounds, res.Added, res.Converged)
	}
}

func TestSNBThreshold(t *testing.T) {
	p := txtNewSemiProblem(7)
	m := &Multinomial{}
	res, err := SelfTraining{SNB: true, Threshold: 0.9, Rounds: 1}.Fit(m, p.XL, p.yL, p.XU, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Recount with the labeled-only model: exactly the documents above the
	// threshold were added.
	base := &Multinomial{}
	txtFit(t, base, p.XL, p.yL, 3)
	lp := LogProbaCSR(base, p.XU, 1)
	for i := range p.XU.Rows {
		row := lp[i*3 : i*3+3]
		above := math.Exp(row[Argmax(row)]) > 0.9
		if above != (res.Labels[i] >= 0) || above && res.Labels[i] != Argmax(row) {
			t.Fatalf("row %d: top posterior %v, pseudo-label %d", i, math.Exp(row[Argmax(row)]), res.Labels[i])
		}
	}
}

func TestConfidenceAndChoice(t *testing.T) {
	logp := []float64{}
	for _, p := range []float64{0.6, 0.3, 0.1, 0.2, 0.2, 0.6, 0.1, 0.3, 0.6, 1.0 / 3, 1.0 / 3, 1.0 / 3} {
		logp = append(logp, math.Log(p))
	}
	conf := confidence(nil, logp, 3)
	golden.Close(t, "confidence", conf, []float64{0.6 - 0.2, 0.6 - 0.2, 0.6 - 0.2, 0}, 1e-12)
	// Ties go to the earlier row.
	pick := SelfTraining{K: 2}.choose([]float64{0.4, 0.5, 0.4, 0.4}, logp, 3)
	if !slices.Equal(pick, []int{0, 1}) {
		t.Fatalf("picked %v, want [0 1]", pick)
	}
}

func TestStandardized(t *testing.T) {
	// Class 0 scores −1, 0, 1 (mean 0, sd √(2/3)); class 1 scores 10, 14,
	// 18 (mean 14, sd 4√(2/3)); class 2 is constant, so only centred.
	jll := []float64{-1, 10, 5, 0, 14, 5, 1, 18, 5}
	got := standardized(nil, jll, []int{2, 0}, 3)
	z := 1 / math.Sqrt(2.0/3)
	want := []float64{z, z, 0, -z, -z, 0}
	for p := range 2 {
		row := want[p*3 : p*3+3]
		lse := math.Log(math.Exp(row[0]) + math.Exp(row[1]) + math.Exp(row[2]))
		for c := range row {
			row[c] -= lse
		}
	}
	golden.Close(t, "standardized", got, want, 1e-12)
}

// offsetModel adds a per-class affine change a_c·jll_c + b_c to a model's
// scores: the kind of class-dependent offset and spread Complement NB's
// scores have.
type offsetModel struct {
	*Multinomial
	scale, shift []float64
}

func (m offsetModel) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	n := len(dst)
	dst = m.Multinomial.JointLogLikelihood(dst, idx, val)
	for c := range dst[n:] {
		dst[n+c] = m.scale[c]*dst[n+c] + m.shift[c]
	}
	return dst
}

// With a class whose scores are shifted up, raw NSNB gives it nearly every
// pseudo-label; standardized NSNB picks as it does without the shift.
func TestStandardizeOffsetScores(t *testing.T) {
	p := txtNewSemiProblem(9)
	perClass := func(s SelfTraining, scale, shift []float64) ([]int, []int) {
		t.Helper()
		est := offsetModel{&Multinomial{}, scale, shift}
		res, err := s.Fit(est, p.XL, p.yL, p.XU, 3)
		if err != nil {
			t.Fatal(err)
		}
		n := make([]int, 3)
		for _, l := range res.Labels {
			if l >= 0 {
				n[l]++
			}
		}
		return n, res.Labels
	}
	ones, zeros := []float64{1, 1, 1}, []float64{0, 0, 0}
	scale, shift := []float64{1, 2, 1}, []float64{60, -10, 0}
	one := SelfTraining{K: 300, Rounds: 1}
	if n, _ := perClass(one, scale, shift); n[0] < 290 {
		t.Fatalf("raw scores with class 0 shifted: pseudo-labels per class %v, want nearly all in class 0", n)
	}
	one.Standardize = true
	n, _ := perClass(one, ones, zeros)
	for c, v := range n {
		if v < 60 {
			t.Errorf("standardized: class %d has %d of the pseudo-labels %v", c, v, n)
		}
	}
	for _, s := range []SelfTraining{{K: 0.5, Standardize: true}, {SNB: true, Threshold: 0.6, Standardize: true}} {
		_, plain := perClass(s, ones, zeros)
		_, moved := perClass(s, scale, shift)
		same, added := 0, 0
		for i := range plain {
			if plain[i] == moved[i] {
				same++
			}
			if plain[i] >= 0 {
				added++
			}
		}
		t.Logf("SNB=%t: %d added, %d of %d pseudo-labels unchanged", s.SNB, added, same, len(plain))
		if added < 100 || same < len(plain)*99/100 {
			t.Errorf("SNB=%t: %d added, %d of %d pseudo-labels unchanged by a per-class affine change of the scores",
				s.SNB, added, same, len(plain))
		}
	}
}

func TestSemiErrors(t *testing.T) {
	p := txtNewSemiProblem(8)
	for _, c := range []struct {
		method txtSemiMethod
		want   error
	}{
		{SelfTraining{K: -1}, ErrConfig},
		{SelfTraining{SNB: true, Threshold: 1}, ErrConfig},
		{SelfTraining{Rounds: -1}, ErrConfig},
		{EM{Lambda: -0.5}, ErrConfig},
		{EM{Tol: math.NaN()}, ErrConfig},
	} {
		if _, err := c.method.Fit(&Multinomial{}, p.XL, p.yL, p.XU, 3); !errors.Is(err, c.want) {
			t.Errorf("%+v: %v, want %v", c.method, err, c.want)
		}
	}
	if _, err := (EM{}).Fit(&Multinomial{}, p.XL, p.yL[:3], p.XU, 3); !errors.Is(err, ErrShape) {
		t.Errorf("too few labels: %v", err)
	}
	if _, err := (EM{}).Fit(&Multinomial{}, p.XL, p.yL, p.XU, 2); !errors.Is(err, ErrLabel) {
		t.Errorf("label beyond classes: %v", err)
	}
	wide := vectorize.NewCSR(p.XL.Cols + 1)
	wide.AppendRow([]int32{int32(p.XL.Cols)}, []float64{1})
	if _, err := (SelfTraining{}).Fit(&Multinomial{}, p.XL, p.yL, wide, 3); !errors.Is(err, ErrShape) {
		t.Errorf("unlabeled with more columns: %v", err)
	}
	neg := vectorize.FromDense([][]float64{{0, -1}})
	neg.Cols = p.XL.Cols
	if _, err := (SelfTraining{}).Fit(&Multinomial{}, p.XL, p.yL, neg, 3); !errors.Is(err, ErrNegative) {
		t.Errorf("negative unlabeled value: %v", err)
	}
	res, err := EM{}.Fit(&Multinomial{}, p.XL, p.yL, nil, 3)
	if err != nil || res.Rounds != 0 || len(res.Labels) != 0 {
		t.Errorf("EM without unlabeled data: %+v, %v", res, err)
	}
}

// Result.Counts are the counts the final model was fitted on: a fresh
// model fitted on them scores exactly as the one the method fitted.
func TestResultCounts(t *testing.T) {
	p := txtNewSemiProblem(5)
	for name, method := range map[string]txtSemiMethod{
		"nsnb":       SelfTraining{Rounds: 3},
		"snb":        SelfTraining{SNB: true, Threshold: 0.8},
		"em":         EM{MaxIter: 3},
		"bernoulli":  EM{MaxIter: 2},
		"complement": SelfTraining{Standardize: true, Rounds: 2},
	} {
		var est, fresh Estimator = &Multinomial{}, &Multinomial{}
		switch name {
		case "bernoulli":
			est, fresh = &Bernoulli{}, &Bernoulli{}
		case "complement":
			est, fresh = &Complement{}, &Complement{}
		}
		res, err := method.Fit(est, p.XL, p.yL, p.XU, 3)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Counts == nil {
			t.Fatalf("%s: no counts", name)
		}
		if err := fresh.Fit(res.Counts); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden.Close(t, name, jointLogLikelihoodCSR(fresh, p.XT), jointLogLikelihoodCSR(est, p.XT), 0)
	}
}
