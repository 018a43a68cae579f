package serve

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/table"
	"github.com/textnb/textnb/internal/tally"
)

// Defaults of Options.
const (
	DefaultMaxBody  = 4 << 20
	DefaultMaxBatch = 1024
)

// Options configure a Server. The zero value is usable: no token, the
// default limits, logging to slog.Default.
type Options struct {
	// Token, if not empty, is the bearer token that every request but the
	// health checks and the page's files must carry.
	Token string
	// MaxBody bounds a request body in bytes; 0 means DefaultMaxBody.
	MaxBody int64
	// MaxBatch bounds the documents or rows of one request; 0 means
	// DefaultMaxBatch.
	MaxBatch int
	// Log receives load, reload and failure messages; nil means
	// slog.Default().
	Log *slog.Logger
	// Learn turns on POST /v1/models/{name}/learn and /unlearn for text
	// models, each with a journal beside its file (PATH.journal). It
	// needs a Token, even on loopback (ErrNoToken).
	Learn bool
	// CompactEvery is how often a learning model's journal is written
	// into its model file; 0 means DefaultCompactEvery.
	CompactEvery time.Duration
	// CompactBytes also compacts a journal once it is this large; 0 means
	// DefaultCompactBytes.
	CompactBytes int64
	// NoPage leaves out the web page (/ and /static/), and NoMetrics
	// GET /metrics: they answer 404, for a program that mounts the API
	// beside a page or metrics of its own.
	NoPage, NoMetrics bool
}

// A Server answers the HTTP API for a fixed set of named models, which it
// can reload from their files while serving.
type Server struct {
	opt   Options
	slots map[string]*slot
	names []string // sorted
	met   *metrics
	mux   *http.ServeMux
	ready atomic.Bool

	stopCompactor chan struct{} // nil unless learning
	startOnce     sync.Once
	closeOnce     sync.Once
	closed        atomic.Bool
	closeErr      error
}

// New returns a Server for the model files of specs, none loaded yet: call
// Load before it can predict. /readyz answers 503 until Load has succeeded.
func New(opt Options, specs ...Spec) (*Server, error) { return Build(opt, specs, nil) }

// Static returns a ready Server for models already in memory, warmed as
// Load warms them; exactly one of Text, Table and Multi of each is set. It
// cannot reload them.
func Static(opt Options, models ...Named) (*Server, error) {
	if opt.Learn {
		return nil, fmt.Errorf("%w: models in memory have no file for a journal: learning needs textnb serve", ErrSpec)
	}
	s, err := Build(opt, nil, models)
	if err != nil {
		return nil, err
	}
	s.ready.Store(true)
	return s, nil
}

// Build returns a Server for the model files of specs, none loaded yet,
// and for the models in memory of named, warmed and served at once but
// never reloaded. Load loads the files; /readyz answers 503 until it has
// succeeded. A learning Server takes files only: a journal lives beside
// its model's file.
func Build(opt Options, specs []Spec, named []Named) (*Server, error) {
	if opt.Learn && opt.Token == "" {
		return nil, ErrNoToken
	}
	if opt.Learn && len(named) > 0 {
		return nil, fmt.Errorf("%w: model %q is in memory, with no file for a journal: a learning server takes model files", ErrSpec, named[0].Name)
	}
	s := newServer(opt)
	for _, sp := range specs {
		if err := checkName(sp.Name); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrSpec, err)
		}
		if err := s.add(&slot{name: sp.Name, path: sp.Path}); err != nil {
			return nil, err
		}
	}
	for _, n := range named {
		if err := checkName(n.Name); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrSpec, err)
		}
		if given := tally.BoolInt(n.Text != nil) + tally.BoolInt(n.Table != nil) + tally.BoolInt(n.Multi != nil); given != 1 {
			return nil, fmt.Errorf("%w: model %q: give one text, table or multi-label model", ErrSpec, n.Name)
		}
		sl := &slot{name: n.Name}
		if err := s.add(sl); err != nil {
			return nil, err
		}
		m := newModel(n.Name, Any{Text: n.Text, Table: n.Table, Multi: n.Multi})
		if err := m.warm(); err != nil {
			return nil, err
		}
		m.generation, m.loadedAt = 1, time.Now()
		s.met.loaded(m)
		sl.cur.Store(m)
	}
	return s, nil
}

// Named is a model in memory with the name it is served under.
type Named struct {
	Name  string
	Text  *pipeline.Model
	Table *table.Table
	Multi *multilabel.Model
}

