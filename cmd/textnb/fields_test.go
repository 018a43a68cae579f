package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// Column names given at training are stored in the model and are eval's
// and predict's defaults; flags still override them.
func TestStoredFields(t *testing.T) {
	var tsv strings.Builder
	tsv.WriteString("id\ttext_a\tcat\n")
	for i, l := range lines(string(readFile(t, spamTSV)))[1:] {
		label, text, _ := strings.Cut(l, "\t")
		tsv.WriteString(strings.Repeat("x", i%3+1) + "\t" + text + "\t" + label + "\n")
	}
	dir := write(t, map[string]string{"chn.tsv": tsv.String()})
	data, model := filepath.Join(dir, "chn.tsv"), filepath.Join(dir, "chn.model")
	mustRun(t, "", "train", data, "-o", model, "--label-field", "cat", "--text-field", "text_a", "--weighting", "counts", "--min-df", "1")
	m, err := loadPipeline(model)
	if err != nil || m.LabelField != "cat" || m.TextField != "text_a" {
		t.Fatalf("model fields %q, %q (%v)", m.LabelField, m.TextField, err)
	}
	report := mustRun(t, "", "eval", "-m", model, data)
	if !strings.HasPrefix(report, "documents 120\n") {
		t.Errorf("eval without field flags:\n%s", report)
	}
	mustFail(t, 1, []string{`no label column "nope"`}, "eval", "-m", model, "--label-field", "nope", data)

	// merge keeps them.
	merged := filepath.Join(dir, "merged.model")
	mustRun(t, "", "merge", "-o", merged, model, model)
	if m, err := loadPipeline(merged); err != nil || m.LabelField != "cat" || m.TextField != "text_a" {
		t.Errorf("merged model fields %q, %q (%v)", m.LabelField, m.TextField, err)
	}

	// A model trained with the usual names stores none: its bytes are
	// those of a model trained without the flags.
	plain, named := trainTo(t, spamTSV), trainTo(t, spamTSV, "--label-field", "label", "--text-field", "text")
	if a, b := readFile(t, plain), readFile(t, named); !bytes.Equal(a, b) || bytes.Contains(a, []byte("_field")) {
		t.Error("the default field names changed the model file")
	}

	// Table models keep their label column (the README's iris example).
	tab, root := trainIris(t, "gaussian")
	if !strings.HasPrefix(mustRun(t, "", "eval", "-m", tab, filepath.Join(root, "iris.csv")), "documents 10\naccuracy  1.0000\n") {
		t.Error("eval of a table model without --label-field")
	}
}
