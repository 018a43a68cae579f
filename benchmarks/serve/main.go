// Command serve measures textnb serve under load: requests per second,
// latency percentiles, errors and the server's peak memory, for single
// SMS messages and batches of 256, against a handler that does no work
// (decode the JSON, answer a constant) served the same way, and during
// reloads; then the server's memory over a longer run and how fast a
// Chinese model answers its first request. The load comes from keep-alive
// connections driven by this program; every phase has a fixed duration.
//
//	go run ./benchmarks/serve [-conns 64] [-duration 10s] [-rss 60s]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
)

var (
	conns    = flag.Int("conns", 64, "concurrent keep-alive connections")
	duration = flag.Duration("duration", 10*time.Second, "length of each measured phase")
	rssRun   = flag.Duration("rss", 60*time.Second, "length of the run that samples the server's memory (0: skip)")
	noZH     = flag.Bool("no-zh", false, "skip the Chinese cold-start check")
	noop     = flag.String("noop", "", "internal: serve the no-op handler on this address")
)

func main() {
	flag.Parse()
	log.SetFlags(0)
	if *noop != "" {
		serveNoop(*noop)
		return
	}
	docs, err := bench.ReadSMS()
	if err != nil {
		fmt.Printf("skipped: the SMS Spam Collection is not available (%v)\n", err)
		return
	}
	tmp, bin, cleanup := bench.Workdir("textnb-serve-")
	defer cleanup()
	model := filepath.Join(tmp, "sms.model")
	start := time.Now()
	if err := modelfile.Save(model, bench.TrainPipeline(docs, pipeline.Config{})); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("SMS Spam Collection: %d messages, model trained in %.2f s; %d connections, %v per phase\n", len(docs), time.Since(start).Seconds(), *conns, *duration)
	fmt.Printf("load before: %s\n\n", bench.Loadavg())

	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text
	}
	single := requests(texts, 1, 2000)
	batch := requests(texts, 256, 40)

	srv := bench.StartServer(bin, "serve", "--addr", "127.0.0.1:0", "sms="+model)
	defer srv.Stop()
	self, err := os.Executable()
	if err != nil {
		log.Fatal(err)
	}
	nop := bench.StartServer(self, "-noop", "127.0.0.1:0")
	defer nop.Stop()

	fmt.Println("| phase | server | requests/s | documents/s | p50 | p99 | errors | server peak RSS |")
	fmt.Println("|---|---|---:|---:|---:|---:|---:|---:|")
	var ratios []float64
	for round := range 2 { // alternate, so that a busy spell hits both
		n := drive(nop, single, *conns, *duration, nil)
		n.print(fmt.Sprintf("single document (round %d)", round+1), "no-op", 1, nop)
		s := drive(srv, single, *conns, *duration, nil)
		s.print(fmt.Sprintf("single document (round %d)", round+1), "textnb", 1, srv)
		ratios = append(ratios, s.rate()/n.rate())
	}
	n := drive(nop, batch, *conns, *duration, nil)
	n.print("batch of 256", "no-op", 256, nop)
	b := drive(srv, batch, *conns, *duration, nil)
	b.print("batch of 256", "textnb", 256, srv)

	// Ten reloads under load: the model file is replaced by rename (the
	// server watches its folder) or the server gets SIGHUP, alternately.
	reloads := func() {
		m := bench.TrainPipeline(docs, pipeline.Config{})
		for i := range 10 {
			time.Sleep(*duration / 12)
			if i%2 == 0 {
				if err := modelfile.Save(model, m); err != nil {
					log.Fatal(err)
				}
			} else {
				srv.Cmd.Process.Signal(syscall.SIGHUP)
			}
		}
		time.Sleep(*duration / 12)
	}
	r := drive(srv, single, *conns, *duration, reloads)
	r.print("single document, 10 reloads", "textnb", 1, srv)
	fmt.Printf("\ntextnb / no-op requests/s, single documents: %s; model generation after the reloads: %d (want 11)\n",
		fmtRatios(ratios), generation(srv))

	if *rssRun > 0 {
		var samples []int64
		sample := func() {
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for end := time.Now().Add(*rssRun); time.Now().Before(end); <-tick.C {
				samples = append(samples, srv.RSS("VmRSS"))
			}
		}
		l := drive(srv, single, *conns, *rssRun, sample)
		l.print(fmt.Sprintf("single document, %v", *rssRun), "textnb", 1, srv)
		warm := samples[min(5, len(samples)-1):] // after the first 5 s
		lo, hi := slices.Min(warm), slices.Max(warm)
		med := slices.Sorted(slices.Values(warm))[len(warm)/2]
		fmt.Printf("server RSS over the run, after 5 s: min %s, median %s, max %s: %+.1f%% / %+.1f%% of the median\n",
			mib(lo), mib(med), mib(hi), 100*float64(lo-med)/float64(med), 100*float64(hi-med)/float64(med))
	}
	fmt.Printf("load after: %s\n", bench.Loadavg())
	if !*noZH {
		coldStart(tmp, bin)
	}
}

