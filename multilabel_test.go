package textnb_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/textnb/textnb"
)

// TrainMultiLabel trains the model a MultiLabelTrainer given the same
// documents in order finishes, and the model it returns saves and opens
// as a MultiLabel that predicts the same.
func TestTrainMultiLabel(t *testing.T) {
	rows := readJSONL[struct {
		Labels []string
		Text   string
	}](t, "testdata/multilabel.jsonl")
	docs := make([]textnb.MultiLabelDocument, len(rows))
	texts := make([]string, len(rows))
	for i, r := range rows {
		docs[i] = textnb.MultiLabelDocument{Labels: r.Labels, Text: r.Text}
		texts[i] = r.Text
	}
	cfg, mc := textnb.Config{}, textnb.MultiLabelConfig{Score: textnb.OddsScore}
	m, err := textnb.TrainMultiLabel(docs, cfg, mc)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := textnb.NewMultiLabelTrainer(cfg, mc)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := tr.Add(d.Labels, d.Text); err != nil {
			t.Fatal(err)
		}
	}
	engine, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Classes(), engine.Labels) || !reflect.DeepEqual(m.Pipeline().Thresholds, engine.Thresholds) {
		t.Fatalf("labels %v thresholds %v, the trainer's %v %v", m.Classes(), m.Pipeline().Thresholds, engine.Labels, engine.Thresholds)
	}
	pr := engine.NewPredictor()
	got := m.PredictBatch(texts)
	for i, text := range texts {
		proba := pr.Proba(nil, text)
		for l, p := range got[i].Proba {
			if p.Prob != proba[l] {
				t.Fatalf("document %d, label %s: p %v, the trainer's model %v", i+1, p.Label, p.Prob, proba[l])
			}
		}
	}

	path := filepath.Join(t.TempDir(), "multi.model")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	c, err := textnb.Open(path)
	if err != nil || c.Kind() != textnb.MultiLabelModel {
		t.Fatalf("Open: %v, %v", c, err)
	}
	ins := make([]textnb.Input, len(texts))
	for i, text := range texts {
		ins[i] = textnb.Input{Text: text}
	}
	again, err := c.PredictInputs(ins)
	if err != nil || !reflect.DeepEqual(again, got) {
		t.Fatalf("the saved model predicts otherwise (%v)", err)
	}
}
