package discretize_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/densenb"

	"github.com/textnb/textnb/internal/discretize"
	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/nb"
)

// dnColumn turns values into a one-column matrix.
func dnColumn(v ...float64) [][]float64 {
	X := make([][]float64, len(v))
	for i, x := range v {
		X[i] = []float64{x}
	}
	return X
}

func dnBins(d *discretize.Discretizer, v ...float64) []int {
	var out []int
	for _, x := range v {
		out = d.Transform(out, []float64{x})
	}
	return out
}

func TestDiscretizerQuantileEdges(t *testing.T) {
	// numpy.percentile(1..10, [0, 25, 50, 75, 100]): virtual indexes 9q,
	// so 0, 2.25, 4.5, 6.75, 9 → 1, 3.25, 5.5, 7.75, 10.
	d := discretize.Discretizer{Bins: 4}
	if err := d.Fit(dnColumn(10, 9, 8, 7, 6, 5, 4, 3, 2, 1)); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "edges", d.Edges[0], []float64{1, 3.25, 5.5, 7.75, 10}, 1e-15)
	if d.NBins[0] != 4 {
		t.Fatalf("%d bins, want 4", d.NBins[0])
	}
	got := dnBins(&d, 1, 3, 3.25, 4, 5.5, 7, 8, 10, -100, 100, math.Inf(1))
	if want := []int{0, 0, 1, 1, 2, 2, 3, 3, 0, 3, 3}; !slices.Equal(got, want) {
		t.Fatalf("bins %v, want %v", got, want)
	}
}

func TestDiscretizerDropsDuplicateEdges(t *testing.T) {
	// 8 values, 4 bins: virtual indexes 0, 1.75, 3.5, 5.25, 7 give edges
	// 0, 0, 0, 0.25, 2; the repeated zeros go, leaving 2 bins.
	d := discretize.Discretizer{Bins: 4}
	if err := d.Fit(dnColumn(0, 0, 0, 0, 0, 0, 1, 2)); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "edges", d.Edges[0], []float64{0, 0.25, 2}, 1e-15)
	if d.NBins[0] != 2 {
		t.Fatalf("%d bins, want 2", d.NBins[0])
	}
	if got := dnBins(&d, 0, 0.2, 0.25, 1); !slices.Equal(got, []int{0, 0, 1, 1}) {
		t.Fatalf("bins %v", got)
	}
	// A range narrower than 1e-8 leaves one bin.
	if err := d.Fit(dnColumn(1, 1+1e-9, 1+2e-9)); err != nil {
		t.Fatal(err)
	}
	if d.NBins[0] != 1 || len(d.Edges[0]) != 2 {
		t.Fatalf("narrow column: edges %v, bins %d", d.Edges[0], d.NBins[0])
	}
}

func TestDiscretizerUniformEdges(t *testing.T) {
	d := discretize.Discretizer{Bins: 5, Strategy: discretize.Uniform}
	X := [][]float64{{0, 7}, {10, 7}, {3, 7}}
	if err := d.Fit(X); err != nil {
		t.Fatal(err)
	}
	golden.Close(t, "edges", d.Edges[0], []float64{0, 2, 4, 6, 8, 10}, 1e-15)
	// A constant column gets a single bin.
	golden.Close(t, "constant edges", d.Edges[1], []float64{7, 7}, 0)
	if !slices.Equal(d.NBins, []int{5, 1}) {
		t.Fatalf("bins %v, want [5 1]", d.NBins)
	}
	var got []int
	for _, x := range [][]float64{{4, 7}, {10, -1}, {-3, 99}, {1.999, 7}, {math.NaN(), 7}} {
		got = d.Transform(got, x)
	}
	if want := []int{2, 0, 4, 0, 0, 0, 0, 0, -1, 0}; !slices.Equal(got, want) {
		t.Fatalf("bins %v, want %v", got, want)
	}
	if got := d.Transform([]int{9}, []float64{1}); !slices.Equal(got, []int{9, -1, -1}) {
		t.Fatalf("short row: %v, want [9 -1 -1]", got)
	}
}

