package compact

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/nb"

	"github.com/textnb/textnb/internal/golden"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

// spSkewed returns rows of count data over cols columns in which a row of
// class k mostly uses the class's own band of columns (many zero
// class-feature cells); columns ≥ used never occur. Every non-empty row
// also ends in an explicit zero.
func spSkewed(r *rand.Rand, y []int, cols, used int) *vectorize.CSR {
	X := vectorize.NewCSR(cols)
	dense := make([]float64, cols)
	for _, label := range y {
		clear(dense)
		for range 8 {
			j := r.IntN(used)
			if r.IntN(4) != 0 {
				j = (label*used/5 + r.IntN(used/5)) % used
			}
			dense[j] += float64(1 + r.IntN(3))
		}
		X.AppendRow(testkit.NonZero(dense))
		if n := len(X.Data); n > 0 {
			X.Data[n-1] = 0
		}
	}
	return X
}

// spEqual fails unless s holds exactly the statistics of c.
func spEqual(t *testing.T, what string, s *Counts, c *nb.Counts) {
	t.Helper()
	d := s.Dense()
	if d == nil {
		t.Fatalf("%s: malformed sparse counts: %v", what, s.check())
	}
	if d.Classes != c.Classes || d.Features != c.Features || d.Binary != c.Binary || d.Threshold != c.Threshold ||
		!slices.Equal(d.ClassCount, c.ClassCount) || !slices.Equal(d.FeatureCount, c.FeatureCount) {
		t.Fatalf("%s: sparse counts differ from dense counts", what)
	}
	nz := 0
	for _, v := range c.FeatureCount {
		if v != 0 {
			nz++
		}
	}
	if s.NNZ() != nz {
		t.Fatalf("%s: %d cells stored, %d non-zero counts", what, s.NNZ(), nz)
	}
}

func TestSparseCountsMatchCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	y := testkit.Labels(r, 150, 5)
	X := spSkewed(r, y, 120, 100)
	for _, est := range []nb.Estimator{&nb.Multinomial{}, &nb.Bernoulli{Binarize: 1.5}, &nb.Bernoulli{}} {
		c := nb.NewCounts(est, 5, X.Cols)
		if err := c.Add(X, y, nil); err != nil {
			t.Fatal(err)
		}
		s, err := Count(est, X, y, 5)
		if err != nil {
			t.Fatal(err)
		}
		spEqual(t, "count", s, c)
		byRow, err := CountRows(est, X.Cols, y, 5, func(i int, idx []int32, val []float64) ([]int32, []float64) {
			ri, rv := X.Row(i)
			return append(idx, ri...), append(val, rv...)
		})
		if err != nil {
			t.Fatal(err)
		}
		spEqual(t, "CountRows", byRow, c)
		back := FromDense(c)
		if err := back.check(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(back.Ptr, s.Ptr) || !slices.Equal(back.Class, s.Class) || !slices.Equal(back.Count, s.Count) {
			t.Fatalf("%T: FromDense differs from count", est)
		}
		spEqual(t, "nb.Counts.Sparse", back, c)
	}
	if s := FromDense(nb.NewCounts(nil, MaxClasses+1, 1)); s != nil {
		t.Fatal("Sparse of 65536 classes succeeded")
	}
}

// Wide counts are laid out by feature in several ranges at once; each
// range must take exactly its stretch of every class's cells, those on
// either side of a range's bounds included.
func TestSparseCountsWideMatchCounts(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4)) // several ranges run at once on any machine
	r := rand.New(rand.NewPCG(23, 24))
	y := testkit.Labels(r, 400, 5)
	cols := 3*featureMajorChunk + featureMajorChunk/2
	X := spSkewed(r, y, cols, cols)
	// Every class also has cells at the features around each bound.
	var edges [][]float64
	var edgeY []int
	for label := range 5 {
		dense := make([]float64, cols)
		for k := 1; k <= 3; k++ {
			for d := -1; d <= 1; d++ {
				dense[k*featureMajorChunk+d] = float64(1 + label + k)
			}
		}
		edges, edgeY = append(edges, dense), append(edgeY, label)
	}
	X, err := stackRows(cols, []*vectorize.CSR{X, vectorize.FromDense(edges)})
	if err != nil {
		t.Fatal(err)
	}
	y = append(y, edgeY...)
	c := nb.NewCounts(nil, 5, cols)
	if err := c.Add(X, y, nil); err != nil {
		t.Fatal(err)
	}
	s, err := count(X, y, 5, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	spEqual(t, "wide count", s, c)
}

