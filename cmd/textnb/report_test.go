package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
)

// TestCLIEvalReport checks that eval --report writes textnb.Report's page
// of what eval --json finds, with the misclassified documents --errors
// keeps and the decision threshold, and refuses a path that is a folder
// or an input before any work.
func TestCLIEvalReport(t *testing.T) {
	trainPath, testPath := heldOutSpam(t)
	model := trainTo(t, trainPath)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.html")
	text := mustRun(t, "", "eval", "-m", model, "--threshold", "spam=0.7", "--report", report, testPath)
	if strings.Contains(text, "misclassified documents") {
		t.Error("--report alone lists errors in the text output")
	}
	var ev evalReport
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--threshold", "spam=0.7", "--json", "--errors", "25", testPath)), &ev); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	wrong := ev.Misclassified()
	if wrong == 0 || wrong > 25 {
		t.Fatalf("%d misclassified: the test wants a few", wrong)
	}
	for _, want := range []string{fmt.Sprintf("<b>%.4f</b><span>accuracy", ev.Accuracy), fmt.Sprintf("AUC %.4f", ev.ROCAUC),
		fmt.Sprintf("The first %d of %d, each with the terms", wrong, wrong), "decision threshold spam=0.7",
		"model " + model + " · corpus " + testPath} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, e := range ev.Errors {
		if !strings.Contains(page, `<div class="src">`+e.Source+`</div>`) {
			t.Errorf("the report lacks the misclassified %s", e.Source)
		}
	}
	if n := strings.Count(page, `<div class="doc">`); n != wrong {
		t.Errorf("%d misclassified documents shown, want %d", n, wrong)
	}
	mustRun(t, "", "eval", "-m", model, "--report", report, "--errors", "2", testPath)
	if b, _ := os.ReadFile(report); strings.Count(string(b), `<div class="doc">`) != 2 {
		t.Error("--errors 2 does not list 2 documents")
	}

	before, _ := os.ReadFile(testPath)
	mustFail(t, 2, []string{"would overwrite the input"}, "eval", "-m", model, "--report", testPath, testPath)
	mustFail(t, 2, []string{"would overwrite the input"}, "eval", "-m", model, "--report", model, testPath)
	mustFail(t, 2, []string{"not a regular file"}, "eval", "-m", model, "--report", dir, testPath)
	if out, _, code := textnb(t, "", "eval", "-m", model, "--report", filepath.Join(dir, "none", "r.html"), testPath); code != 2 || out != "" {
		t.Errorf("--report in a missing folder: exit %d, stdout %q; want exit 2 before evaluating", code, out)
	}
	if after, _ := os.ReadFile(testPath); string(after) != string(before) {
		t.Error("a refused --report changed the corpus")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the report's folder holds %d entries, want the report alone", len(entries))
	}
}

// TestCLIEvalMultiReport checks that eval --report of a multi-label model
// writes textnb.Report's page of eval --json's evaluation, with the
// documents of the most label errors that --errors keeps.
func TestCLIEvalMultiReport(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	mustRun(t, "", "train", "--multi-label", "--reweight", "0", multiJSONL, "-o", model) // plain counts leave errors to list
	report := filepath.Join(dir, "multi.html")
	text := mustRun(t, "", "eval", "-m", model, "--report", report, "--errors", "2", multiJSONL)
	if !strings.Contains(text, "subset accuracy") {
		t.Errorf("--report changed the text output:\n%s", text)
	}
	var r metrics.MultiEvaluation
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", multiJSONL)), &r); err != nil {
		t.Fatal(err)
	}
	m, err := loadMultiLabel(model)
	if err != nil {
		t.Fatal(err)
	}
	// the two documents of the most errors, as the model predicts them
	w := &worstDocs{k: 2}
	b := m.NewBatch(func(pr facade.MultiLabelPrediction) { w.add(m.Labels, pr) })
	if _, err := corpus.WalkMulti(multiJSONL, corpus.Options{}, func(d corpus.MultiDocument) error {
		b.Add(d.Source, d.Labels, d.Text)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b.Close()
	var want bytes.Buffer
	if _, err := (facade.Report{Model: model, Corpus: multiJSONL, Multi: &r, Known: len(m.Labels), Docs: w.reportDocs()}).WriteTo(&want); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(report); string(got) != want.String() || len(w.docs) != 2 {
		t.Errorf("eval --report wrote another page than textnb.Report's of eval --json and the 2 worst documents (%d)", len(w.docs))
	}
	mustFail(t, 2, []string{"would overwrite the input"}, "eval", "-m", model, "--report", model, multiJSONL)
	mustFail(t, 2, []string{"not a regular file"}, "eval", "-m", model, "--report", dir, multiJSONL)
	if _, err := loadMultiLabel(model); err != nil {
		t.Errorf("a refused --report harmed the model: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the report's folder holds %d entries, want the model and the report", len(entries))
	}
}

// TestWorstDocs checks the order of the documents with the most label
// errors: most errors first, earlier documents first among equals.
func TestWorstDocs(t *testing.T) {
	labels := []string{"a", "b", "c"}
	w := &worstDocs{k: 2}
	for _, d := range []struct {
		truth []string
		pred  []int
	}{
		{[]string{"a"}, []int{0}},         // exact
		{[]string{"a"}, []int{1}},         // 2 errors
		{[]string{"a", "a"}, []int{0, 1}}, // 1: a repeated true label counts once
		{[]string{"a", "b"}, []int{2}},    // 3
		{nil, []int{2, 1}},                // 2, after the second document
	} {
		w.add(labels, facade.MultiLabelPrediction{Source: fmt.Sprint(w.n + 1), Truth: d.truth, Labels: d.pred, Proba: []float64{0.1, 0.2, 0.3}})
	}
	var got []string
	for _, e := range w.docs {
		got = append(got, fmt.Sprintf("%s:%d", e.Source, e.errors))
	}
	if strings.Join(got, " ") != "4:3 2:2" {
		t.Errorf("worst documents %v", got)
	}
	if e := w.docs[0]; len(e.Truth) != 2 || len(e.Predicted) != 1 || e.Predicted[0] != 2 || e.Proba[2] != 0.3 {
		t.Errorf("document 4: %+v", e)
	}
}
