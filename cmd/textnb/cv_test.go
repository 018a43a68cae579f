package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/metrics"
)

func TestCV(t *testing.T) {
	out := mustRun(t, "", "cv", newsTrain, "--folds", "4", "--seed", "3", "--ngrams", "1,1", "--fast")
	for _, want := range []string{"cross-validated cnb tfidf alpha=0.3 ngrams=1,1", "4 folds (seed 3)", "mean ± sd"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 2+1+4+1 {
		t.Errorf("%d lines, want a header, 4 folds and the mean:\n%s", n, out)
	}
	chosen := mustRun(t, "", "cv", newsTrain, "--folds", "4", "--seed", "3", "--ngrams", "1,1")
	for _, want := range []string{"chose cnb α ", "runner-up cnb α ", "2 candidates, 4 folds", "on the whole corpus", "nested, 5 folds of it): cnb α "} {
		if !strings.Contains(chosen, want) {
			t.Errorf("cv of the default lacks %q:\n%s", want, chosen)
		}
	}
	var r struct {
		Documents int
		NFolds    int `json:"n_folds"`
		Folds     []struct{ Train, Test, Features int }
		Accuracy  struct{ Mean float64 }
	}
	if err := json.Unmarshal([]byte(mustRun(t, "", "cv", newsTrain, "--folds", "4", "--json")), &r); err != nil {
		t.Fatal(err)
	}
	test := 0
	for _, f := range r.Folds {
		test += f.Test
		if f.Train+f.Test != r.Documents || f.Features == 0 {
			t.Errorf("fold %+v of %d documents", f, r.Documents)
		}
	}
	if r.NFolds != 4 || len(r.Folds) != 4 || test != r.Documents || !(r.Accuracy.Mean > 0.5) {
		t.Errorf("%+v", r)
	}
	if err := json.Unmarshal([]byte(mustRun(t, "", "cv", newsTrain, "--folds", "4", "--json", "--select", "chi2", "--features", "200")), &r); err != nil {
		t.Fatal(err)
	}
	for _, f := range r.Folds {
		if f.Features != 200 {
			t.Errorf("--select chi2 --features 200: fold %+v", f)
		}
	}
	mustFail(t, 2, []string{"--features"}, "cv", newsTrain, "--select", "chi2")
	mustFail(t, 2, []string{"need one CORPUS"}, "cv")
	mustFail(t, 1, []string{"folds"}, "cv", newsTrain, "--folds", "1")
	mustFail(t, 2, []string{"weighting"}, "cv", newsTrain, "--weighting", "idf")
}

func TestTrainTune(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	out := mustRun(t, "", "train", "--tune", "--grid", "alpha=0.1,1;model=cnb|mnb", spamTSV, "-o", model)
	for _, want := range []string{"tuned 4 settings by 3-fold cross-validation", "mnb tfidf alpha=1 ngrams=1,2", "best: ", "wrote " + model} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "*") != 1 {
		t.Errorf("want one setting marked best:\n%s", out)
	}
	best := out[strings.Index(out, "best: ")+len("best: "):]
	best = best[:strings.Index(best, "\n")]
	m, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Config.GridSetting(); got != best {
		t.Errorf("model trained with %q, tuning chose %q", got, best)
	}
	mustFail(t, 2, []string{"--grid needs --tune"}, "train", "--grid", "alpha=1", spamTSV, "-o", model)
	mustFail(t, 2, []string{"grid"}, "train", "--tune", "--grid", "beta=1", spamTSV, "-o", model)
}

// cvMultiJSON is the part of cv --multi-label --json that the tests read.
type cvMultiJSON struct {
	MultiLabel bool `json:"multi_label"`
	Detected   bool
	Documents  int
	NFolds     int `json:"n_folds"`
	Setting    string
	Folds      []struct {
		Train, Test, Features int
		MicroF1               float64 `json:"micro_f1"`
	}
	MicroF1 struct{ Mean, SD float64 } `json:"micro_f1"`
	Pooled  metrics.MultiEvaluation
}

