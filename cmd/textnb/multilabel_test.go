package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"

	"github.com/textnb/textnb/metrics"
)

const (
	multiJSONL = "../../testdata/multilabel.jsonl"
	multiTSV   = "../../testdata/multilabel.tsv"
)

func TestTrainMultiLabelDetectedPredictEval(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	out := mustRun(t, "", "train", multiJSONL, "-o", model)
	for _, want := range []string{"multi-label corpus detected", "4 labels", "37 documents", "1 without labels", "wrote " + model} {
		if !strings.Contains(out, want) {
			t.Errorf("train output %q lacks %q", out, want)
		}
	}
	if c, err := facade.Open(model); err != nil || c.Kind() != facade.MultiLabelModel {
		t.Fatalf("Open = %v, %v", c, err)
	}
	pred := mustRun(t, "The chip maker's stock jumped as revenue from servers beat forecasts\nThe striker scored in the cup final\n", "predict", "-m", model, "-")
	lines := strings.Split(strings.TrimSpace(pred), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "stdin:1\tfinance\t") || !strings.HasPrefix(lines[1], "stdin:2\tsport\t") {
		t.Errorf("predictions %q", pred)
	}
	if top := mustRun(t, "The chip maker's stock jumped as revenue from servers beat forecasts\n", "predict", "-m", model, "--top", "2", "-"); !strings.Contains(top, "\ttech\t") {
		t.Errorf("--top 2: %q lacks tech", top)
	}
	// --top 3 prints three labels whatever the thresholds; --threshold 0 every label.
	if f := strings.Split(strings.TrimSpace(mustRun(t, "a match\n", "predict", "-m", model, "--top", "3", "-")), "\t"); len(f) != 7 {
		t.Errorf("--top 3: %q", f)
	}
	js := mustRun(t, "a match\n", "predict", "-m", model, "--json", "--threshold", "0", "-")
	var p struct {
		Labels []struct {
			Label string  `json:"label"`
			P     float64 `json:"p"`
		} `json:"labels"`
		Proba map[string]float64 `json:"proba"`
	}
	if err := json.Unmarshal([]byte(js), &p); err != nil || len(p.Labels) != 4 || len(p.Proba) != 4 || p.Labels[0].P < p.Labels[3].P {
		t.Errorf("--json --threshold 0: %s (%v)", js, err)
	}
	ev := mustRun(t, "", "eval", "-m", model, multiTSV, "--label-sep", ",", "--label-field", "labels")
	for _, want := range []string{"documents        36", "micro P/R/F1", "subset accuracy", "Hamming loss", "breakeven", "finance"} {
		if !strings.Contains(ev, want) {
			t.Errorf("eval output lacks %q:\n%s", want, ev)
		}
	}
	var r metrics.MultiEvaluation
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", multiJSONL)), &r); err != nil || r.N != 37 || r.MicroF1 < 0.8 {
		t.Errorf("eval --json: %+v, %v", r, err)
	}
	mustFail(t, 2, []string{"--priors"}, "predict", "-m", model, "--priors", "a=1", "-")
	mustFail(t, 1, []string{"holds a multi-label model, not a text model"}, "merge", "-o", filepath.Join(t.TempDir(), "x.model"), model, model)
	single := trainTo(t, newsTrain)
	mustFail(t, 2, []string{"P alone applies to multi-label models", "this one has 4 classes"}, "predict", "-m", single, "--threshold", "0.5", "-")
}