func newServer(opt Options) *Server {
	if opt.MaxBody <= 0 {
		opt.MaxBody = DefaultMaxBody
	}
	if opt.MaxBatch <= 0 {
		opt.MaxBatch = DefaultMaxBatch
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	if opt.CompactEvery <= 0 {
		opt.CompactEvery = DefaultCompactEvery
	}
	if opt.CompactBytes <= 0 {
		opt.CompactBytes = DefaultCompactBytes
	}
	s := &Server{opt: opt, slots: map[string]*slot{}, met: newMetrics(), mux: http.NewServeMux()}
	if opt.Learn {
		s.met.reg.MustRegister(newJournalCollector(s))
	}
	s.routes()
	return s
}

func (s *Server) add(sl *slot) error {
	if _, dup := s.slots[sl.name]; dup {
		return fmt.Errorf("%w: two models named %q", ErrSpec, sl.name)
	}
	s.slots[sl.name] = sl
	s.names = append(s.names, sl.name)
	sort.Strings(s.names)
	return nil
}

// Load loads every model file, all at once, warms each and marks the
// Server ready. It returns the first error; models that loaded serve.
func (s *Server) Load() error {
	var wg sync.WaitGroup
	errs := make([]error, len(s.names))
	for i, name := range s.names {
		wg.Go(func() { errs[i] = s.reload(s.slots[name]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if s.opt.Learn {
		s.startOnce.Do(func() {
			s.stopCompactor = make(chan struct{})
			go s.compactor(s.stopCompactor)
		})
	}
	s.ready.Store(true)
	return nil
}

// Reload reloads every model file; see ReloadModel.
func (s *Server) Reload() error {
	var errs []error
	for _, name := range s.names {
		errs = append(errs, s.reload(s.slots[name]))
	}
	return errors.Join(errs...)
}

// ReloadModel loads the named model's file again beside the version being
// served and swaps it in; requests under way finish on the old version.
// If the load fails, the old version keeps serving and the failure shows
// in the log, /readyz and the textnb_model_load_error metric.
func (s *Server) ReloadModel(name string) error {
	sl, ok := s.slots[name]
	if !ok {
		return fmt.Errorf("%w: no model named %q", ErrSpec, name)
	}
	return s.reload(sl)
}

func (s *Server) reload(sl *slot) error {
	if sl.path == "" || s.closed.Load() {
		return nil
	}
	prev := sl.cur.Load()
	m, err := sl.load(s)
	if err != nil {
		s.opt.Log.Error("model load failed; the previous version keeps serving", "model", sl.name, "path", sl.path, "err", err)
		return err
	}
	if m == prev {
		s.opt.Log.Debug("model file unchanged: the journal's own", "model", sl.name, "path", sl.path)
		return nil
	}
	s.opt.Log.Info("model loaded", "model", sl.name, "path", sl.path, "generation", m.generation,
		"classes", len(m.classes), "seconds", m.loadTime.Seconds())
	return nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// routes registers the handlers. Patterns carry no method, so that a wrong
// method gets a JSON 405 from allow rather than the mux's plain text.
func (s *Server) routes() {
	s.handle("/v1/models/{name}/predict", "predict", true, allow(http.MethodPost, s.predict))
	s.handle("/v1/models/{name}/learn", "learn", true, allow(http.MethodPost, s.learn))
	s.handle("/v1/models/{name}/unlearn", "unlearn", true, allow(http.MethodPost, s.unlearn))
	s.handle("/v1/models/{name}", "model", true, allow(http.MethodGet, s.modelInfo))
	s.handle("/v1/models", "models", true, allow(http.MethodGet, s.models))
	s.handle("/healthz", "healthz", false, allow(http.MethodGet, s.healthz))
	s.handle("/readyz", "readyz", false, allow(http.MethodGet, s.readyz))
	if !s.opt.NoMetrics {
		prom := promhttp.HandlerFor(s.met.reg, promhttp.HandlerOpts{})
		s.handle("/metrics", "metrics", true, allow(http.MethodGet, prom.ServeHTTP))
	}
	if !s.opt.NoPage {
		s.handle("/{$}", "page", false, allow(http.MethodGet, s.page))
		s.handle("/static/", "page", false, allow(http.MethodGet, s.page))
	}
	s.handle("/", "notfound", false, func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.URL.Path)
	})
}

// handle wraps h with the token check, panic recovery and metrics.
func (s *Server) handle(pattern, name string, auth bool, h http.HandlerFunc) {
	latency := s.met.latency.WithLabelValues(name)
	codes := s.met.requests.MustCurryWith(map[string]string{"handler": name})
	want := []byte("Bearer " + s.opt.Token)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.opt.Log.Error("panic serving request", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				if sw.code == 0 {
					writeError(sw, http.StatusInternalServerError, "internal error")
				}
			}
			if sw.code == 0 {
				sw.code = http.StatusOK
			}
			codes.WithLabelValues(strconv.Itoa(sw.code)).Inc()
			latency.Observe(time.Since(start).Seconds())
		}()
		if auth && s.opt.Token != "" && subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			sw.Header().Set("WWW-Authenticate", `Bearer realm="textnb"`)
			writeError(sw, http.StatusUnauthorized, "missing or wrong bearer token")
			return
		}
		h(sw, r)
	})
}

// allow answers 405 to other methods than method (and HEAD for GET).
func allow(method string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method && !(method == http.MethodGet && r.Method == http.MethodHead) {
			w.Header().Set("Allow", method)
			writeError(w, http.StatusMethodNotAllowed, "use "+method+" here, not "+r.Method)
			return
		}
		h(w, r)
	}
}

// statusWriter remembers the status code, for the metrics.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 once every model has loaded, with the state of each:
// a failed reload is listed, but the model still serves its old version.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	type state struct {
		Generation uint64 `json:"generation"`
		Error      string `json:"error,omitempty"`
		FailedAt   string `json:"failed_at,omitempty"`
	}
	out := struct {
		Ready  bool             `json:"ready"`
		Models map[string]state `json:"models"`
	}{Ready: s.ready.Load(), Models: map[string]state{}}
	for _, name := range s.names {
		sl := s.slots[name]
		var st state
		if m := sl.cur.Load(); m != nil {
			st.Generation = m.generation
		}
		if f := sl.failure.Load(); f != nil {
			st.Error, st.FailedAt = f.err, f.when.UTC().Format(time.RFC3339)
		}
		out.Models[name] = st
	}
	code := http.StatusOK
	if !out.Ready {
		code = http.StatusServiceUnavailable
	}
	writeJSON(w, code, out)
}

// served returns the model the request names, or answers 404 or 503.
func (s *Server) served(w http.ResponseWriter, r *http.Request) *model {
	name := r.PathValue("name")
	sl, ok := s.slots[name]
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no model named %q (GET /v1/models lists them)", name))
		return nil
	}
	m := sl.cur.Load()
	if m == nil {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("model %q is not loaded yet", name))
	}
	return m
}
