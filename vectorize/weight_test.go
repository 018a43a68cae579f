package vectorize

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/idf"
)

// normalize scales every row of X to unit norm n in place.
func normalize(X *CSR, n Norm) {
	for i := 0; i < X.Rows; i++ {
		_, val := X.Row(i)
		NormalizeRow(val, n)
	}
}

func TestNormalize(t *testing.T) {
	X := FromDense([][]float64{{3, 0, -4}, {0, 0, 0}, {1, 1, 2}})
	l2 := clone(X)
	normalize(l2, L2)
	assertDense(t, "l2", l2, [][]float64{{0.6, 0, -0.8}, {0, 0, 0}, {1 / math.Sqrt(6), 1 / math.Sqrt(6), 2 / math.Sqrt(6)}})
	l1 := clone(X)
	normalize(l1, L1)
	assertDense(t, "l1", l1, [][]float64{{3.0 / 7, 0, -4.0 / 7}, {0, 0, 0}, {0.25, 0.25, 0.5}})
	none := clone(X)
	normalize(none, NoNorm)
	assertDense(t, "none", none, toDense(X))
	zero := []float64{0, 0}
	NormalizeRow(zero, L2)
	if zero[0] != 0 || zero[1] != 0 {
		t.Errorf("zero row became %v", zero)
	}
}

func TestNormNames(t *testing.T) {
	for _, n := range []Norm{L2, L1, NoNorm} {
		text, err := n.MarshalText()
		var got Norm
		if err == nil {
			err = got.UnmarshalText(text)
		}
		if err != nil || got != n || string(text) != n.String() {
			t.Errorf("%v: text %q read as %v, %v", n, text, got, err)
		}
	}
	var n Norm
	if err := n.UnmarshalText([]byte("l3")); !errors.Is(err, ErrConfig) {
		t.Errorf("UnmarshalText(l3) error %v", err)
	}
	if _, err := Norm(7).MarshalText(); !errors.Is(err, ErrConfig) {
		t.Errorf("Norm(7).MarshalText error %v", err)
	}
	if Norm(7).String() != "Norm(7)" {
		t.Error(Norm(7).String())
	}
}

func TestTFIDFHand(t *testing.T) {
	// n = 2, df = [2, 1]: smooth idf = [ln(3/3)+1, ln(3/2)+1].
	X := FromDense([][]float64{{3, 0}, {1, 1}})
	tf := TFIDF{}
	if err := tf.Fit(X); err != nil {
		t.Fatal(err)
	}
	if !near(tf.IDF[0], 1) || !near(tf.IDF[1], math.Log(1.5)+1) {
		t.Errorf("idf %v", tf.IDF)
	}
	if err := tf.Transform(X); err != nil {
		t.Fatal(err)
	}
	assertDense(t, "tfidf", X, [][]float64{{1, 0}, {0.5797386715376657, 0.8148024746671689}})

	raw := TFIDF{SublinearTF: true, Norm: NoNorm, IDF: []float64{1, 2}}
	idx, val := []int32{0, 1}, []float64{3, 1}
	if err := raw.TransformRow(idx, val); err != nil {
		t.Fatal(err)
	}
	if !near(val[0], 2.09861228866811) || !near(val[1], 2) {
		t.Errorf("sublinear row %v", val)
	}
}

func TestTFIDFNoSmoothUnseenColumn(t *testing.T) {
	X := FromDense([][]float64{{1, 0, 2}, {1, 0, 0}})
	tf := TFIDF{NoSmoothIDF: true}
	if err := tf.Fit(X); err != nil {
		t.Fatal(err)
	}
	if tf.IDF[0] != 1 || !near(tf.IDF[2], math.Log(2)+1) || tf.IDF[1] != 0 {
		t.Errorf("idf %v, want [1 0 ln2+1]", tf.IDF)
	}
	idx, val := []int32{1, 2}, []float64{4, 1}
	if err := tf.TransformRow(idx, val); err != nil {
		t.Fatal(err)
	}
	if val[0] != 0 || !near(val[1], 1) || math.IsNaN(val[0]+val[1]) {
		t.Errorf("row %v, want [0 1]", val)
	}
}

