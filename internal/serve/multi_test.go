package serve

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
)

const multiJSONL = "../../testdata/multilabel.jsonl"

// trainMulti trains a multi-label model on testdata/multilabel.jsonl,
// reweighted unless mc says otherwise: on this corpus reweighting is what
// gives some texts two labels (and, allowed, none), which the tests need.
func trainMulti(t testing.TB, mc multilabel.Config) *multilabel.Model {
	t.Helper()
	if mc.Reweight == 0 {
		mc.Reweight = 10
	}
	tr, err := multilabel.NewTrainer(pipeline.Config{}, mc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.WalkMulti(multiJSONL, corpus.Options{}, func(d corpus.MultiDocument) error {
		return tr.Add(d.Labels, d.Text)
	}); err != nil {
		t.Fatal(err)
	}
	mm, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return mm
}

// topicsAndSpam serves the multi-label model file "topics" (and its
// allow-empty twin "open") beside the text model "spam".
func topicsAndSpam(t testing.TB, opt Options) (s *Server, url, topicsPath string) {
	dir := t.TempDir()
	topicsPath = save(t, filepath.Join(dir, "topics.model"), trainMulti(t, multilabel.Config{}))
	open := save(t, filepath.Join(dir, "open.model"), trainMulti(t, multilabel.Config{AllowEmpty: true}))
	spam := save(t, filepath.Join(dir, "spam.model"), train(t, spamTSV))
	s, url = start(t, opt, Spec{"topics", topicsPath}, Spec{"open", open}, Spec{"spam", spam})
	return s, url, topicsPath
}

var multiTexts = []string{
	"the striker scored a late goal in the cup final",
	"broadcasters paid record fees for match rights and the club's stock jumped",
	"the new vaccine trial reported fewer infections among older patients",
	"",
	"zzz qqq",
}

// labelP is a label with its probability, as an answer lists it.
type labelP struct {
	Label string  `json:"label"`
	P     float64 `json:"p"`
}

type multiAnswer struct {
	Labels []labelP           `json:"labels"`
	Proba  map[string]float64 `json:"proba"`
	Label  *string            `json:"label"` // single-label only: must be absent
}

// wantMulti is what the multilabel Predictor gives for text: the labels
// chosen by pick from the probabilities, in the answer's form.
func wantMulti(mm *multilabel.Model, text string, pick func(p *multilabel.Predictor, proba []float64) []int) multiAnswer {
	p := mm.NewPredictor()
	proba := p.Proba(nil, text)
	want := multiAnswer{Labels: []labelP{}, Proba: map[string]float64{}}
	for _, l := range pick(p, proba) {
		want.Labels = append(want.Labels, labelP{mm.Labels[l], proba[l]})
	}
	for l, v := range proba {
		want.Proba[mm.Labels[l]] = v
	}
	return want
}

func decide(p *multilabel.Predictor, proba []float64) []int { return p.Decide(nil, proba) }

// byProba returns the labels by decreasing probability, ties by index.
func byProba(proba []float64) []int {
	idx := make([]int, len(proba))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case proba[a] > proba[b]:
			return -1
		case proba[a] < proba[b]:
			return 1
		}
		return 0
	})
	return idx
}

func postMulti(t *testing.T, url, model string, req map[string]any) (response, []multiAnswer) {
	t.Helper()
	body, _ := json.Marshal(req)
	r := do(t, "POST", url+"/v1/models/"+model+"/predict", string(body))
	if r.code != 200 {
		t.Fatalf("%s: %d %s", body, r.code, r.raw)
	}
	var one multiAnswer
	var batch struct{ Predictions []multiAnswer }
	if err := json.Unmarshal([]byte(r.raw), &one); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(r.raw), &batch); err != nil {
		t.Fatal(err)
	}
	if _, ok := req["texts"]; ok {
		return r, batch.Predictions
	}
	return r, []multiAnswer{one}
}

