package pipeline

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// langSample is how much text Lang Auto reads before it decides.
const langSample = 64 << 10

// Summary describes a finished training run.
type Summary struct {
	Documents, Unlabeled, Empty, Classes, Features int
	MinDF                                          int
	Lang                                           tokenize.Lang
	Elapsed                                        time.Duration
}

// A Trainer builds a Model from labeled documents given one at a time.
// Batches of documents go round-robin to one goroutine per core, each
// tokenizing into its own vocabulary shard; Finish puts the rows back in
// document order, so the model does not depend on the number of cores.
// A Trainer is not safe for concurrent calls to Add.
type Trainer struct {
	cfg     Config
	start   time.Time
	classes map[string]int
	names   []string
	y       []int
	batch   []string
	pending [][]string // batches held back until Lang Auto has decided
	sampled int
	lang    tokenize.Lang
	an      *tokenize.Analyzer
	shards  []*shard
	batches int
	wg      sync.WaitGroup
	// unlabeled counts the documents given to AddUnlabeled.
	unlabeled int
	finished  bool
}

// shard is one goroutine's share of the training documents.
type shard struct {
	in     chan []string
	vocab  *vectorize.VocabBuilder
	hashed *vectorize.CSR
	hash   vectorize.Hashing
	empty  int
	idx    []int32
	val    []float64
}

// NewTrainer returns a Trainer for cfg.
func NewTrainer(cfg Config) (*Trainer, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	t := &Trainer{cfg: cfg, start: time.Now(), classes: map[string]int{}, lang: cfg.Tokenize.Lang}
	if t.lang != tokenize.Auto {
		t.begin()
	}
	return t, nil
}

func (c Config) validate() error {
	switch {
	case c.Alpha < 0 || math.IsNaN(c.Alpha) || math.IsInf(c.Alpha, 0):
		return fmt.Errorf("%w: alpha %g, want a finite value ≥ 0", ErrConfig, c.Alpha)
	case c.Classifier > Bernoulli, c.Weighting > Rennie, c.Vectorizer > Hash:
		return fmt.Errorf("%w: unknown classifier, weighting or vectorizer", ErrConfig)
	case c.Vocab.MinDF < 0, c.Vocab.MaxDF < 0, c.Vocab.MaxDF > 1, c.Vocab.MaxFeatures < 0:
		return fmt.Errorf("%w: min_df %d, max_df %g, max_features %d out of range",
			ErrConfig, c.Vocab.MinDF, c.Vocab.MaxDF, c.Vocab.MaxFeatures)
	}
	if err := c.Semi.validate(); err != nil {
		return err
	}
	return c.Tokenize.Validate()
}

// Add queues one labeled document.
func (t *Trainer) Add(label, text string) {
	id, ok := t.classes[label]
	if !ok {
		id = len(t.names)
		t.classes[label] = id
		t.names = append(t.names, label)
	}
	t.queue(id, text)
}

// AddUnlabeled queues a document without a label, for semi-supervised
// training (Config.Semi). It shares the vocabulary and weighting of the
// labeled documents.
func (t *Trainer) AddUnlabeled(text string) {
	t.unlabeled++
	t.queue(-1, text)
}

// queue records a document's class (−1: unlabeled) and batches its text.
func (t *Trainer) queue(class int, text string) {
	if t.finished {
		return // Finish reports it
	}
	t.y = append(t.y, class)
	t.batch = append(t.batch, text)
	if len(t.batch) == batchSize {
		t.flush()
	}
}

// flush hands the current batch to its shard, or holds it while the
// language is still undecided.
func (t *Trainer) flush() {
	if len(t.batch) == 0 {
		return
	}
	b := t.batch
	t.batch = make([]string, 0, batchSize)
	if t.shards == nil {
		t.pending = append(t.pending, b)
		for _, s := range b {
			t.sampled += len(s)
		}
		if t.sampled >= langSample {
			t.begin()
		}
		return
	}
	t.shards[t.batches%len(t.shards)].in <- b
	t.batches++
}

// begin fixes the language and starts the shards.
func (t *Trainer) begin() {
	if t.lang == tokenize.Auto {
		t.lang = detectLang(t.pending)
	}
	t.cfg.Tokenize = t.cfg.tokenizeConfig(t.lang)
	t.an = tokenize.New(t.cfg.Tokenize)
	t.shards = make([]*shard, runtime.GOMAXPROCS(0))
	for i := range t.shards {
		s := &shard{in: make(chan []string, 2)}
		if t.cfg.Vectorizer == Hash {
			s.hash = vectorize.Hashing{Features: t.cfg.hashFeatures()}
			s.hashed = vectorize.NewCSR(s.hash.Features)
		} else {
			s.vocab = vectorize.NewVocabBuilder()
		}
		t.shards[i] = s
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			s.run(t.an)
		}()
	}
	pending := t.pending
	t.pending = nil
	for _, b := range pending {
		t.shards[t.batches%len(t.shards)].in <- b
		t.batches++
	}
}

func detectLang(batches [][]string) tokenize.Lang {
	var d tokenize.LangDetector
	for _, b := range batches {
		for _, s := range b {
			d.Add(s)
		}
	}
	return d.Lang()
}

