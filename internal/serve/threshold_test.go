package serve

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A two-class text model decides by its stored threshold, or by the
// request's {"LABEL": P}, before and after a prior correction.
func TestPredictTextThreshold(t *testing.T) {
	dir := t.TempDir()
	m := train(t, spamTSV)
	plain := save(t, filepath.Join(dir, "plain.model"), m)
	th, err := m.NewThreshold("spam", 0.99)
	if err != nil {
		t.Fatal(err)
	}
	m.Threshold = &th
	strict := save(t, filepath.Join(dir, "strict.model"), m)
	m.Threshold = nil
	_, url := start(t, Options{}, Spec{"plain", plain}, Spec{"strict", strict})
	p := m.NewPredictor()
	spam := slices.Index(m.Classes, "spam")
	texts := []string{"WINNER! Claim your free prize now, call 09061701461", "free prize, claim now", "call me", "Are you still coming round for dinner tonight?", ""}
	want := func(pSpam, at float64) string {
		if pSpam >= at {
			return "spam"
		}
		return "ham"
	}
	for _, text := range texts {
		proba, best := p.Proba(nil, text)
		js, _ := json.Marshal(text)
		for _, c := range []struct {
			model, threshold string
			at               float64 // p(spam) from which spam is predicted
		}{
			{"plain", "", 0.5}, {"strict", "", 0.99}, {"plain", `{"spam":0.99}`, 0.99}, {"strict", `{"spam":0.2}`, 0.2},
			{"strict", `{"ham":0.999}`, 1 - 0.999}, // ham iff p(ham) ≥ 0.999
		} {
			body := `{"text":` + string(js)
			if c.threshold != "" {
				body += `,"threshold":` + c.threshold
			}
			r := do(t, "POST", url+"/v1/models/"+c.model+"/predict", body+"}")
			label := want(proba[spam], c.at)
			if c.model == "plain" && c.threshold == "" {
				label = m.Classes[best] // the most probable; a tie (the empty text under CNB) goes to the first class
			}
			if c.threshold == `{"ham":0.999}` && proba[1-spam] >= 0.999 {
				label = "ham"
			} else if c.threshold == `{"ham":0.999}` {
				label = "spam"
			}
			if r.code != 200 || r.body["label"] != label {
				t.Errorf("%s %s %q (p(spam) %.4f): %d %s, want %s", c.model, c.threshold, text, proba[spam], r.code, r.raw, label)
			}
		}
	}
	// The model's description shows its threshold.
	if r := do(t, "GET", url+"/v1/models/strict", ""); r.code != 200 || r.body["settings"].(map[string]any)["threshold"] != "spam=0.99" {
		t.Errorf("GET /v1/models/strict: %d %.300s", r.code, r.raw)
	}
	// With priors, the threshold decides the corrected probabilities.
	body, _ := json.Marshal(map[string]any{"texts": texts, "priors": map[string]float64{"ham": 0.2, "spam": 0.8}, "threshold": map[string]float64{"spam": 0.9}})
	r := do(t, "POST", url+"/v1/models/strict/predict", string(body))
	preds, _ := r.body["predictions"].([]any)
	if r.code != 200 || len(preds) != len(texts) {
		t.Fatalf("batch: %d %s", r.code, r.raw)
	}
	for i, x := range preds {
		got := x.(map[string]any)
		pSpam := got["proba"].(map[string]any)["spam"].(float64)
		if got["label"] != want(pSpam, 0.9) {
			t.Errorf("%q with priors: label %v at p(spam) %v", texts[i], got["label"], pSpam)
		}
	}

	for _, c := range []struct{ body, msg string }{
		{`{"text":"a","threshold":0.5}`, `"threshold" names a class with its probability, as {"ham": 0.5}`},
		{`{"text":"a","threshold":{"eggs":0.5}}`, `"eggs" is not a class of the model`},
		{`{"text":"a","threshold":{"spam":1.5}}`, `spam=1.5: want a probability from 0 to 1`},
		{`{"text":"a","threshold":{"spam":0.5,"ham":0.5}}`, `"threshold" names 2 classes: want one`},
		{`{"text":"a","threshold":"spam=0.5"}`, `field "threshold": a JSON string where a number (multi-label models) or an object {"LABEL": P}`},
	} {
		r := do(t, "POST", url+"/v1/models/strict/predict", c.body)
		if msg, _ := r.body["error"].(string); r.code != 400 || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: %d %s, want 400 with %q", c.body, r.code, r.raw, c.msg)
		}
	}
}

// A table model takes no threshold; a text model of three classes none
// either.
func TestPredictThresholdRefused(t *testing.T) {
	_, url, _ := spamAndFlowers(t, Options{})
	r := do(t, "POST", url+"/v1/models/flowers/predict", `{"rows":[[1,2]],"threshold":{"a":0.5}}`)
	if msg, _ := r.body["error"].(string); r.code != 400 || !strings.Contains(msg, `"threshold" applies to text and multi-label models`) {
		t.Errorf("table: %d %s", r.code, r.raw)
	}
	news := train(t, "../../testdata/news/train")
	_, url = start(t, Options{}, Spec{"news", save(t, filepath.Join(t.TempDir(), "news.model"), news)})
	r = do(t, "POST", url+"/v1/models/news/predict", fmt.Sprintf(`{"text":"a","threshold":{%q:0.5}}`, news.Classes[0]))
	if msg, _ := r.body["error"].(string); r.code != 400 || !strings.Contains(msg, "a threshold decides between two") {
		t.Errorf("%d classes: %d %s", len(news.Classes), r.code, r.raw)
	}
}
