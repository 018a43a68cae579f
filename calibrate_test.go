package textnb

import (
	"path/filepath"
	"testing"
)

// Config.Calibrate calibrates the probabilities: the label stays that of
// the uncalibrated model, the probability changes, and a saved model
// predicts the same.
func TestTrainCalibrated(t *testing.T) {
	plain := newsModel(t)
	m, err := TrainFrom(ReadCorpus("testdata/news/train"), Config{Calibrate: true})
	if err != nil {
		t.Fatal(err)
	}
	c := m.m.Calibration()
	if c == nil || c.Documents != 240 || !(c.LogLossAfter < c.LogLossBefore) {
		t.Fatalf("calibration %+v", c)
	}
	path := filepath.Join(t.TempDir(), "m.model")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	_, texts := newsTexts(t)
	for _, text := range texts {
		a, b, l := plain.Predict(text), m.Predict(text), loaded.Predict(text)
		if a.Label != b.Label || b.Label != l.Label {
			t.Fatalf("%q: %q uncalibrated, %q calibrated, %q loaded", text, a.Label, b.Label, l.Label)
		}
		for c := range b.Proba {
			if b.Proba[c] != l.Proba[c] {
				t.Fatalf("%q: %v calibrated, %v loaded", text, b.Proba, l.Proba)
			}
		}
		if a.Proba[0] == b.Proba[0] {
			t.Fatalf("%q: calibration left %v", text, a.Proba)
		}
	}
}