// requests builds up to n distinct predict requests of size texts each.
func requests(texts []string, size, n int) [][]byte {
	var out [][]byte
	for i := 0; len(out) < n && i < len(texts); i += size {
		var body []byte
		if size == 1 {
			body, _ = json.Marshal(map[string]string{"text": texts[i]})
		} else {
			body, _ = json.Marshal(map[string][]string{"texts": texts[i:min(i+size, len(texts))]})
		}
		req := fmt.Sprintf("POST /v1/models/sms/predict HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
		out = append(out, append([]byte(req), body...))
	}
	return out
}

// generation asks the server which version of the model it serves.
func generation(s *bench.Server) int {
	res, err := http.Get("http://" + s.Addr + "/v1/models/sms")
	if err != nil {
		return -1
	}
	defer res.Body.Close()
	var info struct{ Generation int }
	json.NewDecoder(res.Body).Decode(&info)
	return info.Generation
}

// result is one phase's load.
type result struct {
	elapsed   time.Duration
	latencies []time.Duration // of the answered requests (a sample if many)
	ok, errs  int
}

func (r result) rate() float64 { return float64(r.ok) / r.elapsed.Seconds() }

func (r result) print(phase, name string, docs int, s *bench.Server) {
	slices.Sort(r.latencies)
	pct := func(p float64) string {
		if len(r.latencies) == 0 {
			return "–"
		}
		return fmt.Sprintf("%.2f ms", float64(r.latencies[int(p*float64(len(r.latencies)-1))])/1e6)
	}
	fmt.Printf("| %s | %s | %.0f | %.0f | %s | %s | %d | %s |\n", phase, name, r.rate(), r.rate()*float64(docs),
		pct(0.50), pct(0.99), r.errs, mib(s.RSS("VmHWM")))
}

// maxSamples bounds the latencies kept per connection.
const maxSamples = 1 << 16

// drive sends reqs round-robin over conns keep-alive connections for d,
// running during alongside if it is not nil. An answer other than 200, or a
// broken connection, is an error; a broken connection is opened again.
func drive(s *bench.Server, reqs [][]byte, conns int, d time.Duration, during func()) result {
	var mu sync.Mutex
	var total result
	var wg sync.WaitGroup
	begin := time.Now()
	end := begin.Add(d)
	for i := range conns {
		wg.Go(func() {
			lat := make([]time.Duration, 0, maxSamples)
			ok, errs := 0, 0
			var c *client
			for k := i; time.Now().Before(end); k++ {
				if c == nil {
					var err error
					if c, err = dial(s.Addr); err != nil {
						errs++
						time.Sleep(10 * time.Millisecond)
						continue
					}
				}
				t0 := time.Now()
				code, err := c.roundTrip(reqs[k%len(reqs)])
				took := time.Since(t0)
				switch {
				case err != nil:
					errs++
					c.close()
					c = nil
				case code != 200:
					errs++
				default:
					ok++
					if len(lat) < maxSamples {
						lat = append(lat, took)
					} else {
						lat[k%maxSamples] = took
					}
				}
			}
			if c != nil {
				c.close()
			}
			mu.Lock()
			total.ok += ok
			total.errs += errs
			total.latencies = append(total.latencies, lat...)
			mu.Unlock()
		})
	}
	if during != nil {
		during()
	}
	wg.Wait()
	total.elapsed = time.Since(begin)
	return total
}

// client is a keep-alive HTTP/1.1 connection that sends prepared requests
// and reads answers with a Content-Length: lighter than net/http's client,
// so that the load generator takes less of the machine from the server.
type client struct {
	c net.Conn
	r *bufio.Reader
}

func dial(addr string) (*client, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &client{c: c, r: bufio.NewReaderSize(c, 64<<10)}, nil
}

func (c *client) close() { c.c.Close() }

var errResponse = errors.New("malformed response")

func (c *client) roundTrip(req []byte) (int, error) {
	c.c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.c.Write(req); err != nil {
		return 0, err
	}
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, errResponse
	}
	code, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, errResponse
	}
	length, closing := -1, false
	for {
		line, err = c.r.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(line) <= 2 {
			break
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			length, err = strconv.Atoi(string(value))
			if err != nil {
				return 0, errResponse
			}
		case bytes.EqualFold(name, []byte("Connection")) && bytes.EqualFold(value, []byte("close")):
			closing = true
		}
	}
	if length < 0 {
		return 0, errResponse
	}
	if _, err := c.r.Discard(length); err != nil {
		return 0, err
	}
	if closing {
		return code, io.EOF
	}
	return code, nil
}

