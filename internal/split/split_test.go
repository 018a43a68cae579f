package split

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// checkPartition asserts that the parts are sorted, disjoint and cover 0..n-1.
func checkPartition(t *testing.T, n int, parts ...[]int) {
	t.Helper()
	seen := make([]bool, n)
	for _, p := range parts {
		if !slices.IsSorted(p) {
			t.Errorf("not sorted: %v", p)
		}
		for _, i := range p {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("index %d out of range or repeated", i)
			}
			seen[i] = true
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("index %d missing", i)
		}
	}
}

// skewedLabels returns 60 "a", 30 "b", 9 "c" and 1 "d", interleaved.
func skewedLabels() []string {
	var labels []string
	for i := range 100 {
		switch {
		case i%10 < 6:
			labels = append(labels, "a")
		case i%10 < 9 && i < 90:
			labels = append(labels, "b")
		case i < 99:
			labels = append(labels, "c")
		default:
			labels = append(labels, "d")
		}
	}
	return labels
}

func countBy(labels []string, idx []int) map[string]int {
	m := map[string]int{}
	for _, i := range idx {
		m[labels[i]]++
	}
	return m
}

func TestSplit(t *testing.T) {
	train, test := Split(10, 0.3, 1)
	checkPartition(t, 10, train, test)
	if len(test) != 3 {
		t.Errorf("test size %d, want 3", len(test))
	}
	train2, test2 := Split(10, 0.3, 1)
	if !reflect.DeepEqual(train, train2) || !reflect.DeepEqual(test, test2) {
		t.Error("same seed, different split")
	}
	differs := false
	for seed := uint64(2); seed < 10 && !differs; seed++ {
		_, other := Split(10, 0.3, seed)
		differs = !reflect.DeepEqual(test, other)
	}
	if !differs {
		t.Error("the seed does not change the split")
	}
	// Appending to test must not clobber train.
	before := slices.Clone(train)
	_ = append(test, -1)
	if !reflect.DeepEqual(train, before) {
		t.Error("test and train share storage")
	}
	for _, frac := range []float64{-1, 0, 1, 2} {
		tr, te := Split(5, frac, 0)
		checkPartition(t, 5, tr, te)
	}
	if tr, te := Split(0, 0.5, 0); tr != nil || te != nil {
		t.Error("Split(0) not empty")
	}
}

func TestStratifiedSplit(t *testing.T) {
	labels := skewedLabels()
	train, test := StratifiedSplit(labels, 0.2, 7)
	checkPartition(t, len(labels), train, test)
	got, want := countBy(labels, test), map[string]int{"a": 12, "b": 5, "c": 2}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("test class counts %v, want %v", got, want)
	}
	// Every class of two or more keeps a document on each side.
	train, test = StratifiedSplit([]string{"x", "x", "y", "y", "y"}, 0.01, 3)
	if c := countBy([]string{"x", "x", "y", "y", "y"}, test); c["x"] != 1 || c["y"] != 1 || len(train) != 3 {
		t.Errorf("small classes: test %v", c)
	}
	a1, b1 := StratifiedSplit(labels, 0.2, 7)
	a2, b2 := StratifiedSplit(labels, 0.2, 7)
	if !reflect.DeepEqual(a1, a2) || !reflect.DeepEqual(b1, b2) {
		t.Error("same seed, different split")
	}
}

func TestStratifiedKFold(t *testing.T) {
	labels := skewedLabels()
	for _, k := range []int{2, 3, 5, 10} {
		folds := StratifiedKFold(labels, k, 11)
		if len(folds) != k {
			t.Fatalf("k=%d: %d folds", k, len(folds))
		}
		checkPartition(t, len(labels), folds...)
		minSize, maxSize := len(labels), 0
		for c, total := range countBy(labels, seq(len(labels))) {
			lo, hi := total, 0
			for _, f := range folds {
				n := countBy(labels, f)[c]
				lo, hi = min(lo, n), max(hi, n)
			}
			if hi-lo > 1 {
				t.Errorf("k=%d class %s: fold counts range %d..%d", k, c, lo, hi)
			}
		}
		for _, f := range folds {
			minSize, maxSize = min(minSize, len(f)), max(maxSize, len(f))
		}
		if maxSize-minSize > 1 {
			t.Errorf("k=%d: fold sizes range %d..%d", k, minSize, maxSize)
		}
		for i := range folds {
			train := FoldTrain(nil, folds, i)
			checkPartition(t, len(labels), train, folds[i])
		}
		if again := StratifiedKFold(labels, k, 11); !reflect.DeepEqual(folds, again) {
			t.Errorf("k=%d: same seed, different folds", k)
		}
	}
	if StratifiedKFold(labels, 0, 1) != nil {
		t.Error("k=0 should give nil")
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func TestFoldTrainAppends(t *testing.T) {
	got := FoldTrain([]int{-1}, [][]int{{4, 6}, {0, 5}, {1, 2}}, 1)
	if want := []int{-1, 1, 2, 4, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestStratifiedSample(t *testing.T) {
	labels := skewedLabels()
	sample, rest := StratifiedSample(labels, 0.1, 5)
	checkPartition(t, len(labels), sample, rest)
	// round(6)=6, round(3)=3, round(0.9)=1, and d keeps its single document.
	if got, want := countBy(labels, sample), map[string]int{"a": 6, "b": 3, "c": 1, "d": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("sample counts %v, want %v", got, want)
	}
	s2, _ := StratifiedSample(labels, 0.1, 5)
	if !reflect.DeepEqual(sample, s2) {
		t.Error("same seed, different sample")
	}
	if s, r := StratifiedSample(labels, 0, 5); len(s) != 0 || len(r) != len(labels) {
		t.Error("frac 0 should sample nothing")
	}

	sample, rest = StratifiedSampleN(labels, 4, 5)
	checkPartition(t, len(labels), sample, rest)
	if got, want := countBy(labels, sample), map[string]int{"a": 4, "b": 4, "c": 4, "d": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("sample counts %v, want %v", got, want)
	}
}

func TestUndersample(t *testing.T) {
	labels := []string{"a", "b", "a", "a", "b", "c", "c", "a", "c"}
	got := Undersample(labels, 9)
	if !slices.IsSorted(got) {
		t.Errorf("not sorted: %v", got)
	}
	if c := countBy(labels, got); !reflect.DeepEqual(c, map[string]int{"a": 2, "b": 2, "c": 2}) {
		t.Errorf("class counts %v", c)
	}
	if again := Undersample(labels, 9); !reflect.DeepEqual(got, again) {
		t.Error("same seed, different sample")
	}
	// Over seeds, every document of the big class gets picked sometimes.
	picked := map[int]bool{}
	for seed := range uint64(50) {
		for _, i := range Undersample(labels, seed) {
			picked[i] = true
		}
	}
	if len(picked) != len(labels) {
		t.Errorf("only %d of %d documents ever picked: %v", len(picked), len(labels), fmt.Sprint(picked))
	}
	if Undersample(nil, 1) != nil {
		t.Error("no labels should give nil")
	}
}
