package metrics

import (
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"testing"
)

func TestEvaluator(t *testing.T) {
	ev := NewEvaluator([]string{"a", "b"})
	for _, p := range [][2]string{{"a", "a"}, {"a", "b"}, {"b", "b"}, {"b", "b"}, {"c", "a"}} {
		ev.Add(p[0], p[1])
	}
	r := ev.Result()
	if r.N != 5 || r.Accuracy != 0.6 {
		t.Fatalf("n %d accuracy %g", r.N, r.Accuracy)
	}
	// a: P 1/2 R 1/2 F 1/2; b: P 2/3 R 1 F 0.8; c: F 0 → macro 1.3/3.
	if d := r.MacroF1 - 1.3/3; d > 1e-12 || d < -1e-12 {
		t.Errorf("macro-F1 %g", r.MacroF1)
	}
	if r.Confusion[2][0] != 1 || len(r.Labels) != 3 || r.Classes != 2 || r.UnknownDocs != 1 {
		t.Errorf("confusion %v labels %v", r.Confusion, r.Labels)
	}
	want := []ConfusedPair{{0, 1, 1}, {2, 0, 1}}
	if !reflect.DeepEqual(r.Confused, want) {
		t.Errorf("confused %v, want %v", r.Confused, want)
	}
	// AddProba with the predicted class's index and no probabilities records the same.
	byIndex := NewEvaluator([]string{"a", "b"})
	for _, p := range []struct {
		truth string
		class int
	}{{"a", 0}, {"a", 1}, {"b", 1}, {"b", 1}, {"c", 0}} {
		byIndex.AddProba(p.truth, p.class, nil)
	}
	if got := byIndex.Result(); !reflect.DeepEqual(got, r) {
		t.Errorf("AddProba: %+v, Add: %+v", got, r)
	}
}

// TestEvaluatorSparse gives an Evaluator far more labels than a dense
// confusion matrix could hold: its memory must follow the documents.
func TestEvaluatorSparse(t *testing.T) {
	const unknown = 20000
	classes := make([]string, 3000)
	for i := range classes {
		classes[i] = "c" + strconv.Itoa(i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ev := NewEvaluator(classes)
	for i := range classes {
		ev.AddProba(classes[i], i, nil) // every class right once
	}
	for i := range unknown {
		ev.AddProba("u"+strconv.Itoa(i), i%2, nil)
	}
	ev.AddProba("u0", 0, nil) // a repeated pair
	r := ev.Result()
	runtime.ReadMemStats(&after)
	if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 64 {
		t.Errorf("%.0f MB allocated for %d labels", mb, len(r.Labels))
	}
	if r.Confusion != nil || r.Classes != len(classes) || len(r.UnknownLabels()) != unknown || r.UnknownDocs != unknown+1 {
		t.Fatalf("confusion %v, classes %d, unknown labels %d, unknown documents %d", r.Confusion != nil, r.Classes, len(r.UnknownLabels()), r.UnknownDocs)
	}
	if len(r.Confused) != unknown || r.Confused[0] != (ConfusedPair{True: len(classes), Predicted: 0, Count: 2}) {
		t.Errorf("confused: %d pairs, first %+v", len(r.Confused), r.Confused[0])
	}
	if want := float64(len(classes)) / float64(len(classes)+unknown+1); r.Accuracy != want {
		t.Errorf("accuracy %g, want %g", r.Accuracy, want)
	}
}

func TestMultiEvaluator(t *testing.T) {
	e := NewMultiEvaluator([]string{"a", "b", "c"})
	e.Add([]string{"a", "b"}, []int{0, 1}, []float64{0.9, 0.8, 0.1}) // exact
	e.Add([]string{"a"}, []int{0, 2}, []float64{0.7, 0.1, 0.6})      // fp c
	e.Add([]string{"b", "d"}, []int{1}, []float64{0.2, 0.3, 0.5})    // fn d (unknown label)
	e.Add([]string{"c"}, []int{0}, []float64{0.8, 0.1, 0.4})         // fp a, fn c
	r := e.Result()
	// tp a2 b2 → 4; fp c1 a1 → 2; fn d1 c1 → 2.
	if r.N != 4 || r.MicroPrecision != 4.0/6 || r.MicroRecall != 4.0/6 || math.Abs(r.MicroF1-4.0/6) > 1e-15 {
		t.Errorf("micro P/R/F1 %v %v %v", r.MicroPrecision, r.MicroRecall, r.MicroF1)
	}
	if r.SubsetAccuracy != 0.25 || r.HammingLoss != 4.0/16 {
		t.Errorf("subset accuracy %v, Hamming loss %v", r.SubsetAccuracy, r.HammingLoss)
	}
	// F1: a 2·2/(4+1) = 0.8, b 1, c 0, d 0.
	if math.Abs(r.MacroF1-0.45) > 1e-15 || r.PerLabel["a"].F1 != 0.8 || r.PerLabel["d"].Support != 1 {
		t.Errorf("macro-F1 %v, per label %+v", r.MacroF1, r.PerLabel)
	}
	// Breakeven: a's 2 best (docs 1 and 4) hold 1 a; b's 2 best (1, 3) both; c's best (3) is not c; d never scored.
	if r.PerLabel["a"].Breakeven != 0.5 || r.PerLabel["b"].Breakeven != 1 || r.PerLabel["c"].Breakeven != 0 ||
		r.MicroBreakeven != 3.0/6 || r.MacroBreakeven != 1.5/4 {
		t.Errorf("breakeven micro %v macro %v, per label %+v", r.MicroBreakeven, r.MacroBreakeven, r.PerLabel)
	}
}

func TestMisclassifiedAndLabelOrder(t *testing.T) {
	e := NewEvaluator([]string{"b", "a"})
	for _, p := range [][2]string{{"a", "a"}, {"a", "b"}, {"b", "a"}, {"b", "b"}, {"c", "a"}} {
		e.Add(p[0], p[1])
	}
	r := e.Result()
	if got := r.Misclassified(); got != 3 {
		t.Errorf("Misclassified = %d, want 3 (a→b, b→a, c→a)", got)
	}
	name, model := r.LabelOrder(false), r.LabelOrder(true)
	if !slices.Equal(model, []int{0, 1, 2}) || r.Labels[name[0]] != "a" || r.Labels[name[1]] != "b" || r.Labels[name[2]] != "c" {
		t.Errorf("LabelOrder: by name %v, as the model %v, of %v", name, model, r.Labels)
	}
}
