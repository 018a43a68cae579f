package nb

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

// txtSlice returns rows [lo, hi) of X as a new matrix.
func txtSlice(X *vectorize.CSR, lo, hi int) *vectorize.CSR {
	out := vectorize.NewCSR(X.Cols)
	for i := lo; i < hi; i++ {
		out.AppendRow(X.Row(i))
	}
	return out
}

func TestPartialFitEqualsFit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	X := txtRandomCSR(r, 300, 80, 12)
	y := testkit.Labels(r, X.Rows, 4)
	half := X.Rows / 2
	for _, est := range []Estimator{&Multinomial{Alpha: 0.3}, &Complement{Norm: true}, &Bernoulli{Binarize: 1}} {
		all := NewCounts(est, 4, X.Cols)
		if err := all.Add(X, y, nil); err != nil {
			t.Fatal(err)
		}
		parts := NewCounts(est, 4, X.Cols)
		if err := parts.Add(txtSlice(X, 0, half), y[:half], nil); err != nil {
			t.Fatal(err)
		}
		if err := parts.Add(txtSlice(X, half, X.Rows), y[half:], nil); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(all.ClassCount, parts.ClassCount) || !slices.Equal(all.FeatureCount, parts.FeatureCount) {
			t.Fatalf("%T: counts of two halves differ from counts of all rows", est)
		}
		if err := est.Fit(all); err != nil {
			t.Fatal(err)
		}
		want := LogProbaCSR(est, X, 1)
		if err := est.Fit(parts); err != nil {
			t.Fatal(err)
		}
		golden.Close(t, "partial fit log proba", LogProbaCSR(est, X, 1), want, 1e-12)
	}
}

func TestMergeEqualsUnion(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	X := txtRandomCSR(r, 200, 50, 10)
	y := testkit.Labels(r, X.Rows, 3)
	all, a, b := NewCounts(nil, 3, 50), NewCounts(nil, 3, 50), NewCounts(nil, 3, 50)
	w := make([]float64, X.Rows)
	for i := range w {
		w[i] = float64(1 + i%4)
	}
	if err := all.Add(X, y, w); err != nil {
		t.Fatal(err)
	}
	if err := a.Add(txtSlice(X, 0, 120), y[:120], w[:120]); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(txtSlice(X, 120, 200), y[120:], w[120:]); err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(all.ClassCount, a.ClassCount) || !slices.Equal(all.FeatureCount, a.FeatureCount) {
		t.Fatal("merged counts differ from counts of the union")
	}
	err := a.Merge(NewCounts(nil, 3, 49))
	if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "3 classes × 49 features into 3 classes × 50 features") {
		t.Fatalf("Merge of a different shape: %v", err)
	}
	bin := NewCounts(&Bernoulli{}, 3, 50)
	if err := a.Merge(bin); !errors.Is(err, ErrConfig) {
		t.Fatalf("Merge of binary into raw counts: %v, want ErrConfig", err)
	}
}

func TestAddWeightedScales(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 2}, {0, 3}})
	c := NewCounts(nil, 2, 2)
	if err := c.Add(X, []int{1, 1}, []float64{2, 0.5}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.ClassCount, []float64{0, 2.5}) || !slices.Equal(c.FeatureCount, []float64{0, 0, 2, 5.5}) {
		t.Fatalf("weighted counts %v %v", c.ClassCount, c.FeatureCount)
	}
}

func TestAddSoft(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 2}, {0, 4}})
	c := NewCounts(nil, 2, 2)
	if err := c.addSoftChecked(X, []float64{0.25, 0.75, 1, 0}, 2); err != nil {
		t.Fatal(err)
	}
	wantClass := []float64{0.5 + 2, 1.5}
	wantFeat := []float64{0.5, 1 + 8, 1.5, 3}
	if !slices.Equal(c.ClassCount, wantClass) || !slices.Equal(c.FeatureCount, wantFeat) {
		t.Fatalf("soft counts %v %v, want %v %v", c.ClassCount, c.FeatureCount, wantClass, wantFeat)
	}
	if err := c.addSoftChecked(X, []float64{0.5, 0.5}, 1); !errors.Is(err, ErrShape) {
		t.Fatalf("short responsibilities: %v, want ErrShape", err)
	}
	if err := c.addSoftChecked(X, []float64{0.5, 0.5, -1, 2}, 1); !errors.Is(err, ErrNegative) {
		t.Fatalf("negative responsibility: %v, want ErrNegative", err)
	}
}

func TestAddRejectsBadInputUnchanged(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 0, 2}, {0, 1, 0}, {0, 0, 1}, {5, 0, 0}})
	X.Data[4] = -1 // row 3 column 0
	c := NewCounts(nil, 2, 3)
	err := c.Add(X, []int{0, 1, 0, 1}, nil)
	if !errors.Is(err, ErrNegative) || !strings.Contains(err.Error(), "row 3 column 0 has value -1") {
		t.Fatalf("Add with a negative value: %v", err)
	}
	X.Data[4] = 5
	if err := c.Add(X, []int{0, 1, 2, 1}, nil); !errors.Is(err, ErrLabel) || !strings.Contains(err.Error(), "row 2 has label 2") {
		t.Fatalf("Add with label 2 of 2 classes: %v", err)
	}
	if err := c.Add(X, []int{0}, nil); !errors.Is(err, ErrShape) {
		t.Fatalf("Add with too few labels: %v", err)
	}
	if err := c.Add(X, []int{0, 1, 0, 1}, []float64{1, 1, -2, 1}); !errors.Is(err, ErrNegative) {
		t.Fatalf("Add with a negative weight: %v", err)
	}
	if err := NewCounts(nil, 2, 2).Add(X, []int{0, 1, 0, 1}, nil); !errors.Is(err, ErrShape) {
		t.Fatalf("Add of 3 columns into 2 features: %v", err)
	}
	if slices.ContainsFunc(c.FeatureCount, func(v float64) bool { return v != 0 }) || c.total() != 0 {
		t.Fatal("failed Add changed the counts")
	}
}

func TestBinaryCounts(t *testing.T) {
	X := vectorize.FromDense([][]float64{{0.5, 3, 1}, {2, 0, 0.2}})
	c := NewCounts(&Bernoulli{Binarize: 0.5}, 1, 3)
	if err := c.Add(X, []int{0, 0}, nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.FeatureCount, []float64{1, 1, 1}) {
		t.Fatalf("binarized counts %v, want [1 1 1]", c.FeatureCount)
	}
}

func TestCloneIsDeep(t *testing.T) {
	c := NewCounts(nil, 2, 2)
	c.ClassCount[0], c.FeatureCount[3] = 1, 2
	d := c.clone()
	d.ClassCount[0], d.FeatureCount[3] = 5, 5
	if c.ClassCount[0] != 1 || c.FeatureCount[3] != 2 {
		t.Fatal("Clone shares storage")
	}
}

func BenchmarkCountsAdd(b *testing.B) {
	r := rand.New(rand.NewPCG(17, 18))
	X := txtRandomCSR(r, 2000, 50000, 150)
	y := testkit.Labels(r, X.Rows, 20)
	c := NewCounts(nil, 20, 50000)
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Add(X, y, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*X.Rows), "ns/doc")
}
