package densenb_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/densenb"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/nb"
)

// dnCatFit fits a Categorical on a golden case's integer rows.
func dnCatFit(t testing.TB, c golden.Case, alpha float64) *densenb.Categorical {
	t.Helper()
	m := &densenb.Categorical{Alpha: alpha}
	if err := m.Fit(testkit.Ints(c.XTrain), c.YTrain, len(c.Classes)); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCategoricalGolden(t *testing.T) {
	for _, name := range []string{"catnb_iris_alpha1.0", "catnb_iris_alpha0.5"} {
		t.Run(name, func(t *testing.T) {
			c := golden.Named(t, name)
			m := dnCatFit(t, c, c.Params["alpha"].(float64))
			var flp [][][]float64 // feature → class → category
			if err := json.Unmarshal(c.FeatureLogProb, &flp); err != nil {
				t.Fatal(err)
			}
			if len(m.FeatureLogProb) != len(flp) {
				t.Fatalf("%d features, want %d", len(m.FeatureLogProb), len(flp))
			}
			for i, f := range flp {
				if m.NCategories[i] != len(f[0]) {
					t.Fatalf("feature %d: %d categories, want %d", i, m.NCategories[i], len(f[0]))
				}
				golden.Close(t, fmt.Sprint("feature_log_prob ", i), m.FeatureLogProb[i], slices.Concat(f...), 1e-9)
			}
			golden.Close(t, "class log prior", m.ClassLogPrior, c.ClassLogPrior, 1e-9)
			X := testkit.Ints(c.XQuery)
			dnCheckQueries(t, c, func(dst []float64, r int) []float64 {
				return m.JointLogLikelihoodInt(dst, X[r])
			})
		})
	}
}

// dnCatEqual compares every fitted field of two Categorical models.
func dnCatEqual(t *testing.T, got, want *densenb.Categorical, tol float64) {
	t.Helper()
	golden.Close(t, "class count", got.ClassCount, want.ClassCount, 0)
	golden.Close(t, "class log prior", got.ClassLogPrior, want.ClassLogPrior, tol)
	if fmt.Sprint(got.NCategories) != fmt.Sprint(want.NCategories) {
		t.Fatalf("categories %v, want %v", got.NCategories, want.NCategories)
	}
	for i := range want.CategoryCount {
		golden.Close(t, fmt.Sprint("category count ", i), got.CategoryCount[i], want.CategoryCount[i], 0)
		golden.Close(t, fmt.Sprint("feature log prob ", i), got.FeatureLogProb[i], want.FeatureLogProb[i], tol)
	}
}

// dnSplit splits rows by whether feature 0 is ≤ 2, so the first part
// lacks categories the second has and PartialFit and Merge must widen.
func dnSplit(X [][]int, y []int) (xa [][]int, ya []int, xb [][]int, yb []int) {
	for r, row := range X {
		if row[0] <= 2 {
			xa, ya = append(xa, row), append(ya, y[r])
		} else {
			xb, yb = append(xb, row), append(yb, y[r])
		}
	}
	return xa, ya, xb, yb
}

func TestCategoricalPartialFitEqualsFit(t *testing.T) {
	c := golden.Named(t, "catnb_iris_alpha0.5")
	all := dnCatFit(t, c, 0.5)
	xa, ya, xb, yb := dnSplit(testkit.Ints(c.XTrain), c.YTrain)
	part := &densenb.Categorical{Alpha: 0.5}
	if err := part.PartialFit(xa, ya, 3); err != nil {
		t.Fatal(err)
	}
	if part.NCategories[0] != 3 {
		t.Fatalf("first batch: %d categories for feature 0, want 3", part.NCategories[0])
	}
	if err := part.PartialFit(xb, yb, 3); err != nil {
		t.Fatal(err)
	}
	dnCatEqual(t, part, all, 1e-12)
}

func TestCategoricalMergeEqualsUnion(t *testing.T) {
	c := golden.Named(t, "catnb_iris_alpha1.0")
	all := dnCatFit(t, c, 1)
	xa, ya, xb, yb := dnSplit(testkit.Ints(c.XTrain), c.YTrain)
	var a, b, empty densenb.Categorical
	if err := a.Fit(xa, ya, 3); err != nil {
		t.Fatal(err)
	}
	if err := b.Fit(xb, yb, 3); err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(&empty); err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(&b); err != nil {
		t.Fatal(err)
	}
	dnCatEqual(t, &a, all, 1e-12)
	var into densenb.Categorical
	if err := into.Merge(all); err != nil {
		t.Fatal(err)
	}
	dnCatEqual(t, &into, all, 0)

	var other densenb.Categorical
	if err := other.Fit([][]int{{0}, {1}}, []int{0, 1}, 2); err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(a)
	if err := a.Merge(&other); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("merge of mismatched model: %v, want ErrShape", err)
	}
	if fmt.Sprint(a) != before {
		t.Fatal("failed merge changed the model")
	}
}

