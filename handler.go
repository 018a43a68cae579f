package textnb

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/textnb/textnb/internal/serve"
)

// Served is a model and the name the HTTP API serves it under: the {name}
// of POST /v1/models/{name}/predict. Names are letters, digits, '.', '-'
// and '_'. Give Model, a model in memory, which never reloads, or Path, a
// model file of any kind, which Server.Load reads and Server.Reload (or
// ServeOptions.Watch) reads again.
type Served struct {
	Name  string
	Model Classifier // a *Model, *Table or *MultiLabel
	Path  string
}

// ServeOptions configure a Server, as the flags of textnb serve do. The
// zero value serves every request without a token, with the default
// limits, the metrics and the web page, logs to slog.Default, neither
// watches the model files nor learns.
type ServeOptions struct {
	// Token, if not empty, is the bearer token that every request but the
	// health checks and the page's files must carry.
	Token string
	// MaxBody bounds a request body in bytes; 0 means 4 MiB.
	MaxBody int64
	// MaxBatch bounds the texts or rows of one request; 0 means 1024.
	MaxBatch int
	// Watch reloads a model served from a file when the file is written
	// or replaced, from Load until Close.
	Watch bool
	// Learn turns on POST /v1/models/{name}/learn and /unlearn for the
	// text models served from files, each with a journal beside its file
	// (PATH.journal) that is written into the file every CompactEvery (0:
	// 5 minutes), once it has CompactBytes (0: 64 MiB), and on Close.
	// Learning needs a Token, and every model from a file.
	Learn        bool
	CompactEvery time.Duration
	CompactBytes int64
	// NoPage leaves out the web page (GET / and /static/), NoMetrics the
	// Prometheus metrics (GET /metrics): they answer 404, for a program
	// that has its own.
	NoPage, NoMetrics bool
	// Log receives load, reload and failure messages; nil means
	// slog.Default().
	Log *slog.Logger
}

// A Server answers the HTTP JSON API of textnb serve (docs/serve.md) for a
// fixed set of named models: predict, the model list and descriptions,
// learning, health checks, metrics and the web page. It is an
// http.Handler to mount in a program's own server.
type Server struct {
	s     *serve.Server
	log   *slog.Logger
	watch bool

	watchOnce sync.Once
	stop      context.CancelFunc // of the watch; nil until it starts
	watched   chan struct{}      // closed when the watch ends
}

// NewServer returns a Server for models. Those in memory serve at once;
// those from files serve once Load has read them, and until then /readyz
// answers 503 (and /healthz 200), so that the Server can listen while it
// loads. The error is of a name invalid or given twice, a Served with
// both or neither Model and Path, or Learn without a Token or with a
// model in memory.
func NewServer(opt ServeOptions, models ...Served) (*Server, error) {
	var specs []serve.Spec
	var named []serve.Named
	for _, s := range models {
		if (s.Model == nil) == (s.Path == "") {
			return nil, fmt.Errorf("textnb: model %q: give a Model or a Path", s.Name)
		}
		if s.Path != "" {
			specs = append(specs, serve.Spec{Name: s.Name, Path: s.Path})
			continue
		}
		n := serve.Named{Name: s.Name}
		switch m := s.Model.(type) {
		case *Model:
			n.Text = m.m
		case *Table:
			n.Table = m.t
		case *MultiLabel:
			n.Multi = m.m
		default:
			return nil, fmt.Errorf("textnb: model %q is a %T, not a *Model, *Table or *MultiLabel", s.Name, s.Model)
		}
		named = append(named, n)
	}
	log := opt.Log
	if log == nil {
		log = slog.Default()
	}
	s, err := serve.Build(serve.Options{Token: opt.Token, MaxBody: opt.MaxBody, MaxBatch: opt.MaxBatch, Log: log,
		Learn: opt.Learn, CompactEvery: opt.CompactEvery, CompactBytes: opt.CompactBytes,
		NoPage: opt.NoPage, NoMetrics: opt.NoMetrics}, specs, named)
	if err != nil {
		return nil, err
	}
	return &Server{s: s, log: log, watch: opt.Watch}, nil
}

// ServeHTTP answers a request of the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.s.ServeHTTP(w, r) }

// Load reads every model file, all at once, warms each and marks the
// Server ready; with Watch it starts watching the files. It returns the
// first error; the models that loaded serve.
func (s *Server) Load() error {
	if err := s.s.Load(); err != nil {
		return err
	}
	if s.watch {
		s.watchOnce.Do(func() {
			ctx, stop := context.WithCancel(context.Background())
			s.stop, s.watched = stop, make(chan struct{})
			go func() {
				defer close(s.watched)
				if err := s.s.Watch(ctx); err != nil {
					s.log.Error("cannot watch the model files; Reload (textnb serve: SIGHUP) still reloads them", "err", err)
				}
			}()
		})
	}
	return nil
}

// Reload reads every model file again beside the version being served
// and swaps it in; requests under way finish on the old version. If a
// file fails to load, its old version keeps serving, and the failure shows
// in the error, the log, /readyz and the metrics.
func (s *Server) Reload() error { return s.s.Reload() }

// Close stops watching the model files and writes the journals of the
// models that learned into their files. Call it after the http.Server
// that serves s has shut down.
func (s *Server) Close() error {
	s.watchOnce.Do(func() {}) // no watch starts after Close
	if s.stop != nil {
		s.stop()
		<-s.watched
	}
	return s.s.Close()
}

// Handler returns a ready Server for models in memory with the default
// ServeOptions, as an http.Handler: the models do not reload, and the
// handler checks no token (NewServer takes options and model files).
// Like http.ServeMux.Handle, it panics on a name that is invalid or given
// twice, or on a Served without a Model or with a Path.
func Handler(models ...Served) http.Handler {
	for _, m := range models {
		if m.Path != "" || m.Model == nil {
			panic(fmt.Sprintf("textnb: Handler: model %q: give a Model (NewServer serves model files)", m.Name))
		}
	}
	s, err := NewServer(ServeOptions{}, models...)
	if err == nil {
		err = s.Load() // marks it ready: no files to read
	}
	if err != nil {
		panic("textnb: Handler: " + err.Error())
	}
	return s
}