func TestRennieHand(t *testing.T) {
	// N = 3, df = [1, 2, 1]: idf = [ln 3, ln 1.5, ln 3].
	X := FromDense([][]float64{{2, 1, 0}, {0, 1, 0}, {0, 0, 5}})
	var r Rennie
	if err := r.Fit(X); err != nil {
		t.Fatal(err)
	}
	if !near(r.IDF[0], math.Log(3)) || !near(r.IDF[1], math.Log(1.5)) || !near(r.IDF[2], math.Log(3)) {
		t.Errorf("idf %v", r.IDF)
	}
	if err := r.Transform(X); err != nil {
		t.Fatal(err)
	}
	assertDense(t, "rennie", X, [][]float64{{0.9739436836008571, 0.22678999354908386, 0}, {0, 1, 0}, {0, 0, 1}})

	// A term in every document weighs 0, and so does one never seen.
	var all Rennie
	if err := all.Fit(FromDense([][]float64{{1, 0}, {2, 0}})); err != nil {
		t.Fatal(err)
	}
	idx, val := []int32{0, 1}, []float64{3, 3}
	if err := all.TransformRow(idx, val); err != nil {
		t.Fatal(err)
	}
	if val[0] != 0 || val[1] != 0 {
		t.Errorf("row %v, want zeros", val)
	}
}

func TestWeightErrors(t *testing.T) {
	X := FromDense([][]float64{{1, 2}})
	var tf TFIDF
	var r Rennie
	for name, err := range map[string]error{
		"tfidf transform unfitted": tf.Transform(X),
		"tfidf row unfitted":       tf.TransformRow([]int32{0}, []float64{1}),
		"rennie transform unfit":   r.Transform(X),
		"rennie row unfitted":      r.TransformRow([]int32{0}, []float64{1}),
	} {
		if !errors.Is(err, ErrNotFitted) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := tf.Fit(NewCSR(3)); !errors.Is(err, ErrShape) {
		t.Errorf("fit on 0 rows: %v", err)
	}
	if err := tf.Fit(&CSR{Rows: 1, Cols: 2, Indptr: []int{0, 1}, Indices: []int32{5}, Data: []float64{1}}); !errors.Is(err, ErrShape) {
		t.Errorf("fit on an invalid matrix: %v", err)
	}
	if err := tf.Fit(X); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"wide matrix":      tf.Transform(FromDense([][]float64{{1, 2, 3}})),
		"invalid matrix":   tf.Transform(&CSR{Rows: 1, Cols: 2, Indptr: []int{0, 1}, Indices: []int32{1, 0}, Data: []float64{1}}),
		"column too large": tf.TransformRow([]int32{2}, []float64{1}),
		"negative column":  tf.TransformRow([]int32{-1}, []float64{1}),
		"length mismatch":  tf.TransformRow([]int32{0}, nil),
	} {
		if !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestLogCountIsLog(t *testing.T) {
	for _, v := range []float64{0, 1, 2, 3, 7.5, 100, 255, 256, 1000, 0.25, 1e9} {
		if got, want := logCount(v), math.Log(v); got != want {
			t.Errorf("logCount(%g) = %v, want %v", v, got, want)
		}
		if got, want := log1pCount(v), math.Log1p(v); got != want {
			t.Errorf("log1pCount(%g) = %v, want %v", v, got, want)
		}
	}
}

// TestFitDFMatchesFit checks that the weights training computes from
// document frequencies (internal/idf) are those of fitting the matrix.
func TestFitDFMatchesFit(t *testing.T) {
	X := FromDense([][]float64{{1, 0, 2, 0}, {0, 3, 1, 0}, {4, 0, 1, 0}})
	df := []int64{2, 1, 3, 0}
	for _, opts := range []TFIDF{{}, {NoSmoothIDF: true}, {SublinearTF: true, Norm: L1}} {
		fit := opts
		if err := fit.Fit(X); err != nil {
			t.Fatal(err)
		}
		fromDF, err := idf.TFIDF(X.Rows, df, !opts.NoSmoothIDF)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fit.IDF, fromDF) {
			t.Fatalf("%+v: from df %v, Fit %v", opts, fromDF, fit.IDF)
		}
	}
	var fit Rennie
	if err := fit.Fit(X); err != nil {
		t.Fatal(err)
	}
	fromDF, err := idf.Rennie(X.Rows, df)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fit.IDF, fromDF) {
		t.Fatalf("Rennie: from df %v, Fit %v", fromDF, fit.IDF)
	}
	if err := new(TFIDF).Fit(&CSR{Cols: 1, Indptr: []int{0}}); !errors.Is(err, ErrShape) {
		t.Errorf("Fit of no rows: %v, want ErrShape", err)
	}
}
