package textnb_test

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/textnb/textnb"
)

// copyModel copies testdata/models/NAME.model into dir and returns its
// path there.
func copyModel(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/models/" + name + ".model")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".model")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// call sends a request to the server at url with the bearer token tok
// (none if ""), and returns the status and the body.
func call(t *testing.T, method, url, tok, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

// answer is a predict response of a text model.
type answer struct {
	Generation int                `json:"generation"`
	Label      string             `json:"label"`
	Proba      map[string]float64 `json:"proba"`
}

func decodeAnswer(t *testing.T, body string) answer {
	t.Helper()
	var a answer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return a
}

// agrees reports whether the server's answer is p, to the bit.
func agrees(a answer, p textnb.Prediction) bool {
	if a.Label != p.Label || len(a.Proba) != len(p.Proba) {
		return false
	}
	for _, c := range p.Proba {
		if a.Proba[c.Label] != c.Prob {
			return false
		}
	}
	return true
}

// NewServer serves model files with textnb serve's options: a token,
// limits, no page, watching the files, and learning with a journal that
// Close writes into the model file.
func TestServerOptions(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := t.TempDir()
	news, multi := copyModel(t, dir, "news-v2"), copyModel(t, dir, "multilabel-v3")
	const tok = "s3cret"
	srv, err := textnb.NewServer(textnb.ServeOptions{Token: tok, MaxBatch: 2, Watch: true, Learn: true, NoPage: true, Log: quiet},
		textnb.Served{Name: "news", Path: news}, textnb.Served{Name: "multi", Path: multi})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	if code, body := call(t, "GET", hs.URL+"/readyz", "", ""); code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz before Load: %d %s", code, body)
	}
	if code, _ := call(t, "GET", hs.URL+"/healthz", "", ""); code != http.StatusOK {
		t.Fatalf("/healthz before Load: %d", code)
	}
	if err := srv.Load(); err != nil {
		t.Fatal(err)
	}
	if code, body := call(t, "GET", hs.URL+"/readyz", "", ""); code != http.StatusOK {
		t.Fatalf("/readyz after Load: %d %s", code, body)
	}

	// The token, the batch limit, no page; the metrics.
	predict := hs.URL + "/v1/models/news/predict"
	doc := "the referee stopped the match for rain"
	if code, _ := call(t, "POST", predict, "", `{"text": "a goal"}`); code != http.StatusUnauthorized {
		t.Errorf("predict without the token: %d, want 401", code)
	}
	if code, body := call(t, "POST", predict, tok, `{"texts": ["a", "b", "c"]}`); code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "limit of 2") {
		t.Errorf("a batch over MaxBatch: %d %s, want 413", code, body)
	}
	if code, _ := call(t, "GET", hs.URL+"/", "", ""); code != http.StatusNotFound {
		t.Errorf("GET / with NoPage: %d, want 404", code)
	}
	if code, body := call(t, "GET", hs.URL+"/metrics", tok, ""); code != http.StatusOK || !strings.Contains(body, `textnb_model_generation{model="news"} 1`) {
		t.Errorf("GET /metrics: %d, want 200 with the models' generations", code)
	}
	local, err := textnb.Open(news)
	if err != nil {
		t.Fatal(err)
	}
	code, body := call(t, "POST", predict, tok, `{"text": "`+doc+`"}`)
	before, _ := local.PredictInput(textnb.Input{Text: doc})
	if code != http.StatusOK || !agrees(decodeAnswer(t, body), before) {
		t.Fatalf("predict: %d %s; want %+v", code, body, before)
	}

	// Learning: the server learns as the model in memory does.
	for range 3 {
		if code, body := call(t, "POST", hs.URL+"/v1/models/news/learn", tok, `{"label": "food", "text": "`+doc+`"}`); code != http.StatusOK {
			t.Fatalf("learn: %d %s", code, body)
		}
		if err := local.Learn("food", doc); err != nil {
			t.Fatal(err)
		}
	}
	learned, _ := local.PredictInput(textnb.Input{Text: doc})
	if _, body := call(t, "POST", predict, tok, `{"text": "`+doc+`"}`); !agrees(decodeAnswer(t, body), learned) || agrees(decodeAnswer(t, body), before) {
		t.Fatalf("predict after learning: %s; want %+v", body, learned)
	}
	if code, body := call(t, "POST", hs.URL+"/v1/models/multi/learn", tok, `{"label": "sport", "text": "a goal"}`); code != http.StatusBadRequest || !strings.Contains(body, "only text models learn") {
		t.Errorf("learn into a multi-label model: %d %s", code, body)
	}

	// Watching: a multi-label model file replaced is served at once.
	b, err := os.ReadFile("testdata/models/multilabel-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "new.tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, multi); err != nil {
		t.Fatal(err)
	}
	v2, err := textnb.Open(multi)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := v2.PredictInput(textnb.Input{Text: "shares of the chip maker rose"})
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, body := call(t, "POST", hs.URL+"/v1/models/multi/predict", tok, `{"text": "shares of the chip maker rose"}`)
		var got struct {
			Generation int                `json:"generation"`
			Proba      map[string]float64 `json:"proba"`
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil {
			t.Fatal(err)
		}
		if got.Generation == 2 {
			for _, c := range want.Proba {
				if got.Proba[c.Label] != c.Prob {
					t.Fatalf("the reloaded model predicts %s, want %+v", body, want)
				}
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the replaced model file was not reloaded")
		}
	}

	// Close writes the journal into the model file, which then predicts as
	// the model that learned.
	hs.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	compacted, err := textnb.Open(news)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := compacted.PredictInput(textnb.Input{Text: doc}); !reflect.DeepEqual(p, learned) {
		t.Fatalf("the model file after Close predicts %+v, want %+v", p, learned)
	}
}

// NewServer refuses what it cannot serve, and serves the page and refuses
// the metrics as told.
func TestServerRefusals(t *testing.T) {
	m, err := textnb.Open("testdata/models/news-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		opt    textnb.ServeOptions
		models []textnb.Served
		want   string
	}{
		"neither":         {textnb.ServeOptions{}, []textnb.Served{{Name: "m"}}, "give a Model or a Path"},
		"both":            {textnb.ServeOptions{}, []textnb.Served{{Name: "m", Model: m, Path: "m.model"}}, "give a Model or a Path"},
		"learn no token":  {textnb.ServeOptions{Learn: true}, []textnb.Served{{Name: "m", Path: "m.model"}}, "needs a bearer token"},
		"learn in memory": {textnb.ServeOptions{Learn: true, Token: "t"}, []textnb.Served{{Name: "m", Model: m}}, "in memory"},
		"bad name":        {textnb.ServeOptions{}, []textnb.Served{{Name: "a b", Model: m}}, "use only letters"},
		"twice":           {textnb.ServeOptions{}, []textnb.Served{{Name: "m", Model: m}, {Name: "m", Path: "m.model"}}, `two models named "m"`},
		"foreign":         {textnb.ServeOptions{}, []textnb.Served{{Name: "m", Model: foreign{m}}}, "not a *Model, *Table or *MultiLabel"},
	} {
		if _, err := textnb.NewServer(c.opt, c.models...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: NewServer: %v, want %q", name, err, c.want)
		}
	}
	srv, err := textnb.NewServer(textnb.ServeOptions{NoMetrics: true}, textnb.Served{Name: "news", Model: m}, textnb.Served{Name: "gone", Path: filepath.Join(t.TempDir(), "missing.model")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.Load(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Load of a missing file: %v", err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	if code, _ := call(t, "GET", hs.URL+"/metrics", "", ""); code != http.StatusNotFound {
		t.Errorf("GET /metrics with NoMetrics: %d, want 404", code)
	}
	if code, body := call(t, "GET", hs.URL+"/", "", ""); code != http.StatusOK || !strings.Contains(body, "<html") {
		t.Errorf("GET /: %d, want the page", code)
	}
	// The model in memory serves though the file failed.
	if code, body := call(t, "POST", hs.URL+"/v1/models/news/predict", "", `{"text": "a late goal"}`); code != http.StatusOK || !strings.Contains(body, `"label":"sport"`) {
		t.Errorf("predict: %d %s", code, body)
	}
}

// foreign is a Classifier of another package's making.
type foreign struct{ textnb.Classifier }
