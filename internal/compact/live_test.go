package compact

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// randomRows returns n rows of integer counts over f features, with
// labels of k classes, some features in no row.
func randomRows(r *rand.Rand, n, f, k int) (*vectorize.CSR, []int) {
	X := vectorize.NewCSR(f)
	y := make([]int, n)
	for i := range n {
		var idx []int32
		var val []float64
		for j := range f - 3 { // the last three columns stay empty
			if r.IntN(4) == 0 {
				idx, val = append(idx, int32(j)), append(val, float64(1+r.IntN(3)))
			}
		}
		X.AppendRow(idx, val)
		y[i] = i % k
	}
	return X, y
}

// TestLiveMatchesFit learns and unlearns rows into a Live and compares
// its counts and scores with Fit's of the counts counted from scratch:
// the reference.
func TestLiveMatchesFit(t *testing.T) {
	for _, tc := range []struct {
		name string
		est  nb.Estimator
		k    int
	}{
		{"mnb", &nb.Multinomial{Alpha: 0.3}, 3},
		{"mnb uniform", &nb.Multinomial{Alpha: 1, UniformPrior: true}, 2},
		{"cnb", &nb.Complement{Alpha: 0.1}, 4},
		{"cnb 32 classes", &nb.Complement{Alpha: 0.5}, 32},
	} {
		r := rand.New(rand.NewPCG(1, uint64(tc.k)))
		X, y := randomRows(r, 120, 40, tc.k)
		first := 60 // counted at the start; the rest are learned
		s, err := Count(tc.est, txtSlice(X, 0, first), y[:first], tc.k)
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLive(tc.est, s, false, true)
		if err != nil {
			t.Fatal(err)
		}
		in := slices.Repeat([]bool{true}, first) // rows the counts hold
		in = append(in, make([]bool, X.Rows-first)...)
		for step := range 200 {
			i := r.IntN(X.Rows)
			idx, val := X.Row(i)
			sign := 1.0
			if in[i] {
				sign = -1
			}
			if err := l.Add(y[i], idx, val, sign); err != nil {
				t.Fatalf("%s: step %d: %v", tc.name, step, err)
			}
			in[i] = !in[i]
			if step%20 != 19 {
				continue
			}
			var rows []int
			for i, ok := range in {
				if ok {
					rows = append(rows, i)
				}
			}
			want := referenceCounts(t, tc.est, X, y, rows, tc.k)
			got, _ := l.Counts()
			if !slices.Equal(got.Ptr, want.Ptr) || !slices.Equal(got.Class, want.Class) || !slices.Equal(got.Count, want.Count) ||
				!slices.Equal(got.ClassCount, want.ClassCount) {
				t.Fatalf("%s: step %d: counts differ from counting the rows", tc.name, step)
			}
			fit, err := Fit(tc.est, want)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := fit.Scorer()
			if err != nil {
				t.Fatal(err)
			}
			for q := range X.Rows {
				idx, val := X.Row(q)
				a, b := l.JointLogLikelihood(nil, idx, val), sc.JointLogLikelihood(nil, idx, val)
				for c := range a {
					if math.Abs(a[c]-b[c]) > 1e-12*max(1, math.Abs(b[c])) {
						t.Fatalf("%s: step %d: row %d scores %v, Fit's %v", tc.name, step, q, a, b)
					}
				}
			}
		}
	}
}

// referenceCounts counts the given rows of X from scratch.
func referenceCounts(t *testing.T, est nb.Estimator, X *vectorize.CSR, y, rows []int, k int) *Counts {
	t.Helper()
	sub := vectorize.NewCSR(X.Cols)
	var labels []int
	for _, i := range rows {
		idx, val := X.Row(i)
		sub.AppendRow(idx, val)
		labels = append(labels, y[i])
	}
	s, err := Count(est, sub, labels, k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLiveDropsEmptyFeatures(t *testing.T) {
	est := &nb.Multinomial{Alpha: 0.5}
	r := rand.New(rand.NewPCG(2, 2))
	X, y := randomRows(r, 10, 12, 2)
	s, err := Count(est, X, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLive(est, s, true, true)
	if err != nil {
		t.Fatal(err)
	}
	// The three empty columns are not features; a row that adds to one
	// makes it one, and taking the row away again drops it.
	if got, _ := l.Counts(); got.Features != 9 {
		t.Fatalf("%d features, want 9", got.Features)
	}
	before := l.JointLogLikelihood(nil, []int32{0, 1}, []float64{1, 1})
	row, vals := []int32{1, 10}, []float64{2, 1}
	if err := l.Add(0, row, vals, 1); err != nil {
		t.Fatal(err)
	}
	if got, keep := l.Counts(); got.Features != 10 || !keep[10] {
		t.Fatalf("%d features after learning a new one, want 10", got.Features)
	}
	if err := l.Add(0, row, vals, -1); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.Counts(); got.Features != 9 {
		t.Fatalf("%d features after unlearning, want 9", got.Features)
	}
	if after := l.JointLogLikelihood(nil, []int32{0, 1}, []float64{1, 1}); !slices.Equal(before, after) {
		t.Errorf("scores %v after learning and unlearning, %v before", after, before)
	}
	// What the counts do not hold cannot be taken away, and changes nothing.
	if err := l.Add(1, []int32{11}, []float64{1}, -1); !errors.Is(err, ErrUnlearn) {
		t.Errorf("unlearning an empty column: %v, want ErrUnlearn", err)
	}
	if after := l.JointLogLikelihood(nil, []int32{0, 1}, []float64{1, 1}); !slices.Equal(before, after) {
		t.Errorf("a refused unlearn changed the scores")
	}
}
