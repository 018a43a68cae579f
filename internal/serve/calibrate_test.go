package serve

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/nb"
)

// A calibrated model serves its calibrated probabilities, and corrects
// them for priors from the priors they assume.
func TestPredictCalibrated(t *testing.T) {
	docs, err := corpus.ReadAll(newsTrain, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := func(yield func(label, text string) bool) error {
		for _, d := range docs {
			if !yield(d.Label, d.Text) {
				break
			}
		}
		return nil
	}
	m := train(t, newsTrain)
	r, err := pipeline.CrossValidateDocs(pipeline.Config{}, pipeline.CVOptions{Folds: 5, KeepScores: true}, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Calibrate(r); err != nil {
		t.Fatal(err)
	}
	_, url := start(t, Options{}, Spec{"news", save(t, filepath.Join(t.TempDir(), "news.model"), m)})
	p := m.NewPredictor()
	target := map[string]float64{"finance": 0.7, "food": 0.1, "sport": 0.1, "tech": 0.1}
	for _, text := range []string{"the striker scored twice before half time", "shares fell as the bank cut its rates"} {
		body, _ := json.Marshal(map[string]any{"text": text})
		res := do(t, "POST", url+"/v1/models/news/predict", string(body))
		proba, best := p.Proba(nil, text)
		if res.code != 200 || res.body["label"] != m.Classes[best] {
			t.Fatalf("%q: %d %s", text, res.code, res.raw)
		}
		for c, name := range m.Classes {
			if got := res.body["proba"].(map[string]any)[name]; got != proba[c] {
				t.Errorf("%q: P(%s) = %v, want the calibrated %v", text, name, got, proba[c])
			}
		}
		body, _ = json.Marshal(map[string]any{"text": text, "priors": target})
		res = do(t, "POST", url+"/v1/models/news/predict", string(body))
		to := make([]float64, len(m.Classes))
		for c, name := range m.Classes {
			to[c] = target[name]
		}
		want, err := nb.AdjustPriors(nil, proba, m.PosteriorPriors(), to)
		if err != nil {
			t.Fatal(err)
		}
		for c, name := range m.Classes {
			if got := res.body["proba"].(map[string]any)[name].(float64); math.Abs(got-want[c]) > 1e-12 {
				t.Errorf("%q with priors: P(%s) = %v, want %v", text, name, got, want[c])
			}
		}
	}
}
