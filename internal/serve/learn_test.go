package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
)

const learnToken = "s3cret"

var auth = []string{"Authorization", "Bearer " + learnToken}

// learning serves the SMS test model as "m" with learning on.
func learning(t *testing.T) (*Server, string, string) {
	t.Helper()
	path := save(t, filepath.Join(t.TempDir(), "m.model"), train(t, spamTSV))
	s, url := start(t, Options{Learn: true, Token: learnToken}, Spec{"m", path})
	t.Cleanup(func() { s.Close() })
	return s, url, path
}

// spamProba is p(spam) of text as served.
func spamProba(t *testing.T, url, text string) float64 {
	t.Helper()
	r := do(t, "POST", url+"/v1/models/m/predict", fmt.Sprintf(`{"text":%q}`, text), auth...)
	if r.code != 200 {
		t.Fatalf("predict: %d %s", r.code, r.raw)
	}
	return r.body["proba"].(map[string]any)["spam"].(float64)
}

// documents returns the served model's training documents by class.
func documents(t *testing.T, url string) map[string]float64 {
	t.Helper()
	r := do(t, "GET", url+"/v1/models/m", "", auth...)
	if r.code != 200 {
		t.Fatalf("model info: %d %s", r.code, r.raw)
	}
	out := map[string]float64{}
	for _, c := range r.body["classes"].([]any) {
		c := c.(map[string]any)
		out[c["name"].(string)] = c["documents"].(float64)
	}
	return out
}

func TestLearnRefusals(t *testing.T) {
	if _, err := New(Options{Learn: true}, Spec{"m", "x.model"}); !errors.Is(err, ErrNoToken) {
		t.Errorf("learning without a token: %v", err)
	}
	if _, err := Static(Options{Learn: true, Token: "t"}, Named{Name: "m", Text: train(t, spamTSV)}); !errors.Is(err, ErrSpec) {
		t.Errorf("learning models in memory: %v", err)
	}
	_, url, _ := spamAndFlowers(t, Options{})
	if r := do(t, "POST", url+"/v1/models/spam/learn", `{"label":"spam","text":"x"}`); r.code != 403 || !strings.Contains(r.raw, "--learn") {
		t.Errorf("learn with learning off: %d %s", r.code, r.raw)
	}
	_, url, _ = learning(t)
	for _, c := range []struct {
		body string
		code int
		want string
	}{
		{`{"label":"spam","text":"x"}`, 401, "token"},
		{`{"text":"x"}`, 400, `label`},
		{`{"label":"spam"}`, 400, "exactly one"},
		{`{"label":"spam","text":"x","texts":["y"]}`, 400, "exactly one"},
		{`{"label":"spam","documents":[{"label":"ham","text":"x"}]}`, 400, "each document"},
		{`{"documents":[{"text":"x"}]}`, 400, `document 1 has no`},
		{`{"documents":[{"label":"ham"}]}`, 400, `document 1: give one of`},
		{`{"label":"eggs","text":"x"}`, 400, "eggs"},
		{`{"documents":[{"label":"ham","text":"x"},{"label":"eggs","text":"y"}]}`, 400, "document 2"},
		{`{"label":"spam","txt":"x"}`, 400, "unknown field"},
	} {
		header := auth
		if c.code == 401 {
			header = nil
		}
		if r := do(t, "POST", url+"/v1/models/m/learn", c.body, header...); r.code != c.code || !strings.Contains(r.raw, c.want) {
			t.Errorf("%s: %d %s, want %d mentioning %s", c.body, r.code, r.raw, c.code, c.want)
		}
	}
	if r := do(t, "GET", url+"/v1/models/m/learn", "", auth...); r.code != 405 {
		t.Errorf("GET learn: %d", r.code)
	}
	if docs := documents(t, url); docs["ham"]+docs["spam"] != 120 {
		t.Errorf("refused requests changed the model: %v", docs)
	}
}

