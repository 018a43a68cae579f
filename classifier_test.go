package textnb_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/textnb/textnb"
)

// readJSONL decodes each line of a JSON Lines file into a new T.
func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// printed is a line of textnb predict --json, as the earlier builds of
// testdata/models printed it.
type printed struct {
	Label  string `json:"label"`
	Labels []struct {
		Label string  `json:"label"`
		P     float64 `json:"p"`
	} `json:"labels"`
	Proba map[string]float64 `json:"proba"`
}

// same reports whether p predicts what the earlier build printed, to the
// bit.
func same(p textnb.Prediction, want printed) bool {
	if p.Label != want.Label && want.Labels == nil || len(p.Proba) != len(want.Proba) || len(p.Labels) != len(want.Labels) {
		return false
	}
	for i, l := range want.Labels {
		if p.Labels[i] != l.Label {
			return false
		}
	}
	for _, c := range p.Proba {
		if w, ok := want.Proba[c.Label]; !ok || w != c.Prob {
			return false
		}
	}
	return true
}

// Open gives a Classifier for each kind of model file, whose Input
// methods predict what the kind's own methods and the earlier builds that
// wrote testdata/models predict.
func TestClassifierEveryKind(t *testing.T) {
	text, err := textnb.Open("testdata/models/news-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	tab, err := textnb.Open("testdata/models/gaussian-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	multi, err := textnb.Open("testdata/models/multilabel-v3.model")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := text.(*textnb.Model); !ok || text.Kind() != textnb.TextModel {
		t.Fatalf("news-v2.model opened as %T, %v", text, text.Kind())
	}
	if _, ok := tab.(*textnb.Table); !ok || tab.Kind() != textnb.TableModel {
		t.Fatalf("gaussian-v2.model opened as %T, %v", tab, tab.Kind())
	}
	mm, ok := multi.(*textnb.MultiLabel)
	if !ok || multi.Kind() != textnb.MultiLabelModel || multi.Kind().String() != "multi-label model" ||
		!slices.Equal(multi.Classes(), []string{"sport", "finance", "tech", "health"}) {
		t.Fatalf("multilabel-v3.model opened as %T, %v, %v", multi, multi.Kind(), multi.Classes())
	}

	// The multi-label model predicts what the build that wrote it printed.
	docs := readJSONL[struct{ Text string }](t, "testdata/multilabel.jsonl")
	golden := readJSONL[printed](t, "testdata/models/multilabel-v3.predict.jsonl")
	ins := make([]textnb.Input, len(docs))
	texts := make([]string, len(docs))
	for i, d := range docs {
		ins[i], texts[i] = textnb.Input{Text: d.Text}, d.Text
	}
	batch, err := multi.PredictInputs(ins)
	if err != nil || len(batch) != len(golden) || !reflect.DeepEqual(batch, mm.PredictBatch(texts)) {
		t.Fatalf("PredictInputs: %d predictions, %v; want %d, as PredictBatch", len(batch), err, len(golden))
	}
	two := 0 // documents given two labels
	for i, in := range ins {
		p, err := multi.PredictInput(in)
		if err != nil || !reflect.DeepEqual(p, batch[i]) || !same(p, golden[i]) {
			t.Fatalf("document %d: PredictInput = %+v, %v; batch %+v; printed %+v", i+1, p, err, batch[i], golden[i])
		}
		if len(p.Labels) > 1 {
			two++
		}
		if len(p.Labels) > 0 && p.Label != p.Labels[0] {
			t.Fatalf("document %d: Label %q, Labels %v", i+1, p.Label, p.Labels)
		}
	}
	if two == 0 {
		t.Fatal("no document got two labels: the test shows nothing of label sets")
	}
	e, err := multi.ExplainInput(ins[0])
	if err != nil || e.Label != nil || len(e.Labels) != len(batch[0].Labels) || e.Labels[0].Name != batch[0].Labels[0] {
		t.Fatalf("ExplainInput of a multi-label model: %+v, %v", e, err)
	}
	info, err := multi.Inspect(2)
	if err != nil || info.Kind != "multi-label" || len(info.Classes) != 4 || info.Classes[0].Name != "sport" ||
		len(info.Classes[0].TopWeights) != 2 || len(mm.Pipeline().Thresholds) != 4 {
		t.Fatalf("Inspect of a multi-label model: %+v, %v", info, err)
	}

	// The table model, from rows of iris-new.tsv in its columns' order.
	golden = readJSONL[printed](t, "testdata/models/gaussian-v2.predict.jsonl")
	rows := map[string][]float64{ // iris-new.tsv's rows a and b
		"a": {0, 3.4, 7, 5.0}, "b": {1, 2.2, 7, 6.8},
	}
	cols := []string{"colour", "width", "const", "length"}
	for i, id := range []string{"a", "b"} {
		row := make([]float64, 0, len(cols))
		for _, c := range tab.(*textnb.Table).Columns() {
			row = append(row, rows[id][slices.Index(cols, c)])
		}
		p, err := tab.PredictInput(textnb.Input{Row: row})
		if err != nil || !same(p, golden[i]) {
			t.Fatalf("row %s: PredictInput = %+v, %v; printed %+v", id, p, err, golden[i])
		}
		if ps, err := tab.PredictInputs([]textnb.Input{{Row: row}, {Row: row}}); err != nil || len(ps) != 2 || !reflect.DeepEqual(ps[1], p) {
			t.Fatalf("row %s: PredictInputs = %+v, %v", id, ps, err)
		}
	}
	if _, err := tab.PredictInputs([]textnb.Input{{Row: rows["a"]}, {Row: []float64{1}}}); !errors.Is(err, textnb.ErrConfig) {
		t.Fatalf("PredictInputs with a short row: %v, want ErrConfig", err)
	}

	// The text model, on testdata/news/test as predict printed it, and as
	// Model.Predict and Explain.
	golden = readJSONL[printed](t, "testdata/models/news-v2.predict.jsonl")
	ins = ins[:0]
	for d, err := range textnb.ReadCorpus("testdata/news/test") {
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, textnb.Input{Text: d.Text})
	}
	batch, err = text.PredictInputs(ins)
	if err != nil || len(batch) != len(golden) {
		t.Fatalf("PredictInputs: %d predictions, %v; want %d", len(batch), err, len(golden))
	}
	for i, p := range batch {
		if !same(p, golden[i]) {
			t.Fatalf("news test document %d: %+v; printed %+v", i+1, p, golden[i])
		}
	}
	m := text.(*textnb.Model)
	for _, s := range []string{"the striker scored in the cup final", "the bank raised rates"} {
		p, err := text.PredictInput(textnb.Input{Text: s})
		if err != nil || !reflect.DeepEqual(p, m.Predict(s)) || p.Labels != nil {
			t.Fatalf("PredictInput(%q) = %+v, %v", s, p, err)
		}
		e, err := text.ExplainInput(textnb.Input{Text: s})
		if err != nil || e.Labels != nil || !reflect.DeepEqual(*e.Label, m.Explain(s)) {
			t.Fatalf("ExplainInput(%q) = %+v, %v", s, e, err)
		}
	}

	// What a kind does not do, and input of the wrong kind.
	for _, c := range []textnb.Classifier{tab, multi} {
		if err := c.Learn("sport", "a goal"); !errors.Is(err, textnb.ErrNotLearnable) {
			t.Errorf("%v: Learn = %v, want ErrNotLearnable", c.Kind(), err)
		}
		if err := c.Unlearn("sport", "a goal"); !errors.Is(err, textnb.ErrNotLearnable) {
			t.Errorf("%v: Unlearn = %v, want ErrNotLearnable", c.Kind(), err)
		}
	}
	if _, err := tab.ExplainInput(textnb.Input{Row: rows["a"]}); !errors.Is(err, textnb.ErrNotExplainable) {
		t.Errorf("ExplainInput of a table model: %v, want ErrNotExplainable", err)
	}
	for _, c := range []textnb.Classifier{text, multi} {
		if _, err := c.PredictInput(textnb.Input{Row: []float64{1}}); !errors.Is(err, textnb.ErrKind) {
			t.Errorf("%v: PredictInput of a row: %v, want ErrKind", c.Kind(), err)
		}
		if _, err := c.PredictInputs([]textnb.Input{{Text: "x"}, {Row: []float64{1}}}); !errors.Is(err, textnb.ErrKind) {
			t.Errorf("%v: PredictInputs with a row: %v, want ErrKind", c.Kind(), err)
		}
		if _, err := c.ExplainInput(textnb.Input{Row: []float64{1}}); !errors.Is(err, textnb.ErrKind) {
			t.Errorf("%v: ExplainInput of a row: %v, want ErrKind", c.Kind(), err)
		}
	}
	if _, err := tab.PredictInput(textnb.Input{Text: "a text"}); !errors.Is(err, textnb.ErrKind) {
		t.Errorf("table: PredictInput of a text: %v, want ErrKind", err)
	}

	// A text model learns through the interface, and saves what it learned.
	doc := "the referee stopped the match for rain"
	before := text.(*textnb.Model).Predict(doc)
	for range 3 {
		if err := text.Learn("food", doc); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "learned.model")
	if err := text.Save(path); err != nil {
		t.Fatal(err)
	}
	learned, err := textnb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := learned.PredictInput(textnb.Input{Text: doc})
	if reflect.DeepEqual(after, before) || !reflect.DeepEqual(after, m.Predict(doc)) {
		t.Fatalf("learning changed nothing, or the saved model differs: %+v, then %+v", before, after)
	}
	for range 3 {
		if err := text.Unlearn("food", doc); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(m.Predict(doc), before) {
		t.Fatalf("unlearning did not restore the model")
	}
	// A multi-label model saved and opened predicts the same.
	path = filepath.Join(t.TempDir(), "multi.model")
	if err := multi.Save(path); err != nil {
		t.Fatal(err)
	}
	again, err := textnb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := again.PredictInputs(ins[:0]); err != nil || len(p) != 0 {
		t.Fatalf("PredictInputs of none: %v, %v", p, err)
	}
	if p, _ := again.PredictInput(textnb.Input{Text: docs[0].Text}); !reflect.DeepEqual(p, mm.Predict(docs[0].Text)) {
		t.Fatalf("the saved multi-label model predicts %+v", p)
	}
}