// TestDiscretizerGolden checks the quantile edges against the golden
// CategoricalNB rows, which scikit-learn's KBinsDiscretizer(5, "quantile",
// "ordinal") produced from the GaussianNB training rows.
func TestDiscretizerGolden(t *testing.T) {
	g := golden.Named(t, "gnb_iris")
	c := golden.Named(t, "catnb_iris_alpha1.0")
	var d discretize.Discretizer
	if err := d.Fit(g.XTrain); err != nil {
		t.Fatal(err)
	}
	for _, set := range []struct {
		name string
		X    [][]float64
		want [][]int
	}{{"train", g.XTrain, testkit.Ints(c.XTrain)}, {"query", g.XQuery, testkit.Ints(c.XQuery)}} {
		var row []int
		for r, x := range set.X {
			row = d.Transform(row[:0], x)
			if !slices.Equal(row, set.want[r]) {
				t.Fatalf("%s row %d: bins %v, want %v (edges %v)", set.name, r, row, set.want[r], d.Edges)
			}
		}
	}
}

func TestDiscretizerRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		d    discretize.Discretizer
		X    [][]float64
		want error
	}{
		{discretize.Discretizer{Bins: 1}, dnColumn(1, 2), nb.ErrConfig},
		{discretize.Discretizer{Bins: -3}, dnColumn(1, 2), nb.ErrConfig},
		{discretize.Discretizer{Bins: densenb.MaxCategories + 1}, dnColumn(1, 2), nb.ErrConfig},
		{discretize.Discretizer{Strategy: 7}, dnColumn(1, 2), nb.ErrConfig},
		{discretize.Discretizer{}, dnColumn(1, math.NaN()), nb.ErrNotFinite},
		{discretize.Discretizer{}, nil, nb.ErrEmpty},
		{discretize.Discretizer{}, [][]float64{{1, 2}, {1}}, nb.ErrShape},
	} {
		if err := c.d.Fit(c.X); !errors.Is(err, c.want) {
			t.Errorf("%+v on %v: error %v, want %v", c.d, c.X, err, c.want)
		}
		if c.d.Edges != nil {
			t.Errorf("failed fit set edges %v", c.d.Edges)
		}
	}
}

func BenchmarkDiscretizerTransform(b *testing.B) {
	c := golden.Named(b, "gnb_iris")
	d := discretize.Discretizer{Bins: 16}
	if err := d.Fit(c.XTrain); err != nil {
		b.Fatal(err)
	}
	buf := make([]int, 0, 4)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = d.Transform(buf[:0], c.XQuery[i%len(c.XQuery)])
	}
}

func ExampleDiscretizer() {
	// Discretize two numeric columns, then classify the bins.
	X := [][]float64{{1.0, 20}, {1.2, 22}, {0.8, 21}, {3.0, 10}, {3.3, 12}, {2.9, 11}}
	y := []int{0, 0, 0, 1, 1, 1}
	d := discretize.Discretizer{Bins: 3}
	if err := d.Fit(X); err != nil {
		fmt.Println(err)
		return
	}
	bins := make([][]int, len(X))
	for r, x := range X {
		bins[r] = d.Transform(nil, x)
	}
	m := densenb.Categorical{MinCategories: d.NBins}
	if err := m.Fit(bins, y, 2); err != nil {
		fmt.Println(err)
		return
	}
	q := d.Transform(nil, []float64{3.1, 11.5})
	fmt.Println("edges of column 0:", d.Edges[0])
	fmt.Println("bins:", q, "class:", nb.Argmax(m.JointLogLikelihoodInt(nil, q)))
	// Output:
	// edges of column 0: [0.8 1.1333333333333333 2.933333333333333 3.3]
	// bins: [2 0] class: 1
}

func ExampleBinStrategy() {
	for _, s := range []discretize.BinStrategy{discretize.Quantile, discretize.Uniform} {
		fmt.Println(s)
	}
	// Output:
	// quantile
	// uniform
}
