package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	facade "github.com/textnb/textnb"
)

// killDoc is a document sent to learn, with a term no other has.
type killDoc struct{ label, text, mark string }

// TestLearnSurvivesKill learns through textnb serve --learn from several
// clients and kills the process with SIGKILL at random moments (during
// requests, syncs and compactions into the model file) again and again.
// Each restart serves every acknowledged update; at the end the model
// file equals the first one plus every acknowledged update and those of
// the unacknowledged ones that reached the journal (each whole or not at
// all), and no temporary or superseded file is left.
func TestLearnSurvivesKill(t *testing.T) {
	const kills = 22
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	// Raw counts: a batch is exactly its documents one by one, so the
	// model file can be compared with one that learned them in turn.
	mustRun(t, "", "train", spamTSV, "--weighting", "counts", "--model", "mnb", "-o", model)
	first, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("k1ll\n"), 0o600)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 35))
	t.Logf("seed %d", seed)

	var mu sync.Mutex
	var acked, unsure [][]killDoc // requests: answered 200, or not answered
	next := 0
	newDocs := func() []killDoc {
		mu.Lock()
		defer mu.Unlock()
		docs := make([]killDoc, 1+rng.IntN(3)/2*2) // 1 or 3 documents
		for i := range docs {
			next++
			mark := "uq" + strconv.FormatInt(int64(next), 36) + "z"
			docs[i] = killDoc{label: []string{"ham", "spam"}[next%2], mark: mark,
				text: fmt.Sprintf("kill test message %s with a few more words", mark)}
		}
		return docs
	}
	count := func(reqs [][]killDoc) (n int) {
		for _, r := range reqs {
			n += len(r)
		}
		return n
	}
	compactions := 0 // in the processes killed, just before their kill
	base := 0.0
	for _, c := range first.Classes {
		base += documents(t, first, c)
	}

	for round := 0; ; round++ {
		p := startServe(t, "--learn", "--token-file", tokenFile, "--compact-every", "50ms", "--compact-size", "2048", "m="+model)
		// Every update acknowledged before the kill is served at once.
		served := servedDocuments(t, p.url, "k1ll")
		mu.Lock()
		lo, hi := base+float64(count(acked)), base+float64(count(acked)+count(unsure))
		mu.Unlock()
		if served < lo || served > hi {
			t.Fatalf("round %d: %v documents served after the kill, want from %v (acknowledged) to %v", round, served, lo, hi)
		}
		if round == kills {
			p.cmd.Process.Signal(syscall.SIGTERM)
			if err := p.cmd.Wait(); err != nil {
				t.Fatalf("textnb serve after SIGTERM: %v", err)
			}
			break
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 6 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					docs := newDocs()
					ok, code := learnDocs(p.url, "k1ll", docs)
					if code != 0 && code != 200 {
						t.Errorf("learn: status %d", code)
					}
					mu.Lock()
					if ok {
						acked = append(acked, docs)
					} else {
						unsure = append(unsure, docs)
					}
					mu.Unlock()
					if !ok {
						return // killed
					}
				}
			})
		}
		mu.Lock()
		pause := time.Duration(20+rng.IntN(400)) * time.Millisecond
		mu.Unlock()
		time.Sleep(pause)
		compactions += servedCompactions(p.url, "k1ll")
		p.cmd.Process.Kill()
		p.cmd.Wait()
		close(stop)
		wg.Wait()
		// The model file is whole whenever the process dies.
		if _, err := loadPipeline(model); err != nil {
			t.Fatalf("round %d: the model file after the kill: %v", round, err)
		}
	}

	// The model file now holds everything: compare it with the first
	// model plus the acknowledged updates and the unacknowledged ones
	// that reached the journal (their terms are in the vocabulary).
	final, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	terms := map[string]bool{}
	for _, term := range final.Terms() {
		terms[term] = true
	}
	want := first
	lost := 0
	for _, req := range acked {
		for _, d := range req {
			if !terms[d.mark] {
				lost++
			}
			if err := want.Learn(d.label, d.text); err != nil {
				t.Fatal(err)
			}
		}
	}
	landed := 0
	for _, req := range unsure {
		in := 0
		for _, d := range req {
			if terms[d.mark] {
				in++
			}
		}
		if in != 0 && in != len(req) {
			t.Errorf("%d of the %d documents of one request reached the journal", in, len(req))
		}
		if in == len(req) {
			landed++
			for _, d := range req {
				want.Learn(d.label, d.text)
			}
		}
	}
	t.Logf("%d kills (the killed processes had compacted %d times): %d requests (%d documents) acknowledged, %d lost; %d unanswered, %d of them in the journal",
		kills, compactions, len(acked), count(acked), lost, len(unsure), landed)
	if lost != 0 || len(acked) < kills {
		t.Fatalf("%d acknowledged documents lost (%d requests acknowledged)", lost, len(acked))
	}
	for _, c := range final.Classes {
		if g, w := documents(t, final, c), documents(t, want, c); g != w {
			t.Errorf("class %s: %v documents in the model file, want %v", c, g, w)
		}
	}
	probes := []string{"free prize, call now", "are you coming to dinner", "kill test message with a few more words"}
	for _, req := range acked[:min(len(acked), 50)] {
		probes = append(probes, req[0].text)
	}
	gp, wp := final.NewPredictor(), want.NewPredictor()
	for _, text := range probes {
		g, _ := gp.Proba(nil, text)
		w, _ := wp.Proba(nil, text)
		for c := range g {
			if math.Abs(g[c]-w[c]) > 1e-9 {
				t.Fatalf("%q: the model file predicts %v, the first model plus the updates %v", text, g, w)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"m.model", "m.model.journal", "m.model.journal.lock", "token"}) {
		t.Errorf("files left beside the model: %v", names)
	}
}

// documents is the number of training documents of class c in m.
func documents(t *testing.T, m *facade.Pipeline, c string) float64 {
	t.Helper()
	info, err := m.Inspect(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ci := range info.Classes {
		if ci.Name == c {
			return ci.Documents
		}
	}
	t.Fatalf("no class %s", c)
	return 0
}

// servedDocuments is the number of training documents of the served model m.
func servedDocuments(t *testing.T, url, token string) float64 {
	t.Helper()
	req, _ := http.NewRequest("GET", url+"/v1/models/m", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var info facade.Info
	if err := json.NewDecoder(res.Body).Decode(&info); err != nil || res.StatusCode != 200 {
		t.Fatalf("GET /v1/models/m: %d %v", res.StatusCode, err)
	}
	n := 0.0
	for _, c := range info.Classes {
		n += c.Documents
	}
	return n
}

// servedCompactions reads how many times the server has compacted its
// journal into the model file, or 0.
func servedCompactions(url, token string) int {
	req, _ := http.NewRequest("GET", url+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, `textnb_journal_compactions_total{model="m"} `); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// learnDocs posts one learn request and reports whether it was
// acknowledged, with the status code if one came.
func learnDocs(url, token string, docs []killDoc) (bool, int) {
	type doc struct {
		Label string `json:"label"`
		Text  string `json:"text"`
	}
	var body struct {
		Documents []doc `json:"documents"`
	}
	for _, d := range docs {
		body.Documents = append(body.Documents, doc{d.label, d.text})
	}
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url+"/v1/models/m/learn", strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false, 0
	}
	res.Body.Close()
	return res.StatusCode == 200, res.StatusCode
}
