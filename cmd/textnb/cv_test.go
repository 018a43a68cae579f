package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textnb/textnb/pipeline"
)

func TestCV(t *testing.T) {
	out := mustRun(t, "", "cv", newsTrain, "--folds", "4", "--seed", "3", "--ngrams", "1,1")
	for _, want := range []string{"cross-validated cnb tfidf alpha=0.3 ngrams=1,1", "4 folds (seed 3)", "mean ± sd"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 2+1+4+1 {
		t.Errorf("%d lines, want a header, 4 folds and the mean:\n%s", n, out)
	}
	var r struct {
		Documents int
		NFolds    int `json:"n_folds"`
		Folds     []pipeline.FoldResult
		Accuracy  pipeline.MeanSD
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
	m, err := pipeline.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if got := settingName(m.Config); got != best {
		t.Errorf("model trained with %q, tuning chose %q", got, best)
	}
	mustFail(t, 2, []string{"--grid needs --tune"}, "train", "--grid", "alpha=1", spamTSV, "-o", model)
	mustFail(t, 2, []string{"grid"}, "train", "--tune", "--grid", "beta=1", spamTSV, "-o", model)
}