func TestCategoricalUnseenCategory(t *testing.T) {
	X := [][]int{{0, 1}, {1, 1}, {1, 0}, {2, 0}}
	y := []int{0, 0, 1, 1}
	m := densenb.Categorical{Alpha: 0.5}
	if err := m.Fit(X, y, 2); err != nil {
		t.Fatal(err)
	}
	// Category 9 of feature 0 was never seen: each class scores
	// log(α / (n_c + α·3)) for it, n_c = 2 rows per class.
	got := m.JointLogLikelihoodInt(nil, []int{9, 1})
	dnFinite(t, "unseen", got)
	for c, fc1 := range [][]float64{{0, 2}, {2, 0}} { // counts of feature 1 per class
		want := math.Log(0.5) + math.Log(0.5/(2+0.5*3)) + math.Log((fc1[1]+0.5)/(2+0.5*2))
		golden.Close(t, fmt.Sprint("class ", c), got[c:c+1], []float64{want}, 1e-12)
	}

	// The unprepared model (fields only) scores the same, unseen included.
	u := densenb.Categorical{Alpha: 0.5, ClassCount: m.ClassCount, CategoryCount: m.CategoryCount,
		FeatureLogProb: m.FeatureLogProb, ClassLogPrior: m.ClassLogPrior, NCategories: m.NCategories}
	for _, x := range [][]int{{9, 1}, {0, 0}, {2, 5}} {
		golden.Close(t, fmt.Sprint("unprepared ", x), u.JointLogLikelihoodInt(nil, x), m.JointLogLikelihoodInt(nil, x), 0)
	}
	if err := u.Prepare(); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "prepared", u.JointLogLikelihoodInt(nil, []int{9, 1}), got, 0)
}

func TestCategoricalMinCategories(t *testing.T) {
	X := [][]int{{0}, {1}, {0}}
	m := densenb.Categorical{MinCategories: []int{4}}
	if err := m.Fit(X, []int{0, 0, 1}, 2); err != nil {
		t.Fatal(err)
	}
	if m.NCategories[0] != 4 {
		t.Fatalf("%d categories, want 4", m.NCategories[0])
	}
	// Class 1: one row of category 0, α = 1, four categories.
	want := []float64{math.Log(2.0 / 5), math.Log(1.0 / 5), math.Log(1.0 / 5), math.Log(1.0 / 5)}
	golden.Close(t, "class 1", m.FeatureLogProb[0][4:], want, 1e-15)

	m.MinCategories = []int{1, 2}
	if err := m.Fit(X, []int{0, 0, 1}, 2); !errors.Is(err, nb.ErrConfig) {
		t.Fatalf("MinCategories for 2 features: %v, want ErrConfig", err)
	}
}

func TestCategoricalRejectsBadInput(t *testing.T) {
	var m densenb.Categorical
	if err := m.Fit([][]int{{0, 1}, {1, 0}}, []int{0, 1}, 2); err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(m)
	cases := []struct {
		name    string
		fit     func() error
		want    error
		message string
	}{
		{"negative", func() error { return m.Fit([][]int{{0, 1}, {0, -2}}, []int{0, 1}, 2) }, nb.ErrNegative, "row 1 column 1"},
		{"huge", func() error { return m.PartialFit([][]int{{densenb.MaxCategories, 0}}, []int{0}, 2) }, nb.ErrShape, "row 0 column 0"},
		{"ragged", func() error { return m.Fit([][]int{{0, 1}, {0}}, []int{0, 1}, 2) }, nb.ErrShape, "row 1"},
		{"empty", func() error { return m.PartialFit(nil, nil, 2) }, nb.ErrEmpty, ""},
		{"label", func() error { return m.Fit([][]int{{0, 1}}, []int{-1}, 2) }, nb.ErrLabel, "row 0"},
		{"features", func() error { return m.PartialFit([][]int{{0, 1, 2}}, []int{0}, 2) }, nb.ErrShape, ""},
		{"classes", func() error { return m.PartialFit([][]int{{0, 1}}, []int{0}, 3) }, nb.ErrShape, ""},
		{"alpha", func() error {
			h := m
			h.Alpha = -1
			return h.PartialFit([][]int{{0, 1}}, []int{0}, 2)
		}, nb.ErrConfig, ""},
	}
	for _, c := range cases {
		err := c.fit()
		if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.message) {
			t.Errorf("%s: error %v, want %v mentioning %q", c.name, err, c.want, c.message)
		}
		if fmt.Sprint(m) != before {
			t.Fatalf("%s: failed fit changed the model", c.name)
		}
	}
	for _, x := range [][]int{{0, -1}, {0}} {
		got := m.JointLogLikelihoodInt(nil, x)
		if len(got) != 2 || !math.IsNaN(got[0]) || !math.IsNaN(got[1]) {
			t.Errorf("row %v scored %v, want NaNs", x, got)
		}
	}
}

func BenchmarkCategoricalJointLogLikelihoodInt(b *testing.B) {
	c := golden.Named(b, "catnb_iris_alpha1.0")
	m := dnCatFit(b, c, 1)
	X := testkit.Ints(c.XQuery)
	buf := make([]float64, 0, 3)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = m.JointLogLikelihoodInt(buf[:0], X[i%len(X)])
	}
}

func ExampleCategorical() {
	// Two categorical features: colour (0 red, 1 green) and size (0..2).
	X := [][]int{{0, 0}, {0, 1}, {0, 0}, {1, 2}, {1, 2}, {1, 1}}
	y := []int{0, 0, 0, 1, 1, 1}
	var m densenb.Categorical
	if err := m.Fit(X, y, 2); err != nil {
		fmt.Println(err)
		return
	}
	for _, x := range [][]int{{0, 0}, {1, 2}, {1, 7}} { // size 7 was never seen
		jll := m.JointLogLikelihoodInt(nil, x)
		fmt.Printf("%v → class %d (P = %.3f)\n", x, nb.Argmax(jll), nb.Proba(nil, jll)[nb.Argmax(jll)])
	}
	// Output:
	// [0 0] → class 0 (P = 0.923)
	// [1 2] → class 1 (P = 0.923)
	// [1 7] → class 1 (P = 0.800)
}
