package nb

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

func TestAdjustPriorsGolden(t *testing.T) {
	g := golden.Load(t).PriorShift
	got, err := AdjustPriors(nil, slices.Concat(g.Posteriors...), g.TrainPriors, g.NewPriors)
	if err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "adjusted", got, slices.Concat(g.Adjusted...), 1e-9)
}

// For a multinomial model, adjusting its posteriors equals refitting it
// with the new priors.
func TestAdjustPriorsEqualsMultinomialPrior(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	X := txtRandomCSR(r, 120, 30, 8)
	y := testkit.Labels(r, X.Rows, 3)
	var trained Multinomial
	c := txtFit(t, &trained, X, y, 3)
	target := []float64{0.7, 0.2, 0.1}
	shifted := Multinomial{ClassPrior: target}
	if err := shifted.Fit(c); err != nil {
		t.Fatal(err)
	}
	proba := txtExp(LogProbaCSR(&trained, X, 1))
	got, err := AdjustPriors(nil, proba, txtExp(trained.ClassLogPrior), target)
	if err != nil {
		t.Fatal(err)
	}
	want := txtExp(LogProbaCSR(&shifted, X, 1))
	golden.Close(t, "adjusted vs refitted", got, want, 1e-12)
}

func TestAdjustPriorsZeroTrainingPrior(t *testing.T) {
	got, err := AdjustPriors(nil, []float64{0.5, 0.5, 0}, []float64{0.5, 0.5, 0}, []float64{0.25, 0.25, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "zero prior", got, []float64{0.5, 0.5, 0}, 1e-12)
}

func TestAdjustPriorsErrors(t *testing.T) {
	p := []float64{0.5, 0.5}
	for _, c := range []struct {
		proba, train, target []float64
		want                 error
	}{
		{[]float64{0.5, 0.5, 1}, p, p, ErrShape},
		{p, p, []float64{1, 0, 0}, ErrShape},
		{p, []float64{0.5, 0.6}, p, ErrConfig},
		{p, p, []float64{-0.5, 1.5}, ErrNegative},
		{[]float64{math.NaN(), 1}, p, p, ErrNotFinite},
		{[]float64{0, 0}, p, p, ErrShape},
	} {
		dst := []float64{9}
		out, err := AdjustPriors(dst, c.proba, c.train, c.target)
		if !errors.Is(err, c.want) || len(out) != 1 {
			t.Errorf("AdjustPriors(%v, %v, %v) = %v, %v; want dst unchanged and %v", c.proba, c.train, c.target, out, err, c.want)
		}
	}
}

func TestValidatePriors(t *testing.T) {
	if err := validatePriors([]float64{0.2, 0.8 + 5e-7}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[*[]float64]error{
		{}:                     ErrShape,
		{0.5, 0.4}:             ErrConfig,
		{1.5, -0.5}:            ErrNegative,
		{math.NaN(), 1}:        ErrNotFinite,
		{math.Inf(1), 0}:       ErrNotFinite,
		{0.3, 0.3, 0.3, 0.099}: ErrConfig,
	} {
		if err := validatePriors(*p); !errors.Is(err, want) {
			t.Errorf("validatePriors(%v) = %v, want %v", *p, err, want)
		}
	}
}

// txtWordDists returns K random word distributions over F words; larger
// spread makes the classes easier to tell apart.
func txtWordDists(r *rand.Rand, k, f int, spread float64) [][]float64 {
	dists := make([][]float64, k)
	for c := range dists {
		d := make([]float64, f)
		var sum float64
		for j := range d {
			d[j] = math.Exp(spread * r.NormFloat64())
			sum += d[j]
		}
		for j := range d {
			d[j] /= sum
		}
		dists[c] = d
	}
	return dists
}

// txtMixture draws n documents of the given length from the multinomial
// mixture (dists, priors).
func txtMixture(r *rand.Rand, dists [][]float64, priors []float64, n, length int) (*vectorize.CSR, []int) {
	f := len(dists[0])
	cum := make([][]float64, len(dists))
	for c, d := range dists {
		cum[c] = make([]float64, f)
		var s float64
		for j, p := range d {
			s += p
			cum[c][j] = s
		}
	}
	X, y := vectorize.NewCSR(f), make([]int, n)
	dense := make([]float64, f)
	for i := range n {
		u, label := r.Float64(), 0
		for label < len(priors)-1 && u >= priors[label] {
			u -= priors[label]
			label++
		}
		y[i] = label
		clear(dense)
		for range length {
			dense[min(sort.SearchFloat64s(cum[label], r.Float64()), f-1)]++
		}
		X.AppendRow(testkit.NonZero(dense))
	}
	return X, y
}

func TestPriorEMRecoversShiftedPriors(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	dists := txtWordDists(r, 3, 60, 0.8)
	Xtr, ytr := txtMixture(r, dists, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, 900, 15)
	target := []float64{0.6, 0.3, 0.1}
	Xte, yte := txtMixture(r, dists, target, 6000, 15)
	sample := make([]float64, 3) // the test set's actual class proportions
	for _, label := range yte {
		sample[label] += 1 / float64(len(yte))
	}

	var m Multinomial
	txtFit(t, &m, Xtr, ytr, 3)
	proba := txtExp(LogProbaCSR(&m, Xte, 1))
	got, iters, err := PriorEM{}.Estimate(proba, txtExp(m.ClassLogPrior))
	if err != nil {
		t.Fatal(err)
	}
	if iters < 2 {
		t.Fatalf("converged after %d iterations", iters)
	}
	naive := make([]float64, 3) // mean posterior under the training priors
	for i, p := range proba {
		naive[i%3] += p / float64(Xte.Rows)
	}
	var errTarget, errSample, errNaive float64
	for k := range target {
		errTarget = max(errTarget, math.Abs(got[k]-target[k]))
		errSample = max(errSample, math.Abs(got[k]-sample[k]))
		errNaive = max(errNaive, math.Abs(naive[k]-sample[k]))
	}
	if errTarget > 0.02 {
		t.Fatalf("estimated priors %v, want %v within 0.02", got, target)
	}
	if errSample >= errNaive {
		t.Fatalf("EM error %v not below the unadjusted mean posterior's %v", errSample, errNaive)
	}
	t.Logf("priors %v (naive %v) after %d iterations", got, naive, iters)
}

func TestPriorEMErrors(t *testing.T) {
	p := []float64{0.9, 0.1, 0.2, 0.8, 0.6, 0.4}
	train := []float64{0.5, 0.5}
	if _, _, err := (PriorEM{Tol: -1}).Estimate(p, train); !errors.Is(err, ErrConfig) {
		t.Errorf("negative Tol: %v", err)
	}
	if _, _, err := (PriorEM{}).Estimate(p[:5], train); !errors.Is(err, ErrShape) {
		t.Errorf("ragged posteriors: %v", err)
	}
	bad := slices.Clone(p)
	bad[3] = math.NaN()
	if _, _, err := (PriorEM{}).Estimate(bad, train); !errors.Is(err, ErrNotFinite) {
		t.Errorf("NaN posterior: %v", err)
	}
	if _, _, err := (PriorEM{}).Estimate(p, []float64{0.5, 0.6}); !errors.Is(err, ErrConfig) {
		t.Errorf("bad training priors: %v", err)
	}
	q, iters, err := (PriorEM{MaxIter: 1, Tol: 1e-15}).Estimate(p, train)
	if !errors.Is(err, ErrNotConverged) || iters != 1 || len(q) != 2 {
		t.Errorf("one iteration: %v %d %v, want ErrNotConverged with an estimate", q, iters, err)
	}
}