// TestLearn: an acknowledged update shows in the next prediction, unlearn
// undoes it, and both survive a restart, from the journal or the model
// file.
func TestLearn(t *testing.T) {
	s, url, path := learning(t)
	text := "quarterly gadget newsletter: new widgets in stock"
	before := spamProba(t, url, text)
	r := do(t, "POST", url+"/v1/models/m/learn", fmt.Sprintf(`{"label":"spam","texts":[%q,%q,%q]}`, text, text, text), auth...)
	if r.code != 200 || r.body["learned"] != 3.0 {
		t.Fatalf("learn: %d %s", r.code, r.raw)
	}
	learned := spamProba(t, url, text)
	if !(learned > before) {
		t.Fatalf("p(spam) %v after learning it as spam, %v before", learned, before)
	}
	if docs := documents(t, url); docs["spam"]+docs["ham"] != 123 {
		t.Errorf("documents after learning 3: %v", docs)
	}
	r = do(t, "POST", url+"/v1/models/m/unlearn", fmt.Sprintf(`{"documents":[{"label":"spam","text":%q}]}`, text), auth...)
	if r.code != 200 || r.body["unlearned"] != 1.0 {
		t.Fatalf("unlearn: %d %s", r.code, r.raw)
	}
	twice := spamProba(t, url, text)
	m := do(t, "GET", url+"/metrics", "", auth...).raw
	for _, want := range []string{`textnb_learned_documents_total{model="m",op="learn"} 3`,
		`textnb_learned_documents_total{model="m",op="unlearn"} 1`, `textnb_journal_syncs_total{model="m"} 2`} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	list := do(t, "GET", url+"/v1/models", "", auth...)
	if l := list.body["models"].([]any)[0].(map[string]any)["learning"].(map[string]any); l["updates"] != 2.0 || l["documents"] != 4.0 || l["journal"] != path+JournalSuffix {
		t.Errorf("the model list shows learning %v", l)
	}

	// A crash: the journal closes without writing the model file.
	s.slots["m"].cur.Load().jnl.Close()
	s2, url2 := start(t, Options{Learn: true, Token: learnToken}, Spec{"m", path})
	if got := spamProba(t, url2, text); math.Abs(got-twice) > 1e-12 {
		t.Errorf("after replaying the journal p(spam) = %v, want %v", got, twice)
	}
	// A clean stop writes the updates into the model file.
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + JournalSuffix); err != nil || fi.Size() != 48 {
		t.Errorf("the journal after compaction: %v, %d bytes", err, fi.Size())
	}
	s3, url3 := start(t, Options{Learn: true, Token: learnToken}, Spec{"m", path})
	defer s3.Close()
	if got := spamProba(t, url3, text); math.Abs(got-twice) > 1e-12 {
		t.Errorf("from the compacted model file p(spam) = %v, want %v", got, twice)
	}
	// Learning and then unlearning, one by one in the reverse order,
	// leaves the model as it was.
	mid := spamProba(t, url3, text)
	for range 2 {
		do(t, "POST", url3+"/v1/models/m/learn", fmt.Sprintf(`{"label":"spam","text":%q}`, text), auth...)
	}
	for range 2 {
		do(t, "POST", url3+"/v1/models/m/unlearn", fmt.Sprintf(`{"label":"spam","text":%q}`, text), auth...)
	}
	if got := spamProba(t, url3, text); math.Abs(got-mid) > 1e-9 {
		t.Errorf("learning and unlearning 2 copies: p(spam) %v, want %v", got, mid)
	}
	// Unlearning the 2 copies left, the 3rd is not there to unlearn.
	r = do(t, "POST", url3+"/v1/models/m/unlearn", fmt.Sprintf(`{"label":"spam","texts":[%q,%q]}`, text, text), auth...)
	if got := spamProba(t, url3, text); r.code != 200 || !(got < mid) {
		t.Errorf("unlearning the copies left: %d, p(spam) %v, with them %v", r.code, got, mid)
	}
	if r = do(t, "POST", url3+"/v1/models/m/unlearn", fmt.Sprintf(`{"label":"spam","text":%q}`, text), auth...); r.code != 400 {
		t.Errorf("unlearning a document the model does not hold: %d %s", r.code, r.raw)
	}
}