func TestSparseCountsRejectBadInput(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 0, 2}, {0, 1, 0}, {0, 0, 1}, {5, 0, 0}})
	y := []int{0, 1, 0, 1}
	X.Data[4] = -1 // row 3 column 0
	_, err := count(X, y, 2, false, 0)
	if !errors.Is(err, nb.ErrNegative) || !strings.Contains(err.Error(), "row 3 column 0 has value -1") {
		t.Fatalf("negative value: %v", err)
	}
	if _, err := count(X, y, 2, true, 0); !errors.Is(err, nb.ErrNegative) {
		t.Fatalf("negative value in binary counts: %v, want nb.ErrNegative", err)
	}
	X.Data[4] = math.NaN()
	if _, err := count(X, y, 2, false, 0); !errors.Is(err, nb.ErrNotFinite) {
		t.Fatalf("NaN value: %v, want nb.ErrNotFinite", err)
	}
	X.Data[4] = 5
	if _, err := count(X, []int{0, 1, 2, 1}, 2, false, 0); !errors.Is(err, nb.ErrLabel) ||
		!strings.Contains(err.Error(), "row 2 has label 2") {
		t.Fatalf("label 2 of 2 classes: %v", err)
	}
	if _, err := count(X, y[:3], 2, false, 0); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("too few labels: %v, want nb.ErrShape", err)
	}
	for _, k := range []int{0, MaxClasses + 1} {
		if _, err := count(X, y, k, false, 0); !errors.Is(err, nb.ErrShape) {
			t.Fatalf("%d classes: %v, want nb.ErrShape", k, err)
		}
	}
	if _, err := count(nil, nil, 2, false, 0); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("nil matrix: %v, want nb.ErrShape", err)
	}
}

// TestSparseCountsFuncMatchesMatrix gives countRows the rows of
// a matrix with their columns reversed, appended to its buffers.
func TestSparseCountsFuncMatchesMatrix(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	y := testkit.Labels(r, 200, 6)
	X := spSkewed(r, y, 90, 80)
	reversed := func(i int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := X.Row(i)
		for k := len(ri) - 1; k >= 0; k-- {
			idx, val = append(idx, ri[k]), append(val, rv[k])
		}
		return idx, val
	}
	for _, binary := range []bool{false, true} {
		want, err := count(X, y, 6, binary, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		got, err := countRows(X.Cols, y, 6, binary, 0.5, reversed)
		if err != nil {
			t.Fatal(err)
		}
		spEqual(t, "countRows", got, want.Dense())
	}
}

func TestSparseCountsFuncRejectsBadRows(t *testing.T) {
	y := []int{0, 1, 0, 1, 1}
	rows := func(bad int, col int32, v float64) RowFunc {
		return func(i int, idx []int32, val []float64) ([]int32, []float64) {
			if i >= bad {
				return append(idx, 0, col), append(val, 1, v)
			}
			return append(idx, 1), append(val, 2)
		}
	}
	cases := []struct {
		row  RowFunc
		want error
		text string
	}{
		{rows(3, 4, 1), nb.ErrShape, "row 3 column 4"},
		{rows(2, 1, -1), nb.ErrNegative, "row 2 column 1 has value -1"},
		{rows(1, 2, math.Inf(1)), nb.ErrNotFinite, "row 1 column 2"},
		{func(i int, idx []int32, val []float64) ([]int32, []float64) { return append(idx, 0), val }, nb.ErrShape, "row 0 has 1 columns and 0 values"},
	}
	for _, c := range cases {
		_, err := countRows(3, y, 2, false, 0, c.row)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("got %v, want %v with %q", err, c.want, c.text)
		}
	}
	if _, err := countRows(-1, y, 2, false, 0, rows(9, 0, 1)); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("-1 features: %v, want nb.ErrShape", err)
	}
}