func sameAnswer(t *testing.T, what string, got, want multiAnswer) {
	t.Helper()
	if got.Label != nil || !slices.Equal(got.Labels, want.Labels) || fmt.Sprint(got.Proba) != fmt.Sprint(want.Proba) {
		t.Errorf("%s: labels %v, proba %v, label %v; want labels %v, proba %v and no label", what, got.Labels, got.Proba, got.Label, want.Labels, want.Proba)
	}
}

// A multi-label model file answers every label above its threshold with
// its probability, and every label's probability, as its Predictor gives
// them; "top" and "threshold" choose the labels as predict's flags do.
func TestMultiPredict(t *testing.T) {
	_, url, _ := topicsAndSpam(t, Options{})
	topics, open := trainMulti(t, multilabel.Config{}), trainMulti(t, multilabel.Config{AllowEmpty: true})
	sawTwo, sawEmpty := false, false
	for _, text := range multiTexts {
		r, got := postMulti(t, url, "topics", map[string]any{"text": text})
		if r.body["model"] != "topics" || r.body["generation"] != 1.0 {
			t.Errorf("%q: %s", text, r.raw)
		}
		want := wantMulti(topics, text, decide)
		sameAnswer(t, fmt.Sprintf("%q", text), got[0], want)
		if len(got[0].Labels) == 0 {
			t.Errorf("%q: no label from a model that does not allow empty sets", text)
		}
		sawTwo = sawTwo || len(got[0].Labels) > 1

		_, got = postMulti(t, url, "open", map[string]any{"text": text})
		sameAnswer(t, fmt.Sprintf("allow-empty %q", text), got[0], wantMulti(open, text, decide))
		sawEmpty = sawEmpty || len(got[0].Labels) == 0

		_, got = postMulti(t, url, "topics", map[string]any{"text": text, "top": 2})
		sameAnswer(t, fmt.Sprintf("top 2 %q", text), got[0], wantMulti(topics, text, func(_ *multilabel.Predictor, proba []float64) []int {
			return byProba(proba)[:2]
		}))
		_, got = postMulti(t, url, "topics", map[string]any{"text": text, "top": 99})
		if len(got[0].Labels) != len(topics.Labels) {
			t.Errorf("top 99 of %d labels: %v", len(topics.Labels), got[0].Labels)
		}
		for _, th := range []float64{0, 0.2, 1} {
			_, got = postMulti(t, url, "topics", map[string]any{"text": text, "threshold": th})
			sameAnswer(t, fmt.Sprintf("threshold %g %q", th, text), got[0], wantMulti(topics, text, func(_ *multilabel.Predictor, proba []float64) []int {
				var out []int
				for _, l := range byProba(proba) {
					if proba[l] >= th {
						out = append(out, l)
					}
				}
				return out
			}))
		}
	}
	if !sawTwo || !sawEmpty {
		t.Errorf("the texts never gave two labels (%v) or, allowed, none (%v): the test does not cover them", sawTwo, sawEmpty)
	}

	_, got := postMulti(t, url, "topics", map[string]any{"texts": multiTexts})
	if len(got) != len(multiTexts) {
		t.Fatalf("%d predictions for %d texts", len(got), len(multiTexts))
	}
	for i, text := range multiTexts {
		sameAnswer(t, fmt.Sprintf("batch %d", i), got[i], wantMulti(topics, text, decide))
	}
	if r := do(t, "POST", url+"/v1/models/topics/predict", `{"texts":[]}`); r.code != 200 || r.raw != `{"model":"topics","generation":1,"predictions":[]}`+"\n" {
		t.Errorf("empty batch: %d %s", r.code, r.raw)
	}
}

