// Command servelearn measures textnb serve --learn: how many learn
// requests of one SMS message each it acknowledges per second (each in
// its fsync'ed journal before the answer), against predictions of the
// same messages, and whether every acknowledged update shows in the next
// prediction. Models are trained on 80% of the SMS Spam Collection; the
// other 20% are learned, with their labels. Every phase has a fixed
// duration; the load comes from keep-alive connections of this program.
//
//	go run ./benchmarks/servelearn [-conns 64] [-duration 10s] [-baseline OLD-TEXTNB]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
)

var (
	conns    = flag.Int("conns", 64, "concurrent keep-alive connections")
	duration = flag.Duration("duration", 10*time.Second, "length of each measured phase")
	baseline = flag.String("baseline", "", "also measure learning with this textnb `binary` (a previous build), alternating")
)

const token = "bench-token"

func main() {
	flag.Parse()
	log.SetFlags(0)
	docs, err := bench.ReadSMS()
	if err != nil {
		fmt.Printf("skipped: the SMS Spam Collection is not available (%v)\n", err)
		return
	}
	tmp, bin, cleanup := bench.Workdir("textnb-servelearn-")
	defer cleanup()
	cut := len(docs) * 8 / 10
	train, learn := docs[:cut], docs[cut:]
	tokenFile := filepath.Join(tmp, "token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("SMS Spam Collection: models trained on %d messages, %d others learned (mean %.0f bytes); %d connections, %v per phase\n",
		len(train), len(learn), meanLen(learn), *conns, *duration)
	fmt.Printf("load before: %s\n\n", bench.Loadavg())
	fmt.Println("| model | phase | requests/s | p50 | p99 | errors | documents per fsync | stale predictions |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	var ratios []string
	for _, mc := range []struct {
		name string
		cfg  pipeline.Config
	}{
		{"default (TF-IDF, chosen by cv)", pipeline.Config{}},
		{"raw counts, mnb", pipeline.Config{Weighting: pipeline.RawCounts, Classifier: pipeline.Multinomial}},
	} {
		model := filepath.Join(tmp, "sms.model")
		os.Remove(model + ".journal")
		if err := modelfile.Save(model, bench.TrainPipeline(train, mc.cfg)); err != nil {
			log.Fatal(err)
		}
		srv := bench.StartServer(bin, "serve", "--learn", "--token-file", tokenFile, "--addr", "127.0.0.1:0", "sms="+model)
		var old *bench.Server
		if *baseline != "" {
			dir := filepath.Join(tmp, "baseline")
			os.RemoveAll(dir)
			os.Mkdir(dir, 0o755)
			if err := modelfile.Save(filepath.Join(dir, "sms.model"), bench.TrainPipeline(train, mc.cfg)); err != nil {
				log.Fatal(err)
			}
			old = bench.StartServer(*baseline, "serve", "--learn", "--token-file", tokenFile, "--addr", "127.0.0.1:0", "sms="+filepath.Join(dir, "sms.model"))
		}
		for round := range 2 { // alternate, so that a busy spell hits both
			p := drive(srv, *conns, *duration, predictRequest(learn))
			p.print(mc.name, fmt.Sprintf("predict (round %d)", round+1), srv)
			l := drive(srv, *conns, *duration, learnRequest(learn))
			l.print(mc.name, fmt.Sprintf("learn (round %d)", round+1), srv)
			if old != nil {
				b := drive(old, *conns, *duration, learnRequest(learn))
				b.print(mc.name, fmt.Sprintf("learn, baseline build (round %d)", round+1), old)
				ratios = append(ratios, fmt.Sprintf("%s round %d against the baseline: %.2f", mc.name, round+1, l.rate()/b.rate()))
			}
			ratios = append(ratios, fmt.Sprintf("%s round %d: %.2f", mc.name, round+1, l.rate()/p.rate()))
		}
		c := drive(srv, *conns, *duration, checkedRequest(learn))
		c.print(mc.name, "predict, learn, predict: each learned text's own term", srv)
		srv.Stop()
		if old != nil {
			old.Stop()
		}
	}
	fmt.Printf("\nlearn / predict requests/s (and against the baseline): %s\n", strings.Join(ratios, "; "))
	fmt.Printf("load after: %s\n", bench.Loadavg())
}

func meanLen(docs []corpus.Document) float64 {
	n := 0
	for _, d := range docs {
		n += len(d.Text)
	}
	return float64(n) / float64(len(docs))
}

// A request is the work of one loop of a connection: it reports whether
// every answer was 200, and whether a check of what it read failed.
type request func(c *client, i int) (ok, stale bool)

func predictRequest(docs []corpus.Document) request {
	bodies := make([][]byte, len(docs))
	for i, d := range docs {
		bodies[i], _ = json.Marshal(map[string]string{"text": d.Text})
	}
	return func(c *client, i int) (bool, bool) {
		_, ok := c.post("/v1/models/sms/predict", bodies[i%len(bodies)])
		return ok, false
	}
}

func learnRequest(docs []corpus.Document) request {
	bodies := make([][]byte, len(docs))
	for i, d := range docs {
		bodies[i], _ = json.Marshal(map[string]string{"label": d.Label, "text": d.Text})
	}
	return func(c *client, i int) (bool, bool) {
		_, ok := c.post("/v1/models/sms/learn", bodies[i%len(bodies)])
		return ok, false
	}
}

// checkedRequest predicts a term no document has, learns a message with
// that term under the message's label, and predicts the term again: the
// label's probability must have risen (else the update was not seen).
func checkedRequest(docs []corpus.Document) request {
	var next atomic.Int64
	return func(c *client, i int) (bool, bool) {
		d := docs[i%len(docs)]
		mark := "zq" + strconv.FormatInt(next.Add(1), 36) + "x"
		probe, _ := json.Marshal(map[string]string{"text": mark})
		before, ok1 := c.post("/v1/models/sms/predict", probe)
		body, _ := json.Marshal(map[string]string{"label": d.Label, "text": d.Text + " " + mark})
		_, ok2 := c.post("/v1/models/sms/learn", body)
		after, ok3 := c.post("/v1/models/sms/predict", probe)
		if !ok1 || !ok2 || !ok3 {
			return false, false
		}
		return true, !(proba(after, d.Label) > proba(before, d.Label))
	}
}

func proba(answer []byte, label string) float64 {
	var a struct {
		Proba map[string]float64 `json:"proba"`
	}
	json.Unmarshal(answer, &a)
	return a.Proba[label]
}

type client struct {
	hc  *http.Client
	url string
	lat []time.Duration
}

func (c *client) post(path string, body []byte) ([]byte, bool) {
	req, _ := http.NewRequest("POST", c.url+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	res, err := c.hc.Do(req)
	if err != nil {
		return nil, false
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	c.lat = append(c.lat, time.Since(start))
	return b, err == nil && res.StatusCode == 200
}

type result struct {
	loops, errors, stale int
	lat                  []time.Duration
	elapsed              time.Duration
	docs, syncs          float64 // learned documents and journal syncs during the phase
}

func (r result) rate() float64 { return float64(r.loops) / r.elapsed.Seconds() }

func (r result) print(model, phase string, s *bench.Server) {
	slices.Sort(r.lat)
	q := func(p float64) string {
		if len(r.lat) == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f ms", float64(r.lat[int(p*float64(len(r.lat)-1))].Microseconds())/1000)
	}
	perSync := "-"
	if r.syncs > 0 {
		perSync = fmt.Sprintf("%.1f", r.docs/r.syncs)
	}
	fmt.Printf("| %s | %s | %.0f | %s | %s | %d | %s | %d |\n", model, phase, r.rate(), q(.5), q(.99), r.errors, perSync, r.stale)
}

// drive runs req on conns connections for d.
func drive(s *bench.Server, conns int, d time.Duration, req request) result {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	defer tr.CloseIdleConnections()
	docs0, syncs0 := metric(s, "textnb_learned_documents_total"), metric(s, "textnb_journal_syncs_total")
	var mu sync.Mutex
	var out result
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(d)
	for g := range conns {
		wg.Go(func() {
			c := &client{hc: &http.Client{Transport: tr}, url: "http://" + s.Addr}
			loops, errs, stale := 0, 0, 0
			for i := g; time.Now().Before(end); i += conns {
				ok, st := req(c, i)
				loops++
				if !ok {
					errs++
				}
				if st {
					stale++
				}
			}
			mu.Lock()
			out.loops += loops
			out.errors += errs
			out.stale += stale
			out.lat = append(out.lat, c.lat...)
			mu.Unlock()
		})
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	out.docs = metric(s, "textnb_learned_documents_total") - docs0
	out.syncs = metric(s, "textnb_journal_syncs_total") - syncs0
	return out
}

// metric sums the samples of a metric on the server's /metrics.
func metric(s *bench.Server, name string) float64 {
	req, _ := http.NewRequest("GET", "http://"+s.Addr+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	re := regexp.MustCompile(`(?m)^` + name + `(\{[^}]*\})? ([0-9.e+]+)$`)
	sum := 0.0
	for _, m := range re.FindAllSubmatch(b, -1) {
		v, _ := strconv.ParseFloat(string(m[2]), 64)
		sum += v
	}
	return sum
}
