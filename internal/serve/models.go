package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/textnb/textnb/internal/anymodel"
	"github.com/textnb/textnb/pipeline"
	"github.com/textnb/textnb/table"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/tokenize/zh"
)

// ErrSpec: a model argument is not PATH or NAME=PATH with a usable name.
var ErrSpec = errors.New("serve: bad model argument")

// Spec names a model file to serve.
type Spec struct {
	Name string // the {name} of the URLs
	Path string
}

// ParseSpec reads PATH or NAME=PATH. Without a name the file's base name
// less its extension is the name. Names are letters, digits, '.', '-' and
// '_', so they need no escaping in a URL or a metric label.
func ParseSpec(arg string) (Spec, error) {
	name, path, ok := strings.Cut(arg, "=")
	if !ok {
		path = arg
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if path == "" {
		return Spec{}, fmt.Errorf("%w: %q has no path", ErrSpec, arg)
	}
	if err := checkName(name); err != nil {
		return Spec{}, fmt.Errorf("%w: %q: %v", ErrSpec, arg, err)
	}
	return Spec{Name: name, Path: path}, nil
}

func checkName(name string) error {
	if name == "" || len(name) > 128 {
		return errors.New("a model name has 1 to 128 characters")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_') {
			return fmt.Errorf("model name %q: use only letters, digits, '.', '-' and '_'", name)
		}
	}
	return nil
}

// A model is one loaded version of a served model. It never changes once
// published: a reload publishes a new one, and requests that hold the old
// one finish on it.
type model struct {
	name       string
	generation uint64
	text       *pipeline.Model // one of text and table is set
	table      *table.Table
	classes    []string
	classJSON  [][]byte  // the class names as JSON strings
	assumed    []float64 // the priors the probabilities assume
	loadTime   time.Duration
	loadedAt   time.Time
	preds      *predictors          // text models
	predicted  []prometheus.Counter // per class
	// info is what GET /v1/models/{name} shows, made on first use
	info func() (pipeline.Info, error)
}

func newModel(name string, text *pipeline.Model, table *table.Table) *model {
	m := &model{name: name, text: text, table: table}
	if text != nil {
		m.classes, m.assumed = text.Classes, text.PosteriorPriors()
		m.preds = newPredictors(text)
	} else {
		m.classes, m.assumed = table.Classes, table.TrainingPriors()
	}
	for _, c := range m.classes {
		b, _ := json.Marshal(c)
		m.classJSON = append(m.classJSON, b)
	}
	m.info = sync.OnceValues(func() (pipeline.Info, error) { return inspect(m, defaultInfoTerms) })
	return m
}

// warm makes the first request as fast as the next: a Chinese model's
// segmenter loads its dictionary (seconds) before the model is served, not
// on the first Han text, and the pool gets its first Predictor.
func (m *model) warm() error {
	if m.text == nil {
		return nil
	}
	text := "warm up"
	if m.text.Config.Tokenize.Lang == tokenize.Chinese {
		if err := zh.Default().Load(); err != nil {
			return err
		}
		text = "预热模型的中文分词词典"
	}
	p, err := m.preds.get(context.Background()) // a new pool: does not wait
	if err != nil {
		return err
	}
	p.Proba(nil, text)
	m.preds.put(p)
	return nil
}

// predictors is a bounded pool of a text model's Predictors: predicting is
// CPU work, so more than a few per core only cost memory (each holds a
// tokenize.Worker), and a request waits for one instead.
type predictors struct {
	m    *pipeline.Model
	free chan *pipeline.Predictor
	made atomic.Int32
}

func newPredictors(m *pipeline.Model) *predictors {
	return &predictors{m: m, free: make(chan *pipeline.Predictor, 4*runtime.GOMAXPROCS(0))}
}

func (ps *predictors) get(ctx context.Context) (*pipeline.Predictor, error) {
	select {
	case p := <-ps.free:
		return p, nil
	default:
	}
	if ps.made.Add(1) <= int32(cap(ps.free)) {
		return ps.m.NewPredictor(), nil
	}
	ps.made.Add(-1)
	select {
	case p := <-ps.free:
		return p, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put returns p; it never blocks, as at most cap(free) Predictors exist.
func (ps *predictors) put(p *pipeline.Predictor) { ps.free <- p }

// A slot is a served name: the model file it comes from and the version
// being served.
type slot struct {
	name, path string // path is "" for a model given in memory
	cur        atomic.Pointer[model]
	loadMu     sync.Mutex // one load at a time
	generation uint64     // under loadMu
	failure    atomic.Pointer[loadFailure]
}

type loadFailure struct {
	err  string
	when time.Time
}

// load reads the slot's file beside the model being served, warms it and
// publishes it. On failure the old model keeps serving.
func (s *slot) load(met *metrics) (*model, error) {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	start := time.Now()
	text, table, err := anymodel.Open(s.path)
	var m *model
	if err == nil {
		m = newModel(s.name, text, table)
		err = m.warm()
	}
	if err != nil {
		s.failure.Store(&loadFailure{err: err.Error(), when: time.Now()})
		met.loadFailed(s.name)
		return nil, err
	}
	s.generation++
	m.generation = s.generation
	m.loadTime = time.Since(start)
	m.loadedAt = time.Now()
	met.loaded(m)
	s.cur.Store(m)
	s.failure.Store(nil)
	return m, nil
}
