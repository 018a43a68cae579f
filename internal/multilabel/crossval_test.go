package multilabel

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/tokenize"
)

func multiDocuments(t testing.TB) []Document {
	var docs []Document
	for _, d := range readMultiDocs(t, multiJSONL) {
		docs = append(docs, Document{Labels: d.Labels, Text: d.Text})
	}
	return docs
}

// TestCrossValidateMatchesFoldTraining checks CrossValidate against the
// folds trained and evaluated by hand: each fold's scores, and the pooled
// counts over every held-out prediction.
func TestCrossValidateMatchesFoldTraining(t *testing.T) {
	docs := multiDocuments(t)
	mc := Config{Folds: 3}
	const k, seed = 3, 7
	r, err := CrossValidate(pipeline.Config{}, mc, docs, CVOptions{Folds: k, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Folds) != k || r.Multi.Title != defaultTitle || r.Multi.Reweight != 0 || r.Multi.Folds != 3 {
		t.Fatalf("%d folds, settings %+v", len(r.Folds), r.Multi)
	}
	labels, _ := corpusLabels(docs)
	fold := AssignFolds(len(docs), k, seed)
	var tp, fp, fn, exact, n int
	var micro []float64
	for q := range k {
		var train, test []corpus.MultiDocument
		for i, d := range docs {
			md := corpus.MultiDocument{Source: d.Text, Labels: d.Labels, Text: d.Text}
			if fold[i] == q {
				test = append(test, md)
			} else {
				train = append(train, md)
			}
		}
		mm, sum := trainMulti(t, pipeline.Config{}, mc, train)
		want := evaluateMulti(mm, test)
		got := r.Folds[q]
		if got.Train != len(train) || got.Test != len(test) || got.Features != mm.NumFeatures() || got.Alpha != mm.Config.Alpha || got.Reweight != sum.Reweight ||
			got.Result.MicroF1 != want.MicroF1 || got.Result.MacroF1 != want.MacroF1 || got.Result.HammingLoss != want.HammingLoss {
			t.Errorf("fold %d: %+v, trained by hand %d/%d documents, %d features, α %g, %+v", q, got, len(train), len(test), mm.NumFeatures(), mm.Config.Alpha, want)
		}
		micro = append(micro, want.MicroF1)
		p := mm.NewPredictor()
		for _, d := range test {
			var predicted []string
			for _, l := range p.Decide(nil, p.Proba(nil, d.Text)) {
				predicted = append(predicted, mm.Labels[l])
			}
			for _, l := range predicted {
				if slices.Contains(d.Labels, l) {
					tp++
				} else {
					fp++
				}
			}
			for _, l := range d.Labels {
				fn += tally.BoolInt(!slices.Contains(predicted, l))
			}
			exact += tally.BoolInt(sameSet(predicted, d.Labels))
			n++
		}
	}
	pooled := r.Pooled
	if wantF1 := 2 * float64(tp) / float64(2*tp+fp+fn); pooled.MicroF1 != wantF1 || pooled.N != len(docs) {
		t.Errorf("pooled micro-F1 %v of %d documents, by hand %v (tp %d fp %d fn %d) of %d", pooled.MicroF1, pooled.N, wantF1, tp, fp, fn, n)
	}
	if want := float64(exact) / float64(n); pooled.SubsetAccuracy != want {
		t.Errorf("pooled subset accuracy %v, by hand %v", pooled.SubsetAccuracy, want)
	}
	if want := float64(fp+fn) / float64(n*len(labels)); pooled.HammingLoss != want || !slices.Equal(pooled.Labels, labels) {
		t.Errorf("pooled Hamming loss %v over %v, by hand %v over %v", pooled.HammingLoss, pooled.Labels, want, labels)
	}
	if m := meanSD(micro); r.MicroF1 != m || m.SD == 0 {
		t.Errorf("micro-F1 over folds %+v, by hand %+v", r.MicroF1, m)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	return slices.Equal(a, b)
}

func TestAssignFolds(t *testing.T) {
	fold := AssignFolds(37, 5, 1)
	size := make([]int, 5)
	for _, f := range fold {
		size[f]++
	}
	if slices.Min(size) < 7 || slices.Max(size) > 8 {
		t.Errorf("fold sizes %v", size)
	}
	if !slices.Equal(fold, AssignFolds(37, 5, 1)) || slices.Equal(fold, AssignFolds(37, 5, 2)) {
		t.Error("the seed does not decide the folds")
	}
}

func TestCrossValidateRejects(t *testing.T) {
	docs := multiDocuments(t)
	for _, k := range []int{1, -1, len(docs) + 1} {
		if _, err := CrossValidate(pipeline.Config{}, Config{}, docs, CVOptions{Folds: k}); !errors.Is(err, pipeline.ErrConfig) {
			t.Errorf("%d folds: %v", k, err)
		}
	}
	if _, err := CrossValidate(pipeline.Config{Vectorizer: pipeline.Hash}, Config{}, docs, CVOptions{Folds: 2}); !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("hashing: %v", err)
	}
	// A fold whose training part has one label fails, naming the fold.
	two := []Document{{[]string{"a"}, "x y"}, {[]string{"a"}, "x z"}, {[]string{"b"}, "w v"}}
	_, err := CrossValidate(pipeline.Config{}, Config{Folds: 2}, two, CVOptions{Folds: 3})
	if !errors.Is(err, pipeline.ErrOneClass) || !strings.Contains(err.Error(), "fold ") {
		t.Errorf("a fold of one label: %v", err)
	}
}

// CrossValidate lets go of every Trainer it starts, also of the one that
// only checks the settings and of a fold whose documents are refused: a
// trainer of a set language tokenizes on workers from the start.
func TestCrossValidateStopsTrainers(t *testing.T) {
	docs := multiDocuments(t)
	bad := append(slices.Clone(docs), Document{Labels: []string{""}, Text: "an empty label"})
	cfg := pipeline.Config{Tokenize: tokenize.Config{Lang: tokenize.English}}
	before := runtime.NumGoroutine()
	for range 5 {
		if _, err := CrossValidate(cfg, Config{Folds: 2, Reweight: -1}, docs, CVOptions{Folds: 2}); err != nil {
			t.Fatal(err)
		}
		if _, err := CrossValidate(cfg, Config{Folds: 2, Reweight: -1}, bad, CVOptions{Folds: 2}); !errors.Is(err, pipeline.ErrEmptyLabel) {
			t.Fatalf("a corpus with an empty label: %v, want ErrEmptyLabel", err)
		}
	}
	// Workers end just after they are told to: wait for them, without
	// asserting how long that takes.
	for deadline := time.Now().Add(time.Minute); runtime.NumGoroutine() > before && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after 10 cross-validations, %d before", n, before)
	}
}

// After Abort a Trainer takes nothing more.
func TestTrainerAbort(t *testing.T) {
	tr, err := NewTrainer(pipeline.Config{Tokenize: tokenize.Config{Lang: tokenize.English}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Add([]string{"a"}, "some text"); err != nil {
		t.Fatal(err)
	}
	tr.Abort()
	tr.Abort() // a second call does nothing
	if err := tr.Add([]string{"a"}, "more text"); !errors.Is(err, pipeline.ErrFinished) {
		t.Errorf("Add after Abort: %v, want ErrFinished", err)
	}
	if _, _, err := tr.Finish(); !errors.Is(err, pipeline.ErrFinished) {
		t.Errorf("Finish after Abort: %v, want ErrFinished", err)
	}
}