// spCount counts X's rows [lo, hi) into 4 classes.
func spCount(t *testing.T, X *vectorize.CSR, y []int, lo, hi int, binary bool, thr float64) *Counts {
	t.Helper()
	s, err := count(txtSlice(X, lo, hi), y[lo:hi], 4, binary, thr)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSparseMergeEqualsUnion(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	y := testkit.Labels(r, 200, 4)
	X := spSkewed(r, y, 90, 80)
	a, b, all := spCount(t, X, y, 0, 70, false, 0), spCount(t, X, y, 70, 200, false, 0), spCount(t, X, y, 0, 200, false, 0)
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	spEqual(t, "merged", m, all.Dense())
	if a.NNZ() == m.NNZ() || b.NNZ() == m.NNZ() {
		t.Fatal("one half holds every cell: the test proves nothing")
	}
	other, err := count(vectorize.NewCSR(89), nil, 4, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Merge(a, other)
	if !errors.Is(err, nb.ErrShape) || !strings.Contains(err.Error(), "4 classes × 89 features into 4 classes × 90 features") {
		t.Fatalf("Merge of a different shape: %v", err)
	}
	bin := spCount(t, X, y, 0, 10, true, 0)
	if _, err := Merge(a, bin); !errors.Is(err, nb.ErrConfig) || !strings.Contains(err.Error(), "binary=true") {
		t.Fatalf("Merge of binary into raw counts: %v", err)
	}
	if _, err := Merge(bin, spCount(t, X, y, 0, 10, true, 1)); !errors.Is(err, nb.ErrConfig) ||
		!strings.Contains(err.Error(), "threshold=1") {
		t.Fatalf("Merge at another threshold: %v", err)
	}
	broken := *b
	broken.Class = slices.Clone(b.Class)
	broken.Class[0] = 9
	if _, err := Merge(a, &broken); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("Merge of malformed counts: %v, want nb.ErrShape", err)
	}
	if _, err := Merge(a, nil); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("Merge of nil: %v, want nb.ErrShape", err)
	}
}

// The reference the sparse Remap is tested against.
func TestDenseRemap(t *testing.T) {
	c := nb.NewCounts(nil, 2, 4)
	copy(c.ClassCount, []float64{3, 4})
	copy(c.FeatureCount, []float64{1, 2, 3, 4, 5, 6, 7, 8})
	d, err := denseRemap(c, 3, []int32{2, -1, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.ClassCount, c.ClassCount) || !slices.Equal(d.FeatureCount, []float64{3, 0, 5, 7, 0, 13}) {
		t.Fatalf("remapped %v %v", d.ClassCount, d.FeatureCount)
	}
	if _, err := denseRemap(c, 3, []int32{0, 1}); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("short mapping: %v, want nb.ErrShape", err)
	}
	if _, err := denseRemap(c, 3, []int32{0, 1, 2, 3}); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("mapping beyond the vocabulary: %v, want nb.ErrShape", err)
	}
}

func TestSparseRemap(t *testing.T) {
	c := nb.NewCounts(nil, 2, 4)
	copy(c.ClassCount, []float64{3, 4})
	copy(c.FeatureCount, []float64{1, 2, 0, 4, 5, 0, 7, 8})
	mapping := []int32{2, -1, 0, 2}
	want, err := denseRemap(c, 3, mapping)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromDense(c).Remap(3, mapping)
	if err != nil {
		t.Fatal(err)
	}
	spEqual(t, "remapped", got, want) // two cells sum into one
	if got.NNZ() != 3 {
		t.Fatalf("%d cells after remapping, want 3", got.NNZ())
	}
	for _, injective := range [][]int32{{3, 0, 4, 1}, {-1, 2, 0, -1}} { // no two features share a column
		want, err := denseRemap(c, 5, injective)
		if err != nil {
			t.Fatal(err)
		}
		got, err := FromDense(c).Remap(5, injective)
		if err != nil {
			t.Fatal(err)
		}
		spEqual(t, fmt.Sprint("moved by ", injective), got, want)
	}
	if _, err := FromDense(c).Remap(3, []int32{0, 1}); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("short mapping: %v, want nb.ErrShape", err)
	}
	if _, err := FromDense(c).Remap(3, []int32{0, 1, 2, 3}); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("mapping beyond the vocabulary: %v, want nb.ErrShape", err)
	}
}

// Wide counts are moved and checked on several goroutines, chunk by chunk.
func TestSparseRemapWide(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const k, f = 3, 5000
	r := rand.New(rand.NewPCG(7, 8))
	c := nb.NewCounts(nil, k, f)
	for i := range c.FeatureCount {
		if r.IntN(3) == 0 {
			c.FeatureCount[i] = float64(1 + r.IntN(9))
		}
	}
	for i := range c.ClassCount {
		c.ClassCount[i] = 10
	}
	to := make([]int32, f)
	for j, p := range r.Perm(f + 100)[:f] { // injective, with gaps
		to[j] = int32(p)
		if j%7 == 0 {
			to[j] = -1
		}
	}
	want, err := denseRemap(c, f+100, to)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromDense(c).Remap(f+100, to)
	if err != nil {
		t.Fatal(err)
	}
	spEqual(t, "moved by a wide permutation", got, want)
}

