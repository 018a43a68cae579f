package postings

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/sparse"
)

// chi2Doc is the example of scikit-learn's chi2 docstring, whose scores
// are [15.3…, 6.5, 8.9…]. By hand, with classes of 2 rows each (P = 1/3):
// column 0 has O = (11, 1, 1), F = 13, E = 13/3: χ² = 200/13; column 1 has
// O = (10, 2, 4), E = 16/3: χ² = 6.5; column 2 has O = (3, 8, 0), E = 11/3:
// χ² = 98/11.
var (
	chi2X = [][]float64{{1, 1, 3}, {0, 1, 5}, {5, 4, 1}, {6, 6, 2}, {1, 4, 0}, {0, 0, 0}}
	chi2Y = []int{1, 1, 0, 0, 2, 2}
)

func TestChi2(t *testing.T) {
	p, err := New(sparse.FromDense(chi2X), 2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Chi2(chi2Y, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{200.0 / 13, 6.5, 98.0 / 11}
	for j := range want {
		if !near(got[j], want[j]) {
			t.Errorf("chi2[%d] = %.17g, want %.17g", j, got[j], want[j])
		}
	}
	// Binarized, column 0 has O = (2, 1, 1), F = 4, E = 4/3: χ² = 0.5.
	bin, err := p.Chi2Binary(chi2Y, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !near(bin[0], 0.5) {
		t.Errorf("binary chi2[0] = %g, want 0.5", bin[0])
	}
	B := sparse.FromDense(chi2X)
	B.Binarize(0)
	pb, _ := New(B, 1)
	counts, _ := pb.Chi2(chi2Y, 3)
	for j := range bin {
		if !near(bin[j], counts[j]) {
			t.Errorf("Chi2Binary[%d] = %g, Chi2 of the binarized matrix %g", j, bin[j], counts[j])
		}
	}
}

func TestChi2AbsentClassAndEmptyColumn(t *testing.T) {
	// Class 1 of 4 has no rows: scikit-learn's LabelBinarizer never sees it.
	X := sparse.FromDense([][]float64{{1, 0, 2}, {3, 0, 0}, {0, 0, 1}})
	p, _ := New(X, 0)
	got, err := p.Chi2([]int{0, 2, 3}, 4)
	if err != nil {
		t.Fatal(err)
	}
	// Column 0: O = (1, 3, 0), F = 4, E = 4/3 each: (1/9 + 25/9 + 16/9)/(4/3) = 3.5.
	if !near(got[0], 3.5) || !math.IsNaN(got[1]) {
		t.Errorf("chi2 = %v, want [3.5 NaN …]", got)
	}
}

func TestChi2Errors(t *testing.T) {
	p, _ := New(sparse.FromDense(chi2X), 0)
	for name, c := range map[string]struct {
		y []int
		k int
	}{
		"short y":     {chi2Y[:3], 3},
		"label ≥ k":   {[]int{1, 1, 0, 0, 2, 3}, 3},
		"negative":    {[]int{1, 1, 0, 0, 2, -1}, 3},
		"one class":   {[]int{1, 1, 1, 1, 1, 1}, 3},
		"no classes":  {chi2Y, 0},
		"binary one":  {[]int{0, 0, 0, 0, 0, 0}, 1},
		"wrong count": {append(slices.Clone(chi2Y), 0), 3},
	} {
		if _, err := p.Chi2(c.y, c.k); !errors.Is(err, ErrLabels) {
			t.Errorf("%s: %v", name, err)
		}
	}
	neg, _ := New(sparse.FromDense([][]float64{{-1, 1}, {1, 1}}), 0)
	if _, err := neg.Chi2([]int{0, 1}, 2); !errors.Is(err, ErrNegative) {
		t.Errorf("negative values: %v", err)
	}
	if _, err := New(&sparse.CSR{Rows: 2}, 0); !errors.Is(err, sparse.ErrShape) {
		t.Errorf("invalid matrix: %v", err)
	}
}

func TestPostingsDF(t *testing.T) {
	X := sparse.FromDense(chi2X)
	X.Data[0] = 0 // a stored zero is not a posting
	for _, w := range []int{1, 3, 0} {
		p, err := New(X, w)
		if err != nil {
			t.Fatal(err)
		}
		if p.Rows() != 6 || p.Cols() != 3 {
			t.Fatalf("shape %d×%d", p.Rows(), p.Cols())
		}
		if p.DF(0) != 3 || p.DF(1) != 5 || p.DF(2) != 4 || p.DF(3) != 0 || p.DF(-1) != 0 {
			t.Errorf("workers %d: df %d %d %d", w, p.DF(0), p.DF(1), p.DF(2))
		}
		if got := p.Docs(1).ToArray(); !slices.Equal(got, []uint32{0, 1, 2, 3, 4}) {
			t.Errorf("docs(1) = %v", got)
		}
		classes, err := ClassDocs(chi2Y, 3)
		if err != nil {
			t.Fatal(err)
		}
		if p.DFIn(2, classes[1]) != 2 || p.DFIn(2, classes[2]) != 0 || p.DFIn(2, nil) != 0 {
			t.Errorf("class df of column 2: %d %d", p.DFIn(2, classes[1]), p.DFIn(2, classes[2]))
		}
	}
	p, _ := New(X, 0)
	d := p.Docs(0)
	d.Add(5)
	if p.DF(0) != 3 {
		t.Error("Docs returned the posting list itself")
	}
	if p.Docs(9).GetCardinality() != 0 {
		t.Error("Docs out of range")
	}
	if _, err := ClassDocs([]int{0, 3}, 2); !errors.Is(err, ErrLabels) {
		t.Errorf("ClassDocs: %v", err)
	}
}

func TestSelectTopK(t *testing.T) {
	scores := []float64{1, 3, 3, math.NaN(), 2, 3, math.Inf(-1)}
	cases := []struct {
		k    int
		want []int32
	}{
		// Stable ascending order keeps the last k: ties go to larger ids.
		{1, []int32{5}},
		{2, []int32{2, 5}},
		{3, []int32{1, 2, 5}},
		{4, []int32{1, 2, 4, 5}},
		{5, []int32{0, 1, 2, 4, 5}},
		{6, []int32{0, 1, 2, 3, 4, 5}}, // NaN ranks above -Inf, as scikit-learn's _clean_nans
		{9, []int32{0, 1, 2, 3, 4, 5, 6}},
		{0, []int32{}},
		{-1, []int32{}},
	}
	for _, c := range cases {
		if got := SelectTopK(scores, c.k); !slices.Equal(got, c.want) {
			t.Errorf("SelectTopK(k=%d) = %v, want %v", c.k, got, c.want)
		}
	}
}

func TestPostingsDenseColumns(t *testing.T) {
	// Column 0 is in every row (a bitmap), column 1 in every eighth.
	rows := make([][]float64, 4*DenseDF)
	y := make([]int, len(rows))
	for i := range rows {
		rows[i] = []float64{1, 0}
		if i%8 == 0 {
			rows[i][1] = 2
		}
		y[i] = i % 2
	}
	p, err := New(sparse.FromDense(rows), 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.bitmap(0) == nil || p.bitmap(1) != nil {
		t.Fatal("want a bitmap for the dense column only")
	}
	classes, _ := ClassDocs(y, 2)
	for col, want := range []uint64{uint64(len(rows) / 2), uint64(len(rows) / 8)} {
		if got := p.DFIn(col, classes[0]); got != want {
			t.Errorf("column %d: DFIn(class 0) = %d, want %d", col, got, want)
		}
		if got := p.Docs(col).GetCardinality(); got != p.DF(col) {
			t.Errorf("column %d: Docs has %d rows, DF %d", col, got, p.DF(col))
		}
	}
	scores, err := p.Chi2(y, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Column 0 is independent of the (balanced) classes; column 1 has
	// O = (64, 0) (value 2 in 32 even rows): F = 64, E = 32 each,
	// χ² = (32² + 32²)/32 = 64.
	if !near(scores[0], 0) || !near(scores[1], 64) {
		t.Errorf("chi2 = %v, want [0 64]", scores)
	}
}

const tol = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }
