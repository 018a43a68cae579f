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

	"github.com/textnb/textnb/internal/journal"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/table"
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
	text       *pipeline.Model // one of text, table and multi is set
	table      *table.Table
	multi      *multilabel.Model
	classes    []string  // a multi-label model's labels
	classJSON  [][]byte  // the class names as JSON strings
	assumed    []float64 // the priors the probabilities assume; nil for multi-label
	loadTime   time.Duration
	loadedAt   time.Time
	preds      *predictors[*pipeline.Predictor]   // text models
	multiPreds *predictors[*multilabel.Predictor] // multi-label models
	predicted  []prometheus.Counter               // per class
	// info is what GET /v1/models/{name} shows, made on first use
	info func() (any, error)
	// jnl records and applies the updates of a text model that learns
	jnl *journal.Journal
}

func newModel(name string, a Any) *model {
	m := &model{name: name, text: a.Text, table: a.Table, multi: a.Multi}
	switch {
	case a.Text != nil:
		m.classes, m.assumed = a.Text.Classes, a.Text.PosteriorPriors()
		m.preds = newPredictors(a.Text.NewPredictor)
	case a.Multi != nil:
		m.classes = a.Multi.Labels
		m.multiPreds = newPredictors(a.Multi.NewPredictor)
	default:
		m.classes, m.assumed = a.Table.Classes, a.Table.TrainingPriors()
	}
	for _, c := range m.classes {
		b, _ := json.Marshal(c)
		m.classJSON = append(m.classJSON, b)
	}
	m.info = sync.OnceValues(func() (any, error) { return inspect(m, defaultInfoTerms) })
	return m
}

// kind names the kind of model, as GET /v1/models and errors say it.
func (m *model) kind() string {
	switch {
	case m.text != nil:
		return "text"
	case m.multi != nil:
		return "multi-label"
	}
	return "table"
}

// warm makes the first request as fast as the next: a Chinese model's
// segmenter loads its dictionary (seconds) before the model is served, not
// on the first Han text, and the pool gets its first Predictor.
func (m *model) warm() error {
	var lang tokenize.Lang
	switch {
	case m.text != nil:
		lang = m.text.Config.Tokenize.Lang
	case m.multi != nil:
		lang = m.multi.Config.Tokenize.Lang
	default:
		return nil
	}
	text := "warm up"
	if lang == tokenize.Chinese {
		if err := zh.Default().Load(); err != nil {
			return err
		}
		text = "预热模型的中文分词词典"
	}
	if m.multi != nil {
		return warmOne(m.multiPreds, func(p *multilabel.Predictor) { p.Proba(nil, text) })
	}
	return warmOne(m.preds, func(p *pipeline.Predictor) { p.Proba(nil, text) })
}

// warmOne makes ps's first Predictor and scores with it.
func warmOne[P any](ps *predictors[P], score func(P)) error {
	p, err := ps.get(context.Background()) // a new pool: does not wait
	if err != nil {
		return err
	}
	score(p)
	ps.put(p)
	return nil
}

// predictors is a bounded pool of a model's Predictors: predicting is
// CPU work, so more than a few per core only cost memory (each holds a
// tokencore.Worker), and a request waits for one instead.
type predictors[P any] struct {
	newP func() P
	free chan P
	made atomic.Int32
}

func newPredictors[P any](newP func() P) *predictors[P] {
	return &predictors[P]{newP: newP, free: make(chan P, 4*runtime.GOMAXPROCS(0))}
}

func (ps *predictors[P]) get(ctx context.Context) (P, error) {
	select {
	case p := <-ps.free:
		return p, nil
	default:
	}
	if ps.made.Add(1) <= int32(cap(ps.free)) {
		return ps.newP(), nil
	}
	ps.made.Add(-1)
	select {
	case p := <-ps.free:
		return p, nil
	case <-ctx.Done():
		var none P
		return none, ctx.Err()
	}
}

// put returns p; it never blocks, as at most cap(free) Predictors exist.
func (ps *predictors[P]) put(p P) { ps.free <- p }

// A slot is a served name: the model file it comes from and the version
// being served.
type slot struct {
	name, path string // path is "" for a model given in memory
	cur        atomic.Pointer[model]
	loadMu     sync.Mutex // one load at a time
	generation uint64     // under loadMu
	failure    atomic.Pointer[loadFailure]

	learnMu sync.RWMutex // read-held by updates, held by a journal swap
	jnlErr  error        // why the journal did not open; under learnMu
	statMu  sync.Mutex
	retired journal.Stats // counts of the journals closed
}

type loadFailure struct {
	err  string
	when time.Time
}

// load reads the slot's file beside the model being served, warms it and
// publishes it. On failure the old model keeps serving. A learning
// server skips a file that is its journal's own (its compaction wrote it)
// and otherwise opens the new version's journal, replaying it, before the
// new version serves.
func (s *slot) load(srv *Server) (*model, error) {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	start := time.Now()
	learn := srv.opt.Learn
	cur := s.cur.Load()
	var sum journal.Sum
	errOwn := errors.New("unchanged")
	a, err := modelfile.Load(s.path, func(data []byte) (Any, error) {
		if learn {
			sum = journal.SumOf(data)
			if cur != nil && cur.jnl != nil && cur.jnl.Owns(sum) {
				return Any{}, errOwn
			}
		}
		return Decode(data)
	})
	if errors.Is(err, errOwn) {
		return cur, nil
	}
	var m *model
	if err == nil {
		m = newModel(s.name, a)
		err = m.warm()
	}
	if err == nil && learn && m.text != nil {
		s.learnMu.Lock()
		err = s.openJournal(srv, m, sum)
		if err == nil {
			defer s.learnMu.Unlock() // after the new version is published
		} else {
			s.learnMu.Unlock()
		}
	}
	if err != nil {
		s.failure.Store(&loadFailure{err: err.Error(), when: time.Now()})
		srv.met.loadFailed(s.name)
		return nil, err
	}
	s.generation++
	m.generation = s.generation
	m.loadTime = time.Since(start)
	m.loadedAt = time.Now()
	srv.met.loaded(m)
	s.cur.Store(m)
	s.failure.Store(nil)
	return m, nil
}