// TestLearnReplaced: a model file replaced by a new training supersedes
// the journal, which is kept aside and not applied to the new file.
func TestLearnReplaced(t *testing.T) {
	s, url, path := learning(t)
	do(t, "POST", url+"/v1/models/m/learn", `{"label":"spam","text":"aardvark aardvark"}`, auth...)
	// compaction's own file is no new version
	if err := s.slots["m"].compact(s); err != nil {
		t.Fatal(err)
	}
	if err := s.ReloadModel("m"); err != nil || s.slots["m"].cur.Load().generation != 1 {
		t.Fatalf("reloading the compacted file: %v, generation %d", err, s.slots["m"].cur.Load().generation)
	}
	do(t, "POST", url+"/v1/models/m/learn", `{"label":"spam","text":"zebra"}`, auth...)
	save(t, path, train(t, spamTSV))
	if err := s.ReloadModel("m"); err != nil {
		t.Fatal(err)
	}
	if docs := documents(t, url); docs["spam"]+docs["ham"] != 120 {
		t.Errorf("the new training has learned documents: %v", docs)
	}
	aside, _ := filepath.Glob(path + JournalSuffix + ".superseded-*")
	if len(aside) != 1 {
		t.Fatalf("superseded journals %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); !strings.Contains(string(b), "zebra") {
		t.Errorf("the superseded journal lacks the update after the compaction")
	}
	if r := do(t, "POST", url+"/v1/models/m/learn", `{"label":"ham","text":"zebra"}`, auth...); r.code != 200 || r.body["generation"] != 2.0 {
		t.Errorf("learning into the new file: %d %s", r.code, r.raw)
	}
	if !strings.Contains(do(t, "GET", url+"/metrics", "", auth...).raw, `textnb_journal_superseded_total{model="m"} 1`) {
		t.Error("the metrics do not count the superseded journal")
	}
}

// TestLearnUnderLoad: learning, predicting, compacting and reloading at
// once answer every request, and every acknowledged update is in the
// model served.
func TestLearnUnderLoad(t *testing.T) {
	s, url, path := learning(t)
	watch(t, s)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var acked, failed, predicted atomic.Int64
	post := func(path, body string) bool {
		req, _ := http.NewRequest("POST", url+path, strings.NewReader(body))
		req.Header.Set(auth[0], auth[1])
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		if err != nil || res.StatusCode != 200 {
			failed.Add(1)
			return false
		}
		return true
	}
	for g := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if g == 3 {
					if post("/v1/models/m/predict", `{"text":"free prize, call now"}`) {
						predicted.Add(1)
					}
					continue
				}
				label := []string{"ham", "spam"}[i%2]
				if post("/v1/models/m/learn", fmt.Sprintf(`{"label":%q,"text":"load test %d %d"}`, label, g, i)) {
					acked.Add(1)
				}
			}
		})
	}
	for range 20 {
		if err := s.slots["m"].compact(s); err != nil {
			t.Error(err)
		}
		if err := s.ReloadModel("m"); err != nil {
			t.Error(err)
		}
	}
	waitFor(t, "learning and predicting", func() bool { return acked.Load() > 0 && predicted.Load() > 0 })
	close(stop)
	wg.Wait()
	docs := documents(t, url)
	if failed.Load() != 0 || docs["ham"]+docs["spam"] != 120+float64(acked.Load()) {
		t.Errorf("%d failed requests; %d acknowledged, the model has %v documents (120 before)", failed.Load(), acked.Load(), docs)
	}
	if g := s.slots["m"].cur.Load().generation; g != 1 {
		t.Errorf("the compactions' own files were reloaded: generation %d", g)
	}
	// After a clean stop the model file holds them all.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, url2 := start(t, Options{Learn: true, Token: learnToken}, Spec{"m", path})
	defer s2.Close()
	if d := documents(t, url2); d["ham"]+d["spam"] != docs["ham"]+docs["spam"] {
		t.Errorf("after a restart %v, before %v", d, docs)
	}

	// New trainings replacing the file under load: every request answered.
	url = url2
	stop = make(chan struct{})
	for g := range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				post("/v1/models/m/learn", fmt.Sprintf(`{"label":"ham","text":"replaced %d %d"}`, g, i))
				post("/v1/models/m/predict", `{"text":"free prize, call now"}`)
			}
		})
	}
	for k := range 3 {
		fresh := train(t, spamTSV) // a new file each time: with a document of its own
		if err := fresh.Learn("ham", []string{"alpha", "beta", "gamma"}[k]+" edition"); err != nil {
			t.Fatal(err)
		}
		save(t, path, fresh)
		if err := s2.ReloadModel("m"); err != nil {
			t.Error(err)
		}
	}
	close(stop)
	wg.Wait()
	if failed.Load() != 0 || s2.slots["m"].cur.Load().generation != 4 {
		t.Errorf("%d failed requests while new trainings replaced the file; generation %d", failed.Load(), s2.slots["m"].cur.Load().generation)
	}
}

// TestUnlearnKeepsClasses: a served model does not lose a class to
// unlearning its last document.
func TestUnlearnKeepsClasses(t *testing.T) {
	docs, err := corpus.ReadAll(newsTrain, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Raw counts: pipeline would drop an emptied class of such a model.
	tr, err := pipeline.NewTrainer(pipeline.Config{Weighting: pipeline.RawCounts})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		tr.Add(d.Label, d.Text)
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	path := save(t, filepath.Join(t.TempDir(), "m.model"), m)
	s, url := start(t, Options{Learn: true, Token: learnToken}, Spec{"m", path})
	defer s.Close()
	classes := s.slots["m"].cur.Load().classes
	var mine []string
	for _, d := range docs {
		if d.Label == classes[0] {
			mine = append(mine, d.Text)
		}
	}
	for i, text := range mine {
		body, _ := json.Marshal(map[string]string{"label": classes[0], "text": text})
		r := do(t, "POST", url+"/v1/models/m/unlearn", string(body), auth...)
		if i < len(mine)-1 && r.code != 200 {
			t.Fatalf("unlearning document %d of %d: %d %s", i+1, len(mine), r.code, r.raw)
		}
		if i == len(mine)-1 && (r.code != 400 || !strings.Contains(r.raw, "last of class")) {
			t.Fatalf("unlearning the last document of a class: %d %s", r.code, r.raw)
		}
	}
	if r := do(t, "POST", url+"/v1/models/m/predict", `{"text":"hockey"}`, auth...); r.code != 200 || len(r.body["proba"].(map[string]any)) != len(classes) {
		t.Errorf("predict after: %d %s", r.code, r.raw)
	}
}