// Checks of wide counts report the first bad feature or cell, whichever
// goroutine meets it.
func TestSparseCheckReportsFirstBad(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	const f = 4000
	c := nb.NewCounts(nil, 2, f)
	for i := range c.FeatureCount {
		c.FeatureCount[i] = 1
	}
	c.ClassCount[0], c.ClassCount[1] = 1, 1
	s := FromDense(c)
	bad := *s
	bad.Class = slices.Clone(s.Class)
	for _, j := range []int{3500, 2100} { // swap the classes of two features' cells
		p := s.Ptr[j]
		bad.Class[p], bad.Class[p+1] = bad.Class[p+1], bad.Class[p]
	}
	if _, err := bad.Remap(f, nil); err == nil || !strings.Contains(err.Error(), "feature 2100 ") {
		t.Errorf("cells out of order at features 2100 and 3500: %v, want an error naming feature 2100", err)
	}
	bad = *s
	bad.Count = slices.Clone(s.Count)
	bad.Count[7000], bad.Count[3000] = math.NaN(), -1
	if _, err := bad.Remap(f, nil); err == nil || !strings.Contains(err.Error(), "feature count 3000 ") {
		t.Errorf("bad counts at cells 3000 and 7000: %v, want an error naming cell 3000", err)
	}
}

// firstBad finds the lowest bad index whichever goroutine finds its own
// first.
func TestFirstBad(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	if i := firstBad(10000, func(lo, hi int) int { return hi }); i != 10000 {
		t.Errorf("firstBad with nothing bad = %d, want 10000", i)
	}
	for _, want := range []int{0, 1, 127, 128, 5000, 9999} {
		every := func(lo, hi int) int { // every chunk from want's on has a bad index
			return max(lo, min(want, hi))
		}
		for range 20 {
			if i := firstBad(10000, every); i != want {
				t.Fatalf("firstBad = %d, want %d", i, want)
			}
		}
	}
}

