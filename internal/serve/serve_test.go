package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/table"
	"github.com/textnb/textnb/tokenize/zh"
)

const (
	spamTSV   = "../../testdata/spam.tsv"
	newsTrain = "../../testdata/news/train"
)

// train trains a text model with the default settings on a testdata corpus.
func train(t testing.TB, path string) *pipeline.Model {
	t.Helper()
	return trainWith(t, path, corpus.Options{})
}

func trainWith(t testing.TB, path string, opt corpus.Options) *pipeline.Model {
	t.Helper()
	docs, err := corpus.ReadAll(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := pipeline.NewTrainer(pipeline.Config{})
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
	return m
}

// flowers is a Gaussian table model over length and width.
func flowers(t testing.TB) *table.Table {
	t.Helper()
	tab := table.Data{Header: []string{"length", "width"}}
	for i, x := range [][]float64{{5.1, 3.5}, {4.9, 3.0}, {4.7, 3.2}, {5.0, 3.6}, {7.0, 2.2}, {6.4, 2.3}, {6.9, 2.1}, {6.5, 2.8}} {
		tab.Labels = append(tab.Labels, []string{"setosa", "versicolor"}[i/4])
		tab.Features = append(tab.Features, x)
	}
	m, err := table.Train(tab, table.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func save(t testing.TB, path string, m io.WriterTo) string {
	t.Helper()
	if err := modelfile.Save(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// start serves the model files of specs on 127.0.0.1 once they are loaded.
func start(t testing.TB, opt Options, specs ...Spec) (*Server, string) {
	t.Helper()
	if opt.Log == nil {
		opt.Log = quiet
	}
	s, err := New(opt, specs...)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	return s, hs.URL
}

// spamAndFlowers serves a text model "spam" and a table model "flowers".
func spamAndFlowers(t testing.TB, opt Options) (*Server, string, string) {
	dir := t.TempDir()
	spam := save(t, filepath.Join(dir, "spam.model"), train(t, spamTSV))
	save(t, filepath.Join(dir, "flowers.model"), flowers(t))
	s, url := start(t, opt, Spec{"spam", spam}, Spec{"flowers", filepath.Join(dir, "flowers.model")})
	return s, url, spam
}

type response struct {
	code int
	body map[string]any
	raw  string
}

func do(t testing.TB, method, url, body string, header ...string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := response{code: res.StatusCode, raw: string(raw)}
	if ct := res.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/json") {
		if err := json.Unmarshal(raw, &r.body); err != nil {
			t.Fatalf("%s %s: invalid JSON %q: %v", method, url, raw, err)
		}
	}
	return r
}

func TestPredictText(t *testing.T) {
	s, url, _ := spamAndFlowers(t, Options{})
	m := train(t, spamTSV)
	p := m.NewPredictor()
	texts := []string{"WINNER! Claim your free prize now, call 09061701461", "Are you still coming round for dinner tonight?", ""}
	for _, text := range texts {
		js, _ := json.Marshal(text)
		r := do(t, "POST", url+"/v1/models/spam/predict", `{"text":`+string(js)+`,"top":5,"explain":true}`)
		if r.code != 200 {
			t.Fatalf("%q: %d %s", text, r.code, r.raw)
		}
		proba, best := p.Proba(nil, text)
		if r.body["label"] != m.Classes[best] || r.body["model"] != "spam" || r.body["generation"] != 1.0 {
			t.Errorf("%q: %s, want label %s", text, r.raw, m.Classes[best])
		}
		for c, name := range m.Classes {
			if got := r.body["proba"].(map[string]any)[name]; got != proba[c] {
				t.Errorf("%q: P(%s) = %v, want %v", text, name, got, proba[c])
			}
		}
		if top := r.body["top"].([]any); len(top) != 2 || top[0].(map[string]any)["label"] != m.Classes[best] {
			t.Errorf("%q: top %v", text, top)
		}
		e := p.Explain(text)
		got, _ := r.body["explanation"].(map[string]any)
		if got == nil || got["margin"] != e.Margin || len(got["terms"].([]any)) != min(len(e.Terms), DefaultExplainTerms) {
			t.Errorf("%q: explanation %v, want %+v", text, got, e)
		}
	}
	if n := len(s.slots["spam"].cur.Load().preds.free); n != 1 {
		t.Errorf("%d predictors pooled after sequential requests, want 1", n)
	}

	body, _ := json.Marshal(map[string]any{"texts": texts, "priors": map[string]float64{"ham": 0.99, "spam": 0.01}})
	r := do(t, "POST", url+"/v1/models/spam/predict", string(body))
	preds, _ := r.body["predictions"].([]any)
	if r.code != 200 || len(preds) != len(texts) {
		t.Fatalf("batch: %d %s", r.code, r.raw)
	}
	spam := preds[0].(map[string]any)["proba"].(map[string]any)["spam"].(float64)
	if plain, _ := p.Proba(nil, texts[0]); !(spam < plain[1]) {
		t.Errorf("priors ham=0.99 left P(spam) at %v (plain %v)", spam, plain[1])
	}
	if r := do(t, "POST", url+"/v1/models/spam/predict", `{"texts":[]}`); r.code != 200 || len(r.body["predictions"].([]any)) != 0 {
		t.Errorf("empty batch: %d %s", r.code, r.raw)
	}
}

func TestPredictTable(t *testing.T) {
	_, url, _ := spamAndFlowers(t, Options{})
	tab := flowers(t)
	r := do(t, "POST", url+"/v1/models/flowers/predict", `{"rows":[[5.0,3.4],{"width":2.2,"length":6.8,"note":1}],"top":1}`)
	if r.code != 200 {
		t.Fatalf("%d %s", r.code, r.raw)
	}
	for i, x := range [][]float64{{5.0, 3.4}, {6.8, 2.2}} {
		proba, best, err := tab.Proba(nil, x)
		if err != nil {
			t.Fatal(err)
		}
		got := r.body["predictions"].([]any)[i].(map[string]any)
		if got["label"] != tab.Classes[best] || got["proba"].(map[string]any)[tab.Classes[1]] != proba[1] {
			t.Errorf("row %d: %v, want %s %v", i, got, tab.Classes[best], proba)
		}
	}
}

func TestErrors(t *testing.T) {
	_, url, _ := spamAndFlowers(t, Options{MaxBody: 4096, MaxBatch: 3})
	big := `{"text":"` + strings.Repeat("a", 5000) + `"}`
	cases := []struct {
		method, path, body string
		code               int
		msg                string
	}{
		{"GET", "/v1/models/spam/predict", "", 405, "use POST"},
		{"POST", "/v1/models/nope/predict", `{"text":"x"}`, 404, `no model named "nope"`},
		{"POST", "/v1/models/spam/predict", ``, 400, "empty request body"},
		{"POST", "/v1/models/spam/predict", `{"text":`, 400, "unexpected EOF"},
		{"POST", "/v1/models/spam/predict", `{"text":"a"} {}`, 400, "data after"},
		{"POST", "/v1/models/spam/predict", `[1]`, 400, "send an object"},
		{"POST", "/v1/models/spam/predict", `{"txt":"a"}`, 400, `unknown field "txt"`},
		{"POST", "/v1/models/spam/predict", `{"text":1}`, 400, `field "text"`},
		{"POST", "/v1/models/spam/predict", `{}`, 400, "exactly one of"},
		{"POST", "/v1/models/spam/predict", `{"text":"a","texts":["b"]}`, 400, "exactly one of"},
		{"POST", "/v1/models/spam/predict", `{"rows":[[1,2]]}`, 400, "is a text model"},
		{"POST", "/v1/models/spam/predict", `{"text":"a","top":-1}`, 400, `"top" is -1`},
		{"POST", "/v1/models/spam/predict", `{"text":"a","explain":-2}`, 400, `"explain" is -2`},
		{"POST", "/v1/models/spam/predict", `{"text":"a","priors":3}`, 400, `a JSON number where an object of numbers keyed by class was expected`},
		{"POST", "/v1/models/flowers/predict", `{"rows":3}`, 400, `a JSON number where an array of rows was expected`},
		{"POST", "/v1/models/spam/predict", `{"text":"a","priors":{"ham":1}}`, 400, `no prior for class "spam"`},
		{"POST", "/v1/models/spam/predict", `{"text":"a","priors":{"ham":0.5,"spam":0.5,"eggs":0.1}}`, 400, `"eggs" names no class`},
		{"POST", "/v1/models/spam/predict", big, 413, "limit of 4096 bytes (--max-body)"},
		{"POST", "/v1/models/spam/predict", `{"texts":["a","b","c","d"]}`, 413, "limit of 3 documents or rows per request (--max-batch)"},
		{"POST", "/v1/models/flowers/predict", `{"text":"a"}`, 400, "is a table model"},
		{"POST", "/v1/models/flowers/predict", `{"rows":[[1]]}`, 400, "row 0: 1 values for a model of 2 features"},
		{"POST", "/v1/models/flowers/predict", `{"rows":[[1,null]]}`, 400, `feature "width" is null`},
		{"POST", "/v1/models/flowers/predict", `{"rows":[{"length":1}]}`, 400, `no number for feature "width"`},
		{"POST", "/v1/models/flowers/predict", `{"rows":["x"]}`, 400, "want an array of numbers"},
		{"POST", "/v1/models/flowers/predict", `{"rows":[[1e300,-1e300]]}`, 422, "overflow"},
		{"POST", "/v1/models/flowers/predict", `{"rows":[[1,2]],"explain":true}`, 400, "applies to text models"},
		{"GET", "/v1/models/nope", "", 404, "no model named"},
		{"GET", "/v1/models/spam?top=x", "", 400, "top=x"},
		{"DELETE", "/v1/models", "", 405, "use GET"},
		{"GET", "/v2/x", "", 404, "no such endpoint"},
	}
	for _, c := range cases {
		r := do(t, c.method, url+c.path, c.body)
		msg, _ := r.body["error"].(string)
		if r.code != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("%s %s %.60s: %d %s, want %d and an error with %q", c.method, c.path, c.body, r.code, r.raw, c.code, c.msg)
		}
	}
}

func TestInfo(t *testing.T) {
	_, url, spam := spamAndFlowers(t, Options{})
	r := do(t, "GET", url+"/v1/models", "")
	list, _ := r.body["models"].([]any)
	if r.code != 200 || len(list) != 2 {
		t.Fatalf("%d %s", r.code, r.raw)
	}
	first := list[0].(map[string]any)
	if first["name"] != "flowers" || first["kind"] != "table" || list[1].(map[string]any)["path"] != spam {
		t.Errorf("models: %s", r.raw)
	}
	r = do(t, "GET", url+"/v1/models/spam?top=3", "")
	classes, _ := r.body["classes"].([]any)
	if r.code != 200 || r.body["kind"] != "text" || len(classes) != 2 {
		t.Fatalf("%d %s", r.code, r.raw)
	}
	if top := classes[1].(map[string]any)["top_weights"].([]any); len(top) != 3 {
		t.Errorf("top=3 gave %d terms", len(top))
	}
	if r := do(t, "GET", url+"/v1/models/flowers", ""); r.code != 200 || r.body["kind"] != "table" {
		t.Errorf("table info: %d %s", r.code, r.raw)
	}
}

func TestToken(t *testing.T) {
	_, url, _ := spamAndFlowers(t, Options{Token: "s3cret"})
	for _, path := range []string{"/v1/models", "/v1/models/spam", "/metrics"} {
		if r := do(t, "GET", url+path, ""); r.code != 401 {
			t.Errorf("%s without a token: %d", path, r.code)
		}
		if r := do(t, "GET", url+path, "", "Authorization", "Bearer wrong"); r.code != 401 {
			t.Errorf("%s with a wrong token: %d", path, r.code)
		}
		if r := do(t, "GET", url+path, "", "Authorization", "Bearer s3cret"); r.code != 200 {
			t.Errorf("%s with the token: %d", path, r.code)
		}
	}
	if r := do(t, "POST", url+"/v1/models/spam/predict", `{"text":"a"}`); r.code != 401 || !strings.Contains(r.raw, "bearer token") {
		t.Errorf("predict without a token: %d %s", r.code, r.raw)
	}
	for _, path := range []string{"/healthz", "/readyz", "/", "/static/app.js"} {
		if r := do(t, "GET", url+path, ""); r.code != 200 {
			t.Errorf("%s needs no token, got %d", path, r.code)
		}
	}
}

func TestMetrics(t *testing.T) {
	_, url, _ := spamAndFlowers(t, Options{})
	do(t, "POST", url+"/v1/models/spam/predict", `{"texts":["free prize","dinner tonight?","free entry"]}`)
	do(t, "POST", url+"/v1/models/spam/predict", `{"text":1}`)
	r := do(t, "GET", url+"/metrics", "")
	for _, want := range []string{
		`textnb_http_requests_total{code="200",handler="predict"} 1`,
		`textnb_http_requests_total{code="400",handler="predict"} 1`,
		`textnb_http_request_duration_seconds_count{handler="predict"} 2`,
		`textnb_predictions_total{class="spam",model="spam"} 2`,
		`textnb_predictions_total{class="ham",model="spam"} 1`,
		`textnb_model_generation{model="spam"} 1`,
		`textnb_model_generation{model="flowers"} 1`,
		`textnb_model_load_seconds{model="spam"}`,
		`textnb_model_load_error{model="spam"} 0`,
		`process_resident_memory_bytes`,
	} {
		if !strings.Contains(r.raw, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// waitFor polls cond until it holds or a minute has passed.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// hammer sends single-text predictions from a few goroutines until stop is
// closed and counts the answers by status code and model generation; seen
// tells how many answers a generation has had so far.
func hammer(t *testing.T, url string, stop chan struct{}) (wait func() (failed int, gens map[float64]int), seen func(gen float64) int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	failed, gens := 0, map[float64]int{}
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := http.Post(url+"/v1/models/m/predict", "application/json", strings.NewReader(`{"text":"free prize, call now"}`))
				var body map[string]any
				if err == nil {
					err = json.NewDecoder(res.Body).Decode(&body)
					res.Body.Close()
				}
				mu.Lock()
				if err != nil || res.StatusCode != 200 {
					failed++
				} else {
					gens[body["generation"].(float64)]++
				}
				mu.Unlock()
			}
		})
	}
	return func() (int, map[float64]int) {
			wg.Wait()
			return failed, gens
		}, func(gen float64) int {
			mu.Lock()
			defer mu.Unlock()
			return gens[gen]
		}
}

func TestReloadUnderLoad(t *testing.T) {
	dir := t.TempDir()
	path := save(t, filepath.Join(dir, "m.model"), train(t, spamTSV))
	s, url := start(t, Options{}, Spec{"m", path})
	stop := make(chan struct{})
	wait, seen := hammer(t, url, stop)
	waitFor(t, "answers before the reloads", func() bool { return seen(1) > 0 })
	for range 10 {
		if err := s.ReloadModel("m"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	waitFor(t, "answers after the reloads", func() bool { return seen(11) > 0 })
	close(stop)
	failed, gens := wait()
	if failed != 0 || len(gens) < 2 {
		t.Errorf("%d failed requests across 10 reloads; answers by generation %v", failed, gens)
	}
	if g := s.slots["m"].cur.Load().generation; g != 11 {
		t.Errorf("generation %d after 10 reloads, want 11", g)
	}
}

func TestReloadOnRename(t *testing.T) {
	dir := t.TempDir()
	path := save(t, filepath.Join(dir, "m.model"), train(t, spamTSV))
	s, url := start(t, Options{}, Spec{"m", path})
	watch(t, s)
	gen := func() uint64 { return s.slots["m"].cur.Load().generation }

	stop := make(chan struct{})
	wait, _ := hammer(t, url, stop)
	news := train(t, newsTrain)
	// A temporary file renamed over path, again until a reload shows: the
	// watch may not be set up yet.
	for deadline := time.Now().Add(time.Minute); gen() == 1; {
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting for the renamed model to serve")
		}
		save(t, path, news)
		for wait := time.Now().Add(time.Second); gen() == 1 && time.Now().Before(wait); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor(t, "reloads to settle", func() bool {
		g := gen()
		time.Sleep(3 * settle)
		return gen() == g
	})
	served := gen()
	r := do(t, "POST", url+"/v1/models/m/predict", `{"text":"the match went to extra time"}`)
	if _, ok := r.body["proba"].(map[string]any)[news.Classes[0]]; !ok {
		t.Errorf("after the rename: %s, want the news model's classes %v", r.raw, news.Classes)
	}

	// A damaged file fails to load: the old model serves on, and the
	// failure shows in /readyz, the model list and the metrics.
	tmp := filepath.Join(dir, "m.model.new")
	if err := os.WriteFile(tmp, []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the failed load to show", func() bool { return s.slots["m"].failure.Load() != nil })
	close(stop)
	if failed, gens := wait(); failed != 0 {
		t.Errorf("%d failed requests across the reloads (by generation %v)", failed, gens)
	}
	r = do(t, "GET", url+"/readyz", "")
	st := r.body["models"].(map[string]any)["m"].(map[string]any)
	if r.code != 200 || st["generation"] != float64(served) || !strings.Contains(st["error"].(string), "not a textnb model file") {
		t.Errorf("readyz after a failed load: %d %s", r.code, r.raw)
	}
	if r := do(t, "GET", url+"/metrics", ""); !strings.Contains(r.raw, `textnb_model_load_error{model="m"} 1`) ||
		!strings.Contains(r.raw, `textnb_model_load_failures_total{model="m"} 1`) {
		t.Errorf("metrics do not show the failed load")
	}
	if r := do(t, "POST", url+"/v1/models/m/predict", `{"text":"hockey"}`); r.code != 200 || r.body["generation"] != float64(served) {
		t.Errorf("after a failed load: %d %s", r.code, r.raw)
	}

	save(t, path, news) // mended: the error clears
	waitFor(t, "the mended model", func() bool { return gen() == served+1 })
	if s.slots["m"].failure.Load() != nil {
		t.Error("the load error outlived a successful load")
	}
}

func TestNotReady(t *testing.T) {
	dir := t.TempDir()
	s, err := New(Options{Log: quiet}, Spec{"m", save(t, filepath.Join(dir, "m.model"), train(t, spamTSV))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	if r := do(t, "GET", hs.URL+"/readyz", ""); r.code != 503 || r.body["ready"] != false {
		t.Errorf("readyz before Load: %d %s", r.code, r.raw)
	}
	if r := do(t, "GET", hs.URL+"/healthz", ""); r.code != 200 {
		t.Errorf("healthz before Load: %d", r.code)
	}
	if r := do(t, "POST", hs.URL+"/v1/models/m/predict", `{"text":"a"}`); r.code != 503 || !strings.Contains(r.raw, "not loaded yet") {
		t.Errorf("predict before Load: %d %s", r.code, r.raw)
	}
	if err := s.Load(); err != nil {
		t.Fatal(err)
	}
	if r := do(t, "GET", hs.URL+"/readyz", ""); r.code != 200 {
		t.Errorf("readyz after Load: %d %s", r.code, r.raw)
	}
	bad, err := New(Options{Log: quiet}, Spec{"x", filepath.Join(dir, "missing.model")})
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Load(); err == nil || !strings.Contains(err.Error(), "missing.model") {
		t.Errorf("loading a missing file: %v", err)
	}
}

func TestParseSpec(t *testing.T) {
	for arg, want := range map[string]Spec{
		"models/spam.model":  {"spam", "models/spam.model"},
		"sms=models/a.model": {"sms", "models/a.model"},
		"a=b=c":              {"a", "b=c"},
	} {
		if got, err := ParseSpec(arg); err != nil || got != want {
			t.Errorf("ParseSpec(%q) = %v, %v, want %v", arg, got, err, want)
		}
	}
	for _, arg := range []string{"x y=m.model", "=m.model", "a=", "a/b=m"} {
		if _, err := ParseSpec(arg); err == nil {
			t.Errorf("ParseSpec(%q) accepted", arg)
		}
	}
	if _, err := New(Options{}, Spec{"a", "x"}, Spec{"a", "y"}); err == nil {
		t.Error("two models of one name accepted")
	}
}

func TestStatic(t *testing.T) {
	m := train(t, spamTSV)
	s, err := Static(Options{Log: quiet}, Named{Name: "spam", Text: m}, Named{Name: "flowers", Table: flowers(t)})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/models/spam/predict", strings.NewReader(`{"text":"free prize"}`)))
	if rec.Code != 200 || !bytes.Contains(rec.Body.Bytes(), []byte(`"label":"spam"`)) {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
	if err := s.Reload(); err != nil {
		t.Errorf("Reload of models in memory: %v", err)
	}
	if _, err := Static(Options{}, Named{Name: "x"}); err == nil {
		t.Error("a Named without a model accepted")
	}
}

// FuzzPredict sends arbitrary bodies: every answer is JSON with a known
// status, nothing panics, and what a request allocates is bounded by its
// size.
func FuzzPredict(f *testing.F) {
	for _, s := range []string{`{"text":"free prize"}`, `{"texts":["a","b"],"top":2,"explain":3}`, `{"rows":[[1,2],{"length":1,"width":2}]}`,
		`{"text":"a","priors":{"ham":0.5,"spam":0.5}}`, `{"texts":null}`, `[`, `{"rows":[[1e308,1e308]]}`, `{"explain":1e9}`,
		`{"texts":["goal","bank"],"threshold":0.2}`, `{"text":"x","threshold":1e999}`} {
		f.Add(uint8(0), s)
		f.Add(uint8(1), s)
		f.Add(uint8(3), s)
	}
	spam, tab := train(f, spamTSV), flowers(f)
	s, err := Static(Options{Log: quiet, MaxBody: 1 << 14, MaxBatch: 64}, Named{Name: "spam", Text: spam}, Named{Name: "flowers", Table: tab},
		Named{Name: "topics", Multi: trainMulti(f, multilabel.Config{})})
	if err != nil {
		f.Fatal(err)
	}
	var calls atomic.Int64
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		model := []string{"spam", "flowers", "none", "topics"}[which%4]
		if calls.Add(1) == 1 { // the first request makes a Predictor
			s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/v1/models/spam/predict", strings.NewReader(`{"text":"a"}`)))
		}
		req := httptest.NewRequest("POST", "/v1/models/"+model+"/predict", strings.NewReader(body))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		switch rec.Code {
		case 200, 400, 404, 413, 422:
		default:
			t.Fatalf("%q %q: status %d %s", model, body, rec.Code, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%q %q: invalid JSON %q", model, body, rec.Body)
		}
		if rec.Code != 200 && !bytes.Contains(rec.Body.Bytes(), []byte(`"error"`)) {
			t.Fatalf("%q %q: %d without an error message", model, body, rec.Code)
		}
	})
}

// A request allocates in proportion to its body, which MaxBody bounds,
// however it is built.
func TestAllocationBounded(t *testing.T) {
	s, err := Static(Options{Log: quiet, MaxBody: 1 << 16}, Named{Name: "spam", Text: train(t, spamTSV)})
	if err != nil {
		t.Fatal(err)
	}
	post := func(body string) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("POST", "/v1/models/spam/predict", strings.NewReader(body)))
	}
	post(`{"text":"warm"}`)
	// Bodies at the limit, built to make the decoder or the answer big.
	for _, body := range []string{
		`{"texts":[` + strings.Repeat(`"",`, 1<<14) + `""]}`,
		`{"texts":["` + strings.Repeat("free ", 1<<13) + `"],"explain":1000,"top":1000}`,
		`{"text":"` + strings.Repeat(`\u00e9`, 1<<14),
		strings.Repeat("[", 1<<16),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		post(body)
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64*uint64(len(body))+1<<20 {
			t.Errorf("a %d-byte body allocated %d bytes", len(body), grew)
		}
	}
}

// Loading a Chinese model loads the segmenter's dictionary, so that the
// first request does not wait for it.
func TestChineseWarm(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the gse dictionary")
	}
	if zh.Default().Loaded() {
		t.Skip("the dictionary is loaded already")
	}
	dir := t.TempDir()
	path := save(t, filepath.Join(dir, "zh.model"), trainWith(t, "../../testdata/zh/train.tsv", corpus.Options{TextField: "text_a"}))
	s, err := New(Options{Log: quiet}, Spec{"zh", path})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Load(); err != nil {
		t.Fatal(err)
	}
	if !zh.Default().Loaded() {
		t.Error("the Chinese model is ready but its dictionary is not loaded")
	}
}

// FuzzRequest sends arbitrary methods, paths and bodies to every endpoint:
// nothing panics, and every API answer is JSON.
func FuzzRequest(f *testing.F) {
	for _, c := range [][3]string{
		{"GET", "/v1/models", ""}, {"GET", "/v1/models/spam?top=3", ""}, {"GET", "/v1/models/flowers", ""},
		{"POST", "/v1/models/spam/predict", `{"texts":["a"],"explain":2}`}, {"GET", "/readyz", ""},
		{"PUT", "/healthz", "x"}, {"GET", "/static/../../etc/passwd", ""}, {"GET", "/v1/models/spam?top=-1", ""},
	} {
		f.Add(c[0], c[1], c[2])
	}
	s, err := Static(Options{Log: quiet, MaxBody: 1 << 14, MaxBatch: 64, Token: ""},
		Named{Name: "spam", Text: train(f, spamTSV)}, Named{Name: "flowers", Table: flowers(f)})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method, path, body string) {
		req, err := http.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
		if err != nil || req.URL.Path == "" || !strings.HasPrefix(req.URL.Path, "/") {
			return // not a request a server could receive
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q: %d %s", method, path, rec.Code, rec.Body)
		}
		api := strings.HasPrefix(req.URL.Path, "/v1/") || req.URL.Path == "/healthz" || req.URL.Path == "/readyz"
		if api && method != "HEAD" && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %q: %d, not JSON: %q", method, path, rec.Code, rec.Body)
		}
	})
}

// watch runs s.Watch until the test ends, and fails the test on its error.
func watch(t *testing.T, s *Server) {
	ctx, cancel := context.WithCancel(context.Background())
	watched := make(chan error, 1)
	go func() { watched <- s.Watch(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-watched; err != nil {
			t.Error(err)
		}
	})
}
