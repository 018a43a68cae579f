package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"
)

// Explicit values mean what they say: an explicit 0 is never the default.
func TestExplicitZero(t *testing.T) {
	dir := t.TempDir()
	zero, def := filepath.Join(dir, "zero.model"), filepath.Join(dir, "default.model")
	_, errOut, code := textnb(t, "", "train", spamTSV, "-o", zero, "--alpha", "0")
	if code != 0 || !strings.Contains(errOut, "--alpha 0 is below 1e-10") {
		t.Fatalf("--alpha 0: exit %d, %q; want a warning that it is raised to 1e-10", code, errOut)
	}
	mustRun(t, "", "train", spamTSV, "-o", def, "--alpha", "0.3")
	if bytes.Equal(readFile(t, zero), readFile(t, def)) {
		t.Error("--alpha 0 wrote the model of --alpha 0.3")
	}
	if m, err := loadPipeline(zero); err != nil || m.Config.Alpha != facade.MinAlpha {
		t.Errorf("--alpha 0 model has alpha %v (%v), want %g", m.Config.Alpha, err, facade.MinAlpha)
	}
	// --min-df 0 keeps every term: min_df 1, not automatic.
	m, err := loadPipeline(trainTo(t, spamTSV, "--min-df", "0"))
	if err != nil || m.Config.Vocab.MinDF != 1 {
		t.Errorf("--min-df 0: min_df %d (%v), want 1", m.Config.Vocab.MinDF, err)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--max-df", "0"}, "--max-df 0: want a fraction"},
		{[]string{"--max-df", "1.5"}, "--max-df 1.5"},
		{[]string{"--features", "0"}, "--features 0: want N ≥ 1"},
		{[]string{"--min-df", "-1"}, "--min-df -1"},
		{[]string{"--alpha", "-1"}, "--alpha -1: want a finite value"},
		{[]string{"--alpha", "NaN"}, "--alpha NaN"},
		{[]string{"--semi", "em", "--unlabeled", spamTSV, "--lambda", "0"}, "--lambda 0: want a positive value"},
		{[]string{"--semi", "snb", "--unlabeled", spamTSV, "--rounds", "0"}, "--rounds 0"},
		{[]string{"--semi", "nsnb", "--unlabeled", spamTSV, "--k", "0"}, "--k 0"},
		{[]string{"--semi", "snb", "--unlabeled", spamTSV, "--threshold", "0"}, "--threshold 0"},
	} {
		mustFail(t, 2, []string{tc.msg}, append([]string{"train", spamTSV, "-o", filepath.Join(dir, "x")}, tc.args...)...)
	}
	_, root := trainIris(t, "categorical")
	mustFail(t, 2, []string{"--bins 0: want N ≥ 1"}, "train", filepath.Join(root, "iris.csv"), "--model", "categorical", "--label-field", "species", "-o", filepath.Join(dir, "x"), "--bins", "0")
	if _, errOut, code := textnb(t, "", "train", filepath.Join(root, "iris.csv"), "--model", "categorical", "--label-field", "species", "-o", filepath.Join(dir, "c"), "--alpha", "0"); code != 0 || !strings.Contains(errOut, "using 1e-10") {
		t.Errorf("categorical --alpha 0: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("a refused command wrote a model")
	}
}

// An alpha that makes weights overflow is refused at training.
func TestNonFiniteWeights(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.model")
	for _, model := range []string{"mnb", "cnb", "bnb"} {
		mustFail(t, 1, []string{"alpha 1e+308 makes weights of", "use a smaller alpha"}, "train", spamTSV, "-o", out, "--model", model, "--alpha", "1e308")
	}
	_, root := trainIris(t, "categorical")
	mustFail(t, 1, []string{"alpha 1e+308 makes weights of"}, "train", filepath.Join(root, "iris.csv"), "--model", "categorical", "--label-field", "species", "-o", out, "--alpha", "1e308")
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused training wrote a model")
	}
}

// Swapped columns (text<TAB>label) stop with a hint, unless insisted on.
func TestSwappedColumns(t *testing.T) {
	data := string(readFile(t, spamTSV))
	var swapped strings.Builder
	for _, l := range lines(data)[1:] { // no header: LABEL<TAB>TEXT expected
		label, text, _ := strings.Cut(l, "\t")
		swapped.WriteString(text + "\t" + label + "\n")
	}
	texty := "label\ttext\n"
	for i, l := range lines(data)[1:41] {
		_, text, _ := strings.Cut(l, "\t")
		texty += []string{"the one I like most of all", "nothing I care about here at all"}[i%2] + "\t" + text + "\n"
	}
	dir := write(t, map[string]string{"swapped.tsv": swapped.String(), "texty.tsv": texty})
	out := filepath.Join(dir, "m.model")
	mustFail(t, 1, []string{"swapped.tsv: 120 classes for 120 documents", "are the label and text columns swapped?", "--allow-many-classes"},
		"train", filepath.Join(dir, "swapped.tsv"), "-o", out)
	mustFail(t, 1, []string{"2 of the 2 labels look like text", "the one I like most of all"}, "train", filepath.Join(dir, "texty.tsv"), "-o", out)
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused training wrote a model")
	}
	mustRun(t, "", "train", filepath.Join(dir, "swapped.tsv"), "-o", out, "--allow-many-classes")
	mustRun(t, "", "train", newsTrain, "-o", out) // 4 classes of 60 documents
}

// A prediction JSON cannot spell is an error naming the document, not an
// empty line, and printing stops there.
func TestPrintJSONError(t *testing.T) {
	var out bytes.Buffer
	p := printer{classes: []string{"a", "b"}, w: &out, json: true, top: 1}
	p.print(scored{PipelinePrediction: facade.PipelinePrediction{Source: "doc0", Class: 1, Proba: []float64{0.25, 0.75}}})
	p.print(scored{PipelinePrediction: facade.PipelinePrediction{Source: "doc1", Proba: []float64{math.NaN(), math.NaN()}}})
	p.print(scored{PipelinePrediction: facade.PipelinePrediction{Source: "doc2", Class: 1, Proba: []float64{0.25, 0.75}}})
	if p.err == nil || !strings.Contains(p.err.Error(), "doc1: cannot print its probabilities as JSON") {
		t.Errorf("error %v, want one naming doc1", p.err)
	}
	if got := out.String(); got != `{"source":"doc0","label":"b","proba":{"a":0.25,"b":0.75}}`+"\n" {
		t.Errorf("output %q, want doc0's line only", got)
	}
}

// --binary trains and predicts from presence: a model that records it, a
// repeated word that changes no probability; with hashing it is refused.
func TestBinaryFlag(t *testing.T) {
	model := trainTo(t, spamTSV, "--binary", "--fast")
	m, err := loadPipeline(model)
	if err != nil || !m.Config.Vocab.Binary {
		t.Fatalf("--binary model: binary %v (%v)", m != nil && m.Config.Vocab.Binary, err)
	}
	p := m.NewPredictor()
	once, _ := p.Proba(nil, "win a free prize now")
	thrice, _ := p.Proba(nil, "win win win a free free prize now")
	if !slicesEqual(once, thrice) {
		t.Errorf("--binary: probabilities %v and, with words repeated, %v", once, thrice)
	}
	mustFail(t, 2, []string{"--binary applies to the vocab vectorizer"}, "train", spamTSV, "-o", filepath.Join(t.TempDir(), "x"), "--binary", "--vectorizer", "hash")
}

func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