func TestSparseRemapClasses(t *testing.T) {
	c := nb.NewCounts(nil, 3, 3)
	copy(c.ClassCount, []float64{3, 4, 5})
	copy(c.FeatureCount, []float64{1, 0, 2, 0, 6, 0, 7, 8, 0})
	// Classes 0 and 2 swap places in four classes; class 3 stays empty.
	got, err := FromDense(c).RemapClasses(4, []int{2, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	want := nb.NewCounts(nil, 4, 3)
	copy(want.ClassCount, []float64{5, 4, 3, 0})
	copy(want.FeatureCount, []float64{7, 8, 0, 0, 6, 0, 1, 0, 2, 0, 0, 0})
	spEqual(t, "reordered", got, want)
	// Two classes mapped to one add up.
	merged, err := FromDense(c).RemapClasses(2, []int{0, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	want = nb.NewCounts(nil, 2, 3)
	copy(want.ClassCount, []float64{8, 4})
	copy(want.FeatureCount, []float64{8, 8, 2, 0, 6, 0})
	spEqual(t, "joined", merged, want)
	for _, bad := range [][]int{{0, 1}, {0, 1, 4}, {0, -1, 1}} {
		if _, err := FromDense(c).RemapClasses(4, bad); !errors.Is(err, nb.ErrShape) {
			t.Errorf("mapping %v: %v, want nb.ErrShape", bad, err)
		}
	}
}

// nb.Counts over two vocabularies, remapped into their union and merged,
// equal counting all documents in the union space.
func TestSparseRemapThenMergeEqualsJointTraining(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	y := testkit.Labels(r, 120, 4)
	X := spSkewed(r, y, 60, 60)
	// Vocabulary A is columns 0..39 in order, B columns 20..59 reversed;
	// each half of the documents is seen through one of them.
	toA, toB := make([]int32, 60), make([]int32, 60)
	fromA, fromB := make([]int32, 40), make([]int32, 40)
	for j := range int32(60) {
		toA[j], toB[j] = -1, -1
		if j < 40 {
			toA[j], fromA[j] = j, j
		}
		if j >= 20 {
			toB[j], fromB[59-j] = 59-j, j
		}
	}
	xa, err := remapColumns(txtSlice(X, 0, 60), toA, 40)
	if err != nil {
		t.Fatal(err)
	}
	xb, err := remapColumns(txtSlice(X, 60, 120), toB, 40)
	if err != nil {
		t.Fatal(err)
	}
	ua, err := spCount(t, xa, y[:60], 0, 60, false, 0).Remap(60, fromA)
	if err != nil {
		t.Fatal(err)
	}
	ub, err := spCount(t, xb, y[60:], 0, 60, false, 0).Remap(60, fromB)
	if err != nil {
		t.Fatal(err)
	}
	merged, err := Merge(ua, ub)
	if err != nil {
		t.Fatal(err)
	}
	joint := nb.NewCounts(nil, 4, 60)
	for i, part := range []*vectorize.CSR{xa, xb} {
		from := [][]int32{fromA, fromB}[i]
		back, err := remapColumns(part, from, 60)
		if err != nil {
			t.Fatal(err)
		}
		if err := joint.Add(back, y[60*i:60*i+60], nil); err != nil {
			t.Fatal(err)
		}
	}
	spEqual(t, "remap+merge", merged, joint)
}

func TestSparseCountsMalformed(t *testing.T) {
	c := nb.NewCounts(nil, 2, 3)
	c.ClassCount[0], c.FeatureCount[1] = 1, 2
	for name, bad := range map[string]func(*Counts){
		"ptr":      func(s *Counts) { s.Ptr = s.Ptr[:2] },
		"ptrOrder": func(s *Counts) { s.Ptr[1] = 1; s.Ptr[2] = 0 },
		"class":    func(s *Counts) { s.Class[0] = 2 },
		"classes":  func(s *Counts) { s.Classes = 3 },
		"negative": func(s *Counts) { s.ClassCount[0] = -1 },
		"cells":    func(s *Counts) { s.Count = append(s.Count, 1) },
	} {
		s := FromDense(c)
		bad(s)
		if s.Dense() != nil {
			t.Errorf("%s: Dense of malformed counts succeeded", name)
		}
		if _, err := s.Remap(3, []int32{0, 1, 2}); err == nil {
			t.Errorf("%s: Remap of malformed counts succeeded", name)
		}
		if _, err := Fit(&nb.Multinomial{}, s); err == nil {
			t.Errorf("%s: Fit of malformed counts succeeded", name)
		}
	}
}

// spRelClose fails unless got and want agree to tol relative to
// max(|want|, scale); infinities must be equal.
func spRelClose(t *testing.T, what string, got, want []float64, tol, scale float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i, w := range want {
		if got[i] != w && !(math.Abs(got[i]-w) <= tol*max(math.Abs(w), scale)) {
			t.Fatalf("%s[%d] = %.17g, want %.17g", what, i, got[i], w)
		}
	}
}

// spMaxAbs returns the largest magnitude in v.
func spMaxAbs(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	return m
}

// spFitCompact fits est from sparse counts of X.
func spFitCompact(t *testing.T, est nb.Estimator, X *vectorize.CSR, y []int, classes int) *Linear {
	t.Helper()
	s, err := Count(est, X, y, classes)
	if err != nil {
		t.Fatal(err)
	}
	lin, err := Fit(est, s)
	if err != nil {
		t.Fatal(err)
	}
	return lin
}

func TestCompactGolden(t *testing.T) {
	for _, c := range testkit.TextGoldenCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			est := txtEstimator(t, c)
			lin := spFitCompact(t, est, vectorize.FromDense(c.XTrain), c.YTrain, len(c.Classes))
			if flp, clp := txtParams(est); flp != nil || clp != nil {
				t.Fatal("Fit changed the model it fitted")
			}
			if c.Model == "MultinomialNB" {
				golden.Close(t, "class_log_prior_", lin.Bias, c.ClassLogPrior, 1e-9)
			}
			Q := vectorize.FromDense(c.XQuery)
			golden.Close(t, "joint_log_likelihood", jointCSR(lin, Q), slices.Concat(c.JLL...), 1e-9)
			golden.Close(t, "predict_log_proba", nb.LogProbaCSR(lin, Q, 1), slices.Concat(c.LogProba...), 1e-9)
			if c.Model == "BernoulliNB" {
				return // its weights are transformed; TestCompactMatchesDense checks them
			}
			var want [][]float64
			if err := json.Unmarshal(c.FeatureLogProb, &want); err != nil {
				t.Fatal(err)
			}
			k := len(c.Classes)
			f := len(want[0])
			w := make([]float64, k*f) // the golden table, features×K
			for cl := range k {
				for j := range f {
					w[j*k+cl] = want[cl][j]
				}
			}
			golden.Close(t, "feature_log_prob_", lin.Dense().W, w, 1e-9)
		})
	}
}

// The compact form of every model scores and expands like the dense fit, on
// data with many zero cells and features never seen in training.
func TestCompactMatchesDense(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	const k, f = 5, 300
	y := testkit.Labels(r, 400, k)
	X := spSkewed(r, y, f, 260)
	Q := spSkewed(r, testkit.Labels(r, 60, k), f, f) // queries use unseen features too
	Q.AppendRow([]int32{3, f - 1}, []float64{2, 1})
	Q.AppendRow(nil, nil)
	for _, est := range []nb.Estimator{
		&nb.Multinomial{Alpha: 0.5},
		&nb.Multinomial{UniformPrior: true},
		&nb.Multinomial{ClassPrior: []float64{0.1, 0.2, 0.3, 0.2, 0.2}, Alpha: 1e-12},
		&nb.Complement{Alpha: 0.3},
		&nb.Complement{Norm: true},
		&nb.Complement{Norm: true, Alpha: 0.01, UniformPrior: true},
		&nb.Bernoulli{Binarize: 1.5},
		&nb.Bernoulli{Alpha: 2, UniformPrior: true},
	} {
		what := fmt.Sprintf("%T%+v", est, est)
		lin := spFitCompact(t, est, X, y, k)
		txtFit(t, est, X, y, k)
		spRelClose(t, what+" jll", jointCSR(lin, Q), jointCSR(est, Q), 1e-10, 0)
		dense, got := txtDense(est), lin.Dense()
		if got.K != k || got.NumFeatures() != f || got.Binary != dense.Binary || got.Threshold != dense.Threshold {
			t.Fatalf("%s: expanded to %d×%d binary=%t at %g", what, got.K, got.NumFeatures(), got.Binary, got.Threshold)
		}
		spRelClose(t, what+" bias", got.Bias, dense.Bias, 1e-10, 0)
		// Weights near zero (nb.Bernoulli's log odds) are compared relative to
		// the table's largest weight.
		spRelClose(t, what+" weights", got.W, dense.W, 1e-10, spMaxAbs(dense.W))
		if spFitCompact(t, est, X, y, k); !slices.Equal(txtDense(est).W, dense.W) {
			t.Fatalf("%s: Fit changed the model it fitted", what)
		}
	}
	// Already binary data, scored with raw values as nb.Bernoulli does then.
	Xb := clone(X)
	for i, v := range Xb.Data {
		Xb.Data[i] = min(v, 1)
	}
	est := &nb.Bernoulli{NoBinarize: true, Alpha: 0.4}
	lin := spFitCompact(t, est, Xb, y, k)
	txtFit(t, est, Xb, y, k)
	spRelClose(t, "NoBinarize jll", jointCSR(lin, Q), jointCSR(est, Q), 1e-10, 0)
}

// A single class: nb.Complement adds the prior, as scikit-learn does, and
// every seen feature has a cell in that class.
func TestCompactOneClass(t *testing.T) {
	X := vectorize.FromDense([][]float64{{1, 2, 0}, {3, 0, 0}})
	y := []int{0, 0}
	for _, est := range []nb.Estimator{&nb.Complement{}, &nb.Complement{Norm: true}, &nb.Multinomial{}, &nb.Bernoulli{}} {
		lin := spFitCompact(t, est, X, y, 1)
		txtFit(t, est, X, y, 1)
		for _, row := range [][]float64{{1, 1, 1}, {0, 2, 0}} {
			idx, val := []int32{0, 1, 2}, row
			spRelClose(t, fmt.Sprintf("%T", est), lin.JointLogLikelihood(nil, idx, val),
				est.JointLogLikelihood(nil, idx, val), 1e-10, 0)
		}
	}
}

func TestFitCompactRejectsBadInput(t *testing.T) {
	X := vectorize.FromDense([][]float64{{3, 0}, {0, 1}})
	raw, err := count(X, []int{0, 1}, 2, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := &nb.Bernoulli{}
	if _, err := Fit(m, raw); !errors.Is(err, nb.ErrConfig) {
		t.Fatalf("raw counts into a binarizing model: %v, want nb.ErrConfig", err)
	}
	if _, err := Fit(&nb.Bernoulli{NoBinarize: true}, raw); !errors.Is(err, nb.ErrConfig) ||
		!strings.Contains(err.Error(), "not 0/1") {
		t.Fatalf("non-binary data with NoBinarize: %v, want nb.ErrConfig", err)
	}
	if m.ClassLogPrior != nil {
		t.Fatal("a failed Fit changed the model")
	}
	if _, err := Fit(&nb.Multinomial{Alpha: -1}, raw); !errors.Is(err, nb.ErrConfig) {
		t.Fatalf("negative alpha: %v, want nb.ErrConfig", err)
	}
	if _, err := Fit((&nb.Complement{ClassPrior: []float64{1}}), raw); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("one prior for two classes: %v, want nb.ErrShape", err)
	}
	if _, err := Fit(&nb.Multinomial{}, nil); !errors.Is(err, nb.ErrShape) {
		t.Fatalf("nil counts: %v, want nb.ErrShape", err)
	}
	empty, err := count(vectorize.NewCSR(2), nil, 2, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Fit(&nb.Complement{}, empty); !errors.Is(err, nb.ErrEmpty) {
		t.Fatalf("no documents: %v, want nb.ErrEmpty", err)
	}
}

// TestClassSumTouchedBounded checks that a class's list of touched
// features stops growing once scanning every sum is cheaper, whatever the
// number of rows added, and that its sums and cells stay exact.
func TestClassSumTouchedBounded(t *testing.T) {
	const features = 4096
	r := rand.New(rand.NewPCG(7, 25))
	a := classSum{sum: make([]float64, features)}
	want := make([]float64, features)
	most := 0
	for round := range 3 {
		clear(want)
		for i := range 2000 * (round + 1) {
			idx := []int32{int32(r.IntN(features)), int32(r.IntN(features)), int32(i % features)}
			idx = slices.Compact(slices.Sorted(slices.Values(idx)))
			val := make([]float64, len(idx))
			for k, j := range idx {
				val[k] = float64(r.IntN(3)) // zeros leave sums as they are
				want[j] += val[k]
			}
			a.add(idx, val, false, 0)
			most = max(most, cap(a.touched))
		}
		if !a.dense {
			t.Fatalf("round %d: touched still kept after most features were touched", round)
		}
		var cells []classCell
		for j, v := range want {
			if v != 0 {
				cells = append(cells, classCell{int32(j), v})
			}
		}
		if got := a.cells(); !slices.Equal(got, cells) {
			t.Fatalf("round %d: %d cells, want %d", round, len(got), len(cells))
		}
		a.clear()
		if a.dense || len(a.touched) != 0 || slices.ContainsFunc(a.sum, func(v float64) bool { return v != 0 }) {
			t.Fatalf("round %d: clear left sums or touched features", round)
		}
	}
	// Doubling from features/16 plus a row: not the thousands of entries
	// that 6000 rows touch.
	if bound := 2 * (features/16 + 3); most > bound {
		t.Fatalf("touched grew to %d entries, want at most %d", most, bound)
	}
	// Sparse again after clear: a few rows are listed, not scanned.
	a.add([]int32{5, 9}, []float64{1, 2}, false, 0)
	if a.dense || !slices.Equal(a.cells(), []classCell{{5, 1}, {9, 2}}) {
		t.Fatalf("after clear: dense %v, cells %v", a.dense, a.cells())
	}
}

// The matrix operations below are internal to textnb (internal/sparse).

func remapColumns(X *vectorize.CSR, oldToNew []int32, cols int) (*vectorize.CSR, error) {
	R, err := (*sparse.CSR)(X).RemapColumns(oldToNew, cols)
	return (*vectorize.CSR)(R), err
}

func stackRows(cols int, parts []*vectorize.CSR) (*vectorize.CSR, error) {
	ps := make([]*sparse.CSR, len(parts))
	for i, p := range parts {
		ps[i] = (*sparse.CSR)(p)
	}
	X, err := sparse.StackRows(cols, ps)
	return (*vectorize.CSR)(X), err
}

func clone(X *vectorize.CSR) *vectorize.CSR { return (*vectorize.CSR)((*sparse.CSR)(X).Clone()) }