// serveNoop serves the ceiling: the predict endpoint's shape (a POST whose
// JSON is decoded, a JSON answer of a prediction's size) without the work,
// with the server settings of textnb serve.
func serveNoop(addr string) {
	answer := []byte(`{"model":"sms","generation":1,"label":"ham","proba":{"ham":0.9950000000000001,"spam":0.004999999999999999}}` + "\n")
	type request struct {
		Text  *string  `json:"text"`
		Texts []string `json:"texts"`
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/models/{name}/predict", func(w http.ResponseWriter, r *http.Request) {
		var req request
		dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(answer)))
		w.Write(answer)
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("listening on http://%s\nready\n", ln.Addr())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
	log.Fatal(hs.Serve(ln))
}

// coldStart trains a ChnSentiCorp model and compares textnb predict on one
// review (a fresh process: dictionary and model load) with textnb serve:
// how long until it is ready, and its first and second answers.
func coldStart(tmp, bin string) {
	data := filepath.Join(bench.Shared(), "data", "chnsenticorp", "train.tsv")
	docs, err := corpus.ReadAll(data, corpus.Options{TextField: "text_a"})
	if err != nil {
		fmt.Printf("\nChinese cold start: skipped (%v)\n", err)
		return
	}
	model := filepath.Join(tmp, "zh.model")
	if err := modelfile.Save(model, bench.TrainPipeline(docs, pipeline.Config{})); err != nil {
		log.Fatal(err)
	}
	review := "房间很干净，服务也很周到，下次还会再来。"
	t0 := time.Now()
	cmd := exec.Command(bin, "predict", "-m", model, "-")
	cmd.Stdin = strings.NewReader(review + "\n")
	if out, err := cmd.Output(); err != nil {
		log.Fatalf("textnb predict: %v %s", err, out)
	}
	predict := time.Since(t0)

	t0 = time.Now()
	srv := bench.StartServer(bin, "serve", "--addr", "127.0.0.1:0", "zh="+model)
	defer srv.Stop()
	ready := time.Since(t0)
	body := []byte(`{"text":"` + review + `"}`)
	req := fmt.Appendf(nil, "POST /v1/models/zh/predict HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	c, err := dial(srv.Addr)
	if err != nil {
		log.Fatal(err)
	}
	defer c.close()
	var took [2]time.Duration
	for i := range took {
		t0 = time.Now()
		if code, err := c.roundTrip(req); err != nil || code != 200 {
			log.Fatalf("zh predict: %d %v", code, err)
		}
		took[i] = time.Since(t0)
	}
	fmt.Printf("\nChinese cold start (ChnSentiCorp model, %d reviews): textnb predict of one review %.2f s; "+
		"textnb serve ready after %.2f s, then its first request %.2f ms, its second %.2f ms; server peak RSS %s\n",
		len(docs), predict.Seconds(), ready.Seconds(), float64(took[0])/1e6, float64(took[1])/1e6, mib(srv.RSS("VmHWM")))
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func fmtRatios(r []float64) string {
	var s []string
	for _, v := range r {
		s = append(s, fmt.Sprintf("%.2f", v))
	}
	return strings.Join(s, ", ")
}