// TestCVMultiLabel checks that cv of a multi-label corpus scores what
// train --multi-label and eval give on each fold, pooled.
func TestCVMultiLabel(t *testing.T) {
	const k, seed = 3, 5
	var r cvMultiJSON
	if err := json.Unmarshal([]byte(mustRun(t, "", "cv", multiJSONL, "--folds", "3", "--seed", "5", "--json")), &r); err != nil {
		t.Fatal(err)
	}
	if !r.MultiLabel || !r.Detected || r.Documents != 37 || r.NFolds != k || len(r.Folds) != k || r.Pooled.N != 37 ||
		r.Setting != "multi-label complement tfidf alpha=cv ngrams=1,2 title=2 reweight=cv" {
		t.Fatalf("cv --json: %+v", r)
	}
	// The folds by hand: train --multi-label on each fold's complement,
	// eval on the fold, the counts pooled.
	data, err := os.ReadFile(multiJSONL)
	if err != nil {
		t.Fatal(err)
	}
	rows := lines(string(data))
	fold := facade.AssignFolds(len(rows), k, seed)
	dir := t.TempDir()
	var tp, fp, fn, exact float64
	for q := range k {
		var train, test []string
		for i, row := range rows {
			if fold[i] == q {
				test = append(test, row)
			} else {
				train = append(train, row)
			}
		}
		trainPath, testPath, model := filepath.Join(dir, "train.jsonl"), filepath.Join(dir, "test.jsonl"), filepath.Join(dir, "fold.model")
		for path, rows := range map[string][]string{trainPath: train, testPath: test} {
			if err := os.WriteFile(path, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mustRun(t, "", "train", trainPath, "-o", model)
		var e metrics.MultiEvaluation
		if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", testPath)), &e); err != nil {
			t.Fatal(err)
		}
		if f := r.Folds[q]; f.MicroF1 != e.MicroF1 || f.Test != e.N || f.Train != len(train) {
			t.Errorf("fold %d: cv %+v, train and eval micro-F1 %v on %d", q+1, f, e.MicroF1, e.N)
		}
		for _, s := range e.PerLabel {
			hit := math.Round(s.Recall * float64(s.Support))
			tp, fp, fn = tp+hit, fp+float64(s.Predicted)-hit, fn+float64(s.Support)-hit
		}
		exact += e.SubsetAccuracy * float64(e.N)
	}
	if want := 2 * tp / (2*tp + fp + fn); math.Abs(r.Pooled.MicroF1-want) > 1e-12 || math.Abs(r.Pooled.SubsetAccuracy-exact/37) > 1e-12 {
		t.Errorf("pooled micro-F1 %v, subset accuracy %v; by hand %v, %v", r.Pooled.MicroF1, r.Pooled.SubsetAccuracy, want, exact/37)
	}
	out := mustRun(t, "", "cv", multiJSONL, "--folds", "3", "--seed", "5")
	for _, want := range []string{"multi-label corpus detected", "37 documents, 4 labels, 3 folds (seed 5)", "thresholds by 5-fold",
		"mean ± sd", fmt.Sprintf("micro P/R/F1     %.4f  %.4f  %.4f", r.Pooled.MicroPrecision, r.Pooled.MicroRecall, r.Pooled.MicroF1), "Hamming loss", "breakeven"} {
		if !strings.Contains(out, want) {
			t.Errorf("cv output lacks %q:\n%s", want, out)
		}
	}
	// train's multi-label flags; a .tsv is multi-label only when told.
	if err := json.Unmarshal([]byte(mustRun(t, "", "cv", multiTSV, "--multi-label", "--label-sep", ",", "--label-field", "labels", "--folds", "2",
		"--reweight", "0", "--title", "1", "--allow-empty", "--multi-score", "odds", "--select", "chi2", "--features", "30", "--threshold-folds", "3", "--json")), &r); err != nil {
		t.Fatal(err)
	}
	if r.Detected || r.Documents != 36 || r.Folds[0].Features != 30 || !strings.Contains(r.Setting, "odds") || !strings.Contains(r.Setting, "reweight=0 allow-empty select=chi2,30") {
		t.Errorf("cv --multi-label of a .tsv: %+v", r)
	}
	mustFail(t, 2, []string{"--label-sep", "--multi-label"}, "cv", spamTSV, "--label-sep", ",")
	mustFail(t, 2, []string{"--threshold-folds needs --multi-label"}, "cv", spamTSV, "--threshold-folds", "3")
	mustFail(t, 2, []string{"--threshold-folds 1"}, "cv", multiJSONL, "--threshold-folds", "1")
	mustFail(t, 2, []string{`invalid value "-1" for flag --reweight`}, "cv", multiJSONL, "--reweight", "-1")
	mustFail(t, 2, []string{"vocab vectorizer"}, "cv", multiJSONL, "--vectorizer", "hash")
	mustFail(t, 1, []string{"38 folds for 37 documents"}, "cv", multiJSONL, "--folds", "38")
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte(rows[0]+"\n"+rows[1]+"\n{\"labels\": [\"x\"], \"text\": \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustFail(t, 1, []string{"bad.jsonl:3: invalid JSON"}, "cv", bad)
}