// What a multi-label model does not take is a 400 that says so.
func TestMultiErrors(t *testing.T) {
	_, url, _ := topicsAndSpam(t, Options{})
	for _, c := range []struct {
		model, body string
		msg         string
	}{
		{"topics", `{"rows":[[1,2]]}`, `model "topics" is a multi-label model: send "text" or "texts"`},
		{"topics", `{"text":"a","explain":0}`, ""},
		{"topics", `{"text":"a","priors":{"sport":1}}`, `model "topics" is a multi-label model: "priors" apply to single-label models`},
		{"topics", `{"text":"a","priors":null}`, ""},
		{"topics", `{"text":"a","threshold":1.5}`, `"threshold" is 1.5: want a probability from 0 to 1`},
		{"topics", `{"text":"a","threshold":-0.1}`, `"threshold" is -0.1`},
		{"topics", `{"text":"a","threshold":"high"}`, `field "threshold": a JSON string where a number (multi-label models) or an object {"LABEL": P} (two-class text models) was expected`},
		{"topics", `{"text":"a","threshold":0.5,"top":2}`, `give at most one of "top" and "threshold"`},
		{"topics", `{"text":"a","top":-1}`, `"top" is -1`},
		{"spam", `{"text":"a","threshold":0.5}`, `model "spam" is a text model: "threshold" names a class with its probability, as {"ham": 0.5}`},
		{"topics", `{"text":"a","threshold":{"sport":0.5}}`, `model "topics" is a multi-label model: "threshold" is one probability for every label`},
	} {
		r := do(t, "POST", url+"/v1/models/"+c.model+"/predict", c.body)
		msg, _ := r.body["error"].(string)
		if c.msg == "" {
			if r.code != 200 {
				t.Errorf("%s %s: %d %s, want 200", c.model, c.body, r.code, r.raw)
			}
			continue
		}
		if r.code != 400 || !strings.Contains(msg, c.msg) {
			t.Errorf("%s %s: %d %s, want 400 and an error with %q", c.model, c.body, r.code, r.raw, c.msg)
		}
	}
}