func (s *shard) run(an *tokenize.Analyzer) {
	var terms []string
	for b := range s.in {
		for _, text := range b {
			terms = an.Terms(terms[:0], text)
			if len(terms) == 0 {
				s.empty++
			}
			if s.vocab != nil {
				s.vocab.Add(terms)
				continue
			}
			s.idx, s.val = s.hash.Transform(s.idx[:0], s.val[:0], terms)
			s.hashed.AppendRow(s.idx, s.val)
		}
	}
}

// Finish trains the model on everything added. A Trainer finishes once;
// later calls, and documents added after the first, get ErrFinished.
func (t *Trainer) Finish() (*Model, Summary, error) {
	if t.finished {
		return nil, Summary{}, ErrFinished
	}
	t.finished = true
	t.flush()
	if t.shards == nil {
		t.begin()
	}
	for _, s := range t.shards {
		close(s.in)
	}
	t.wg.Wait()
	switch {
	case len(t.y) == t.unlabeled:
		return nil, Summary{}, ErrNoDocuments
	case len(t.names) < 2:
		return nil, Summary{}, fmt.Errorf("%w: every document is labeled %q", ErrOneClass, t.names[0])
	case t.unlabeled > 0 && t.cfg.Semi.Method == NoSemi:
		return nil, Summary{}, fmt.Errorf("%w: %d unlabeled documents but no semi-supervised method", ErrConfig, t.unlabeled)
	}
	m := &Model{Config: t.cfg, Classes: t.names, Lang: t.lang, an: t.an}
	m.Config.Alpha = t.cfg.alpha()
	X, minDF, err := t.features(m)
	if err != nil {
		return nil, Summary{}, err
	}
	if err := m.fit(X, t.y); err != nil {
		return nil, Summary{}, err
	}
	s := Summary{Documents: len(t.y) - t.unlabeled, Unlabeled: t.unlabeled, Classes: len(t.names), Features: X.Cols,
		MinDF: minDF, Lang: t.lang, Elapsed: time.Since(t.start)}
	for _, sh := range t.shards {
		s.Empty += sh.empty
	}
	return m, s, nil
}

// documentOrder returns, for each row of the shard-ordered matrix, the
// document it holds: batch b went to shard b mod S as its (b div S)-th batch.
func (t *Trainer) documentOrder() []int {
	n, S := len(t.y), len(t.shards)
	order := make([]int, 0, n)
	for s := 0; s < S; s++ {
		for b := s; b*batchSize < n; b += S {
			for i := b * batchSize; i < min((b+1)*batchSize, n); i++ {
				order = append(order, i)
			}
		}
	}
	return order
}

// features finishes the vectorizer and returns the count matrix, its
// rows in document order.
func (t *Trainer) features(m *Model) (*vectorize.CSR, int, error) {
	X, minDF, err := t.shardMatrix(m)
	if err != nil {
		return nil, 0, err
	}
	return permuteRows(X, t.documentOrder()), minDF, nil
}

// shardMatrix returns the count matrix with the rows in shard order.
func (t *Trainer) shardMatrix(m *Model) (*vectorize.CSR, int, error) {
	if t.cfg.Vectorizer == Hash {
		m.hash = t.shards[0].hash
		X := vectorize.NewCSR(m.hash.Features)
		for _, s := range t.shards {
			for i := 0; i < s.hashed.Rows; i++ {
				X.AppendRow(s.hashed.Row(i))
			}
			s.hashed = nil
		}
		return X, 0, nil
	}
	builders := make([]*vectorize.VocabBuilder, len(t.shards))
	for i, s := range t.shards {
		builders[i] = s.vocab
		s.vocab = nil
	}
	merged, err := vectorize.MergeVocab(builders...)
	if err != nil {
		return nil, 0, err
	}
	vc := t.cfg.Vocab
	if vc.MinDF == 0 {
		vc.MinDF = merged.MinDFFor(t.cfg.maxTableSize()/len(t.names), vc.MaxFeatures)
	}
	vocab, X, err := merged.Finish(vc)
	if err != nil {
		return nil, 0, err
	}
	m.vocab = vocab
	m.Config.Vocab.MinDF = vc.MinDF // the model records what was applied
	return X, vc.MinDF, nil
}

// permuteRows returns X with row r moved to row order[r].
func permuteRows(X *vectorize.CSR, order []int) *vectorize.CSR {
	start := make([]int, X.Rows)
	for r, d := range order {
		start[d] = r
	}
	out := &vectorize.CSR{Cols: X.Cols, Indptr: make([]int, 1, X.Rows+1),
		Indices: make([]int32, 0, X.NNZ()), Data: make([]float64, 0, X.NNZ())}
	for d := 0; d < X.Rows; d++ {
		out.AppendRow(X.Row(start[d]))
	}
	return out
}

// fit weights X in place and fits the classifier.
func (m *Model) fit(X *vectorize.CSR, y []int) error {
	if err := m.fitWeighting(X); err != nil {
		return err
	}
	if m.Config.Semi.Method != NoSemi {
		c, err := m.fitSemi(X, y)
		if err != nil {
			return err
		}
		if m.counts = c.Sparse(); m.counts == nil {
			return fmt.Errorf("%w: semi-supervised counts do not fit the sparse form", ErrConfig)
		}
		return m.refit()
	}
	c, err := nb.NewSparseCountsFor(m.newEstimator(), X, y, len(m.Classes))
	if err != nil {
		return err
	}
	m.counts = c
	return m.refit()
}