func TestTrainMultiLabelFlags(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	out := mustRun(t, "", "train", multiTSV, "--multi-label", "--label-sep", ",", "--label-field", "labels",
		"--alpha", "0.5", "--multi-score", "odds", "--allow-empty", "--folds", "3", "--select", "chi2", "--features", "40", "--title", "3", "-o", model)
	if !strings.Contains(out, "trained multi-label odds on 36 documents") || !strings.Contains(out, "alpha 0.5, no reweighting;") || !strings.Contains(out, "40 features") {
		t.Errorf("train output %q", out)
	}
	mm, err := loadMultiLabel(model)
	if err != nil {
		t.Fatal(err)
	}
	if mm.NumFeatures() != 40 || !mm.Multi.AllowEmpty || mm.Multi.Folds != 3 || mm.Config.Select.K != 40 || mm.Multi.Title != 3 {
		t.Errorf("model: %d features, %+v, selection %+v", mm.NumFeatures(), mm.Multi, mm.Config.Select)
	}
	// Folders: a document copied into two class folders has both labels.
	for _, f := range []struct{ class, name, text string }{
		{"sport", "1.txt", "The striker scored in the final"}, {"sport", "2.txt", "A marathon record"},
		{"sport", "3.txt", "The club's shares rose after the cup win"}, {"finance", "3.txt", "The club's shares rose after the cup win"},
		{"finance", "4.txt", "Bond yields fell"}, {"finance", "5.txt", "The bank raised rates"},
	} {
		p := filepath.Join(dir, "c", f.class, f.name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out = mustRun(t, "", "train", filepath.Join(dir, "c"), "--multi-label", "--folds", "2", "-o", model)
	if !strings.Contains(out, "on 5 documents") || !strings.Contains(out, "(1.20 a document)") {
		t.Errorf("folder corpus: %q", out)
	}
	mustFail(t, 2, []string{"--label-sep", "--multi-label"}, "train", spamTSV, "--label-sep", ",", "-o", model)
	mustFail(t, 2, []string{"--select chi2 needs --features"}, "train", spamTSV, "--select", "chi2", "-o", model)
	mustFail(t, 2, []string{"--folds 1"}, "train", multiJSONL, "--folds", "1", "-o", model)
	mustFail(t, 2, []string{"--title", "--multi-label"}, "train", spamTSV, "--title", "2", "-o", model)
	mustFail(t, 2, []string{"--title 0"}, "train", multiJSONL, "--title", "0", "-o", model)
	mustFail(t, 2, []string{"vocab vectorizer"}, "train", multiJSONL, "--vectorizer", "hash", "-o", model)
	// --tune searches single-label settings: a detected or declared multi-label corpus is refused, not misread
	mustFail(t, 2, []string{"--tune searches single-label settings"}, "train", multiJSONL, "--tune", "-o", model)
	mustFail(t, 2, []string{"--tune searches single-label settings"}, "train", multiTSV, "--multi-label", "--label-sep", ",", "--tune", "-o", model)
}

func TestSelectSingleLabel(t *testing.T) {
	full := trainTo(t, newsTrain, "--ngrams", "1,2") // the n-grams --select chooses from
	acc := map[string]float64{}
	for _, m := range []string{"chi2", "mi", "df"} {
		model := filepath.Join(t.TempDir(), m+".model")
		out := mustRun(t, "", "train", newsTrain, "--select", m, "--features", "1000", "-o", model)
		if !strings.Contains(out, " 1000 features") {
			t.Errorf("%s: %q", m, out)
		}
		a, b := fileSize(t, model), fileSize(t, full)
		if a*3 > b {
			t.Errorf("%s: model of 1000 terms is %d bytes, the full one (7767 terms) %d", m, a, b)
		}
		var e struct{ Accuracy float64 }
		if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", newsTest)), &e); err != nil {
			t.Fatal(err)
		}
		acc[m] = e.Accuracy
	}
	// The class-aware criteria keep better terms than frequency does.
	if acc["chi2"] < 0.75 || acc["mi"] < 0.75 || acc["chi2"] <= acc["df"] {
		t.Errorf("accuracies %v", acc)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestCLIDamagedMultiModel: predict and eval refuse a multi-label model
// file that is damaged, cut short or holds a header that training does not
// write, as they do other kinds (FIFOs and devices are refused before
// their kind is known: TestCLIModelNotAFile).
func TestCLIDamagedMultiModel(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, "", "train", multiJSONL, "-o", model)
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(data)
	flipped[len(flipped)/2] ^= 0xff
	// The same length, so the header's length word still holds; the
	// checksum (CRC-32C of all but its own four bytes) made to match.
	unknown := bytes.Replace(data, []byte(`"score":"complement"`), []byte(`"score":"compliment"`), 1)
	if bytes.Equal(unknown, data) {
		t.Fatal(`the header has no "score":"complement"`)
	}
	body := unknown[:len(unknown)-4]
	binary.LittleEndian.PutUint32(unknown[len(body):], crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	root := write(t, map[string]string{"doc.txt": "the striker scored"})
	for name, c := range map[string]struct {
		data []byte
		msg  string
	}{
		"flipped.model": {flipped, "checksum mismatch"},
		"cut.model":     {data[:len(data)/2], "checksum mismatch"},
		"unknown.model": {unknown, "damaged model file"},
	} {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		mustFail(t, 1, []string{p, c.msg}, "predict", "-m", p, filepath.Join(root, "doc.txt"))
		mustFail(t, 1, []string{p, c.msg}, "eval", "-m", p, multiJSONL)
		mustFail(t, 1, []string{p, c.msg}, "inspect", p)
		mustFail(t, 1, []string{p, c.msg}, "explain", "-m", p, "the striker scored")
	}
}

func TestTrainMultiLabelReweight(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		arg  string
		want int
		say  string
	}{{"3", 3, "3 reweighting passes at rate "}, {"0", -1, "no reweighting"},
		// automatic: the thresholds' cross-validation scores plain counts higher on this corpus
		{"auto", -1, "no reweighting (cross-validated against 10 passes: micro-F1 0.7021); thresholds by 5-fold cross-validation (micro-F1 0.7347 on it)"}} {
		model := filepath.Join(dir, c.arg+".model")
		out := mustRun(t, "", "train", multiJSONL, "--multi-label", "--reweight", c.arg, "-o", model)
		if !strings.Contains(out, c.say) {
			t.Errorf("--reweight %s: train output %q lacks %q", c.arg, out, c.say)
		}
		mm, err := loadMultiLabel(model)
		if err != nil || mm.Multi.Reweight != c.want {
			t.Errorf("--reweight %s: %v, model records %d passes, want %d", c.arg, err, mm.Multi.Reweight, c.want)
		}
	}
	out := filepath.Join(dir, "x.model")
	mustFail(t, 2, []string{`invalid value "-1" for flag --reweight: want auto or a number of passes, 0 or more`}, "train", multiJSONL, "--multi-label", "--reweight", "-1", "-o", out)
	mustFail(t, 2, []string{"101 reweighting passes, at most 100"}, "train", multiJSONL, "--multi-label", "--reweight", "101", "-o", out)
	// --reweight-rate fixes the rate, which cross-validation chooses otherwise
	model := filepath.Join(dir, "rate.model")
	if out := mustRun(t, "", "train", multiJSONL, "--reweight", "4", "--reweight-rate", "33", "-o", model); !strings.Contains(out, "4 reweighting passes at rate 33") {
		t.Errorf("--reweight-rate 33: train output %q", out)
	}
	if mm, err := loadMultiLabel(model); err != nil || mm.Multi.ReweightRate != 33 {
		t.Errorf("--reweight-rate 33: %v, model records rate %v", err, mm.Multi.ReweightRate)
	}
	mustFail(t, 2, []string{`invalid value "0" for flag --reweight-rate: want auto or a rate above 0`}, "train", multiJSONL, "--reweight-rate", "0", "-o", out)
	mustFail(t, 2, []string{"reweighting rate 2000, want 0 (chosen) or up to 1000"}, "train", multiJSONL, "--reweight-rate", "2000", "-o", out)
	mustFail(t, 2, []string{"--reweight-rate 20 with --reweight 0"}, "train", multiJSONL, "--reweight", "0", "--reweight-rate", "20", "-o", out)
	// a text model takes them too
	if out := mustRun(t, "", "train", newsTrain, "--reweight", "3", "--reweight-rate", "40", "--alpha", "1", "-o", out); !strings.Contains(out, "reweighted 3×40") {
		t.Errorf("text --reweight 3: %q", out)
	}
	mustFail(t, 2, []string{"--reweight-rate 20 with --reweight none"}, "train", newsTrain, "--reweight", "none", "--reweight-rate", "20", "-o", out)
}

// predict --explain explains each label printed as facade.MultiLabelPipeline.Explain
// does, with --terms terms, in JSON and on the line.
func TestPredictMultiLabelExplain(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, "", "train", multiJSONL, "--reweight", "10", "-o", model)
	mm, err := loadMultiLabel(model)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"broadcasters paid record fees for match rights and the club's stock jumped", "the nurses warned of a hard flu season"}
	out := mustRun(t, strings.Join(texts, "\n")+"\n", "predict", "-m", model, "--json", "--explain", "--terms", "2", "-")
	p := mm.NewPredictor()
	for i, line := range lines(out) {
		var got struct {
			Labels       []struct{ Label string }
			Explanations []facade.LabelExplanation
		}
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatal(err)
		}
		want := p.Explain(texts[i], p.Decide(nil, p.Proba(nil, texts[i])))
		if len(got.Explanations) != len(want) || len(got.Labels) != len(want) {
			t.Fatalf("text %d: %d explanations of %d labels, want %d", i, len(got.Explanations), len(got.Labels), len(want))
		}
		for k, e := range got.Explanations {
			w := want[k]
			w.Label, w.Terms = 0, w.Terms[:min(2, len(w.Terms))]
			if fmt.Sprint(e) != fmt.Sprint(w) || e.Name != got.Labels[k].Label {
				t.Errorf("text %d: %+v, want %+v", i, e, w)
			}
		}
	}
	line := mustRun(t, texts[0]+"\n", "predict", "-m", model, "--explain", "--terms", "1", "-")
	e := p.Explain(texts[0], p.Decide(nil, p.Proba(nil, texts[0])))
	if len(e) < 2 {
		t.Fatalf("%q gets %d labels; the test wants two", texts[0], len(e))
	}
	want := fmt.Sprintf("\t%s: %s %+.4f; %s: %s %+.4f\n", e[0].Name, e[0].Terms[0].Term, e[0].Terms[0].Weight, e[1].Name, e[1].Terms[0].Term, e[1].Terms[0].Weight)
	if !strings.HasSuffix(line, want) {
		t.Errorf("predict --explain line %q, want it to end in %q", line, want)
	}
	mustFail(t, 2, []string{"--keep-fields applies to single-label models"}, "predict", "-m", model, "--json", "--keep-fields", "id", "-")
}