// The model list and description give a multi-label model's kind, labels,
// thresholds and settings; the metrics count each label predicted.
func TestMultiInfoMetrics(t *testing.T) {
	_, url, path := topicsAndSpam(t, Options{})
	mm := trainMulti(t, multilabel.Config{})
	r := do(t, "GET", url+"/v1/models", "")
	var list struct {
		Models []struct {
			Name, Kind, Path string
			Classes          []string
			Thresholds       map[string]float64
		}
	}
	if err := json.Unmarshal([]byte(r.raw), &list); err != nil || len(list.Models) != 3 {
		t.Fatalf("models: %s, %v", r.raw, err)
	}
	topics := list.Models[2]
	if topics.Name != "topics" || topics.Kind != "multi-label" || topics.Path != path || !slices.Equal(topics.Classes, mm.Labels) || len(topics.Thresholds) != len(mm.Labels) {
		t.Errorf("topics in the list: %+v", topics)
	}
	for l, name := range mm.Labels {
		if topics.Thresholds[name] != mm.Thresholds[l] {
			t.Errorf("threshold of %s: %v, want %v", name, topics.Thresholds[name], mm.Thresholds[l])
		}
	}
	if spam := list.Models[1]; spam.Kind != "text" || spam.Thresholds != nil {
		t.Errorf("a text model in the list: %+v", spam)
	}

	r = do(t, "GET", url+"/v1/models/topics?top=2", "")
	var info struct {
		Name, Kind string
		Generation int
		Settings   struct{ Classifier, Weighting string }
		Multi      struct {
			Score      string
			AllowEmpty bool `json:"allow_empty"`
			Title      int
		}
		Features int
		Labels   []struct {
			Name       string
			Documents  float64
			Threshold  float64
			Prior      *float64
			TopWeights []pipeline.TermScore `json:"top_weights"`
		}
	}
	if err := json.Unmarshal([]byte(r.raw), &info); err != nil || r.code != 200 {
		t.Fatalf("info: %d %s %v", r.code, r.raw, err)
	}
	if info.Name != "topics" || info.Kind != "multi-label" || info.Generation != 1 || info.Settings.Classifier != mm.Config.Classifier.String() ||
		info.Multi.Score != "complement" || info.Multi.AllowEmpty || info.Multi.Title != mm.Multi.Title || info.Features != mm.NumFeatures() || len(info.Labels) != len(mm.Labels) {
		t.Fatalf("info: %s", r.raw)
	}
	for l, c := range info.Labels {
		if c.Name != mm.Labels[l] || c.Threshold != mm.Thresholds[l] || c.Documents < 1 || c.Prior != nil || len(c.TopWeights) != 2 {
			t.Errorf("label %d in the description: %+v", l, c)
		}
	}
	if r := do(t, "GET", url+"/v1/models/open", ""); r.code != 200 || !strings.Contains(r.raw, `"allow_empty":true`) {
		t.Errorf("allow-empty model's description: %d %s", r.code, r.raw)
	}

	_, got := postMulti(t, url, "topics", map[string]any{"texts": multiTexts})
	count := map[string]int{}
	for _, a := range got {
		for _, l := range a.Labels {
			count[l.Label]++
		}
	}
	r = do(t, "GET", url+"/metrics", "")
	for _, name := range mm.Labels {
		if want := fmt.Sprintf(`textnb_predictions_total{class=%q,model="topics"} %d`+"\n", name, count[name]); !strings.Contains(r.raw, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if !strings.Contains(r.raw, `textnb_model_generation{model="topics"} 1`) {
		t.Error("metrics lack the multi-label model's generation")
	}
}

// A multi-label model file reloads when it is replaced, as the others do;
// a text model replacing it is served as a text model.
func TestMultiReload(t *testing.T) {
	s, url, path := topicsAndSpam(t, Options{})
	watch(t, s)
	gen := func() uint64 { return s.slots["topics"].cur.Load().generation }
	open := trainMulti(t, multilabel.Config{AllowEmpty: true})
	// A temporary file renamed over path, again until a reload shows: the
	// watch may not be set up yet.
	for deadline := time.Now().Add(time.Minute); gen() == 1; {
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting for the renamed model to serve")
		}
		save(t, path, open)
		for wait := time.Now().Add(time.Second); gen() == 1 && time.Now().Before(wait); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	const text = "zzz qqq"
	r, got := postMulti(t, url, "topics", map[string]any{"text": text})
	sameAnswer(t, "after the rename", got[0], wantMulti(open, text, decide))
	if r.body["generation"] == 1.0 || len(got[0].Labels) != 0 {
		t.Errorf("after the rename: %s, want the allow-empty model's empty set", r.raw)
	}
	if err := s.ReloadModel("topics"); err != nil {
		t.Fatal(err)
	}
	served := gen()

	save(t, path, train(t, spamTSV))
	waitFor(t, "the text model", func() bool { return gen() > served })
	if r := do(t, "POST", url+"/v1/models/topics/predict", `{"text":"free prize"}`); r.code != 200 || r.body["label"] != "spam" {
		t.Errorf("a text model renamed over a multi-label one: %d %s", r.code, r.raw)
	}
	if r := do(t, "GET", url+"/v1/models/topics", ""); r.body["kind"] != "text" {
		t.Errorf("the description after the text model replaced the multi-label one: %s", r.raw)
	}
}

// Static serves a multi-label model in memory and refuses a Named of two
// models.
func TestMultiStatic(t *testing.T) {
	mm := trainMulti(t, multilabel.Config{})
	s, err := Static(Options{Log: quiet}, Named{Name: "topics", Multi: mm})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.slots["topics"].cur.Load().multiPreds.free); n != 1 {
		t.Errorf("%d predictors pooled after warming, want 1", n)
	}
	if _, err := Static(Options{}, Named{Name: "x", Multi: mm, Text: train(t, spamTSV)}); err == nil || !strings.Contains(err.Error(), "give one text, table or multi-label model") {
		t.Errorf("a Named of two models: %v", err)
	}
}
