package pipeline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/finite"
	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/internal/tokencore"
	"github.com/textnb/textnb/internal/vocab"
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
	Semi                                           SemiReport // what Config.Semi did; zero without it
	// Choice is what cross-validation chose the settings from (as
	// Model.Chosen), or nil; Fallback, if not empty, is why training
	// took the plain default instead of choosing.
	Choice   *Choice
	Fallback string
}

// A Trainer builds a Model from labeled documents given one at a time.
// Batches of documents are tokenized on one goroutine per core; one more
// goroutine counts their terms in document order, so the model does not
// depend on the number of cores. A Trainer is not safe for concurrent calls
// to Add.
type Trainer struct {
	cfg     Config
	given   Config     // as NewTrainer took it
	winner  *CVResult  // the choice's winner, whose held-out scores calibrate the model
	texts   *keptTexts // for the choice's second tokenization (secondtok.go), nil if none
	start   time.Time
	classes map[string]int
	names   []string
	y       []int
	pending []string // texts held back until Lang Auto has decided
	sampled int
	an      *tokenize.Analyzer
	run     *parallel.Batcher[string, *tokenized]
	vocab   *vocab.Builder
	coders  *parallel.FreeList[*coder]           // for the tokenizing goroutines
	batches *parallel.FreeList[[]vocab.CodedDoc] // that count is done with
	hashed  []*sparse.CSR                        // per batch, with hashing
	hash    featurehash.Hashing
	empty   int
	// unlabeled counts the documents given to AddUnlabeled.
	unlabeled int
	// calibrate sets the winner's calibration on the model, fitted
	// while the model is (chooseFor).
	calibrate func(*Model) error
	finished  bool
	// viaMatrix fits through a count matrix even where fitPruned or
	// fitParts would do; tests compare the two.
	viaMatrix bool
	spill     spill // rows that outgrow memory (stream.go)
}

// NewTrainer returns a Trainer for cfg.
func NewTrainer(cfg Config) (*Trainer, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	t := &Trainer{cfg: cfg, given: cfg, start: time.Now(), classes: map[string]int{}}
	if _, ok := cfg.secondTokens(cfg.Tokenize.Lang); ok {
		t.texts = new(keptTexts)
	}
	if cfg.Tokenize.Lang != tokenize.Auto {
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
	case c.HashFeatures < 0, c.MaxTableSize < 0:
		return fmt.Errorf("%w: %d hash features, table size %d: want 0 for the default or a positive value",
			ErrConfig, c.HashFeatures, c.MaxTableSize)
	}
	if err := c.Semi.validate(); err != nil {
		return err
	}
	if err := c.validateReweight(); err != nil {
		return err
	}
	if err := c.validateSelect(); err != nil {
		return err
	}
	return c.Tokenize.Validate()
}

// Add queues one labeled document. It refuses an empty label
// (ErrEmptyLabel) and a Trainer that has finished (ErrFinished).
func (t *Trainer) Add(label, text string) error {
	switch {
	case label == "":
		return ErrEmptyLabel
	case t.finished:
		return ErrFinished
	}
	id, ok := t.classes[label]
	if !ok {
		id = len(t.names)
		t.classes[label] = id
		t.names = append(t.names, label)
	}
	t.queue(id, text)
	return nil
}

// AddUnlabeled queues a document without a label, for semi-supervised
// training (Config.Semi). It shares the vocabulary and weighting of the
// labeled documents.
func (t *Trainer) AddUnlabeled(text string) {
	t.unlabeled++
	t.queue(-1, text)
}

// queue records a document's class (−1: unlabeled) and its text.
func (t *Trainer) queue(class int, text string) {
	if t.finished {
		return // Finish reports it
	}
	t.y = append(t.y, class)
	if t.texts != nil {
		t.texts = t.texts.keep(class, text)
	}
	if t.run != nil {
		t.run.Add(text)
		return
	}
	t.pending = append(t.pending, text)
	if t.sampled += len(text); t.sampled >= langSample {
		t.begin()
	}
}

// begin fixes the language and starts tokenizing.
func (t *Trainer) begin() {
	lang := t.cfg.Tokenize.Lang
	if lang == tokenize.Auto {
		d := tokens.NewLangDetector()
		for _, s := range t.pending {
			d.Add(s)
		}
		lang = d.Lang()
	}
	t.an = tokenize.New(t.cfg.tokenizeConfig(lang))
	if _, ok := t.cfg.secondTokens(lang); !ok {
		t.texts = nil
	}
	t.cfg.Tokenize = t.an.Config() // every default spelled out, for the model file
	if t.cfg.Vectorizer == Hash {
		t.hash = featurehash.Hashing{Features: t.cfg.hashFeatures()}
	} else {
		t.vocab = vocab.NewBuilder()
		t.startSpill()
	}
	t.coders, t.batches = new(parallel.FreeList[*coder]), new(parallel.FreeList[[]vocab.CodedDoc])
	t.run = parallel.NewBatcher(t.tokenize, t.count)
	for _, s := range t.pending {
		t.run.Add(s)
	}
	t.pending = nil
}

// tokenized is one batch of documents: coded for the vocabulary, or hashed
// into rows of exactly their size.
type tokenized struct {
	coded []vocab.CodedDoc
	rows  *sparse.CSR
	empty int // hashing: documents without terms
}

// maxCoderTerms bounds the terms a WordCoder numbers before it is replaced,
// since every tokenizing goroutine keeps one (about 40 bytes a term).
const maxCoderTerms = 1 << 18

// coder is what a tokenizing goroutine reuses from batch to batch: its
// tokenizing Worker, its WordCoder, its buffers for a document's words
// and, with hashing, for the batch's rows.
type coder struct {
	vocab.WordCoder
	tok          tokencore.Worker
	words, extra []string
	idx          []int32
	val          []float64
	hashes       []uint32
	sum          rowSum // with hashing, of a long document's pieces
}

// takeCoder returns a coder from t's free list, or a new one.
func (t *Trainer) takeCoder() *coder {
	c, ok := t.coders.Get()
	if !ok {
		c = &coder{tok: tokens.NewWorker(t.an)}
	}
	return c
}

// analyze fills c.words and c.extra with the words of text.
func (c *coder) analyze(text string) {
	c.words, c.extra = c.tok.Words(c.words[:0], c.extra[:0], text)
}

// code fills d with the terms of text, a long one in pieces.
func (c *coder) code(d *vocab.CodedDoc, text string, r ngrams.Range) {
	if len(text) <= longText {
		c.analyze(text)
		c.Code(d, c.words, r, c.extra)
		return
	}
	c.Start(d, r)
	c.words, c.extra = eachPiece(c.tok, c.words, c.extra, text, contextOf(r), func(words []string, from int, extra []string) {
		c.Piece(d, words, from, extra)
	})
	c.Finish(d)
}

// hash appends the hashed row of text to idx and val, a long text's in
// pieces.
func (c *coder) hash(h featurehash.Hashing, idx []int32, val []float64, text string, r ngrams.Range) ([]int32, []float64) {
	if len(text) <= longText {
		c.analyze(text)
		idx, val, c.hashes = h.TransformWords(idx, val, c.hashes, c.words, r, c.extra)
		return idx, val
	}
	ri, rv, w, e := c.sum.long(c.tok, c.words, c.extra, text, contextOf(r),
		func(idx []int32, val []float64, words []string, from int, extra []string) ([]int32, []float64) {
			idx, val, c.hashes = h.TransformWordsFrom(idx, val, c.hashes, words, from, r, extra)
			return idx, val
		})
	c.words, c.extra = w, e
	return append(idx, ri...), append(val, rv...)
}

// maxWordBuffer and maxRowBuffer bound the words and row entries a coder's
// buffers keep room for between batches.
const (
	maxWordBuffer = 1 << 16
	maxRowBuffer  = 1 << 20
)

// putCoder readies c for the next batch and returns it to t; if its
// WordCoder has numbered too many terms, a new coder takes its place and
// takes over only its Worker, to which documents still to be counted do
// not refer. It clears the words the batch used, views of texts that they
// would keep alive, and lets go of buffers that a very long document grew.
func (t *Trainer) putCoder(c *coder) {
	c.words, c.extra = dropViews(c.words), dropViews(c.extra)
	c.idx, c.val, c.hashes = c.idx[:0], c.val[:0], c.hashes[:0]
	if cap(c.idx) > maxRowBuffer || cap(c.val) > maxRowBuffer || cap(c.hashes) > maxRowBuffer {
		c.idx, c.val, c.hashes = nil, nil, nil
	}
	c.sum.release(maxRowBuffer)
	if c.Len() > maxCoderTerms {
		c = &coder{tok: c.tok}
	}
	t.coders.Put(c)
}

// dropViews empties a word buffer, clearing every string it held.
func dropViews(s []string) []string {
	if cap(s) > maxWordBuffer {
		return nil
	}
	clear(s[:cap(s)])
	return s[:0]
}

func (t *Trainer) tokenize(texts []string) *tokenized {
	if t.vocab == nil {
		return t.hashRows(texts)
	}
	docs, _ := t.batches.Get() // reused, so coded documents keep their capacity
	docs = slices.Grow(docs[:0], len(texts))[:len(texts)]
	c := t.takeCoder()
	r := ngramsOf(t.an)
	for i, s := range texts {
		c.code(&docs[i], s, r)
	}
	t.putCoder(c)
	return &tokenized{coded: docs}
}

// hashRows hashes a batch into rows that the trainer keeps as they are
// until Finish fits from them (fitParts), or stacks them for
// semi-supervised training: growing one matrix would copy it again and
// again, holding two copies at each step. The rows are built in
// the coder's buffers and copied out at their exact size.
func (t *Trainer) hashRows(texts []string) *tokenized {
	c := t.takeCoder()
	r := ngramsOf(t.an)
	rows := sparse.NewCSR(t.hash.Cols())
	idx, val := c.idx[:0], c.val[:0]
	empty := 0
	for _, s := range texts {
		n := len(idx)
		idx, val = c.hash(t.hash, idx, val, s, r) // appends the row
		empty += tally.BoolInt(len(idx) == n)     // every term has a column
		rows.Rows++
		rows.Indptr = append(rows.Indptr, len(idx))
	}
	rows.Indices, rows.Data = slices.Clone(idx), slices.Clone(val)
	c.idx, c.val = idx, val
	t.putCoder(c)
	return &tokenized{rows: rows, empty: empty}
}

// count runs on one goroutine, in document order.
func (t *Trainer) count(b *tokenized) {
	if t.vocab == nil {
		t.empty += b.empty
		t.keepHashed(b.rows)
		return
	}
	for i := range b.coded {
		t.empty += tally.BoolInt(b.coded[i].Len() == 0)
		t.vocab.AddCoded(&b.coded[i])
		b.coded[i].Release()
	}
	t.batches.Put(b.coded)
}

// Finish trains the model on everything added and summarizes the run,
// including what semi-supervised training did (Summary.Semi). A Trainer
// finishes once; later calls, and documents added after the first, get
// ErrFinished.
func (t *Trainer) Finish() (*Model, Summary, error) {
	if err := t.closeInput(); err != nil {
		return nil, Summary{}, err
	}
	cands, why := t.cfg.candidates(len(t.names))
	if cands != nil {
		t.cfg = t.cfg.withChoiceBound()
	}
	t.cfg = t.cfg.forClasses(len(t.names))
	m := t.newModel(t.cfg)
	t.an = nil
	if !t.texts.short(nil) {
		t.texts = nil // only short text is tokenized again (trySecond)
	}
	s, err := t.train(m, cands)
	if s.Fallback == "" {
		s.Fallback = why
	}
	if err == nil {
		err = m.finite()
	}
	if err == nil && t.calibrate != nil {
		err = t.calibrate(m)
	}
	if err != nil {
		return nil, Summary{}, err
	}
	t.summarize(&s, time.Since(t.start))
	if m.Chosen != nil && t.texts.short(nil) {
		return t.trySecond(m, s)
	}
	return m, s, nil
}

// newModel returns the model Finish fits for cfg, before fitting. It gets
// an analyzer of its own, as a loaded model does, so that the training
// analyzer's word cache is garbage from here on.
func (t *Trainer) newModel(cfg Config) *Model {
	m := &Model{Config: cfg, Classes: t.names, an: tokenize.New(cfg.Tokenize)}
	m.Config.Calibrate = false // until Model.Calibrate
	return m
}

// summarize fills in s what t's documents and configuration say, and the
// time elapsed.
func (t *Trainer) summarize(s *Summary, elapsed time.Duration) {
	s.Documents, s.Unlabeled, s.Empty, s.Classes = len(t.y)-t.unlabeled, t.unlabeled, t.empty, len(t.names)
	s.Lang, s.Elapsed = t.cfg.Tokenize.Lang, elapsed // fixed by begin
}

// closeInput waits for the documents added to be counted and checks that
// there is something to train on. It may be called once.
func (t *Trainer) closeInput() error {
	if !t.stop() {
		return ErrFinished
	}
	switch {
	case len(t.y) == t.unlabeled:
		return ErrNoDocuments
	case len(t.names) < 2:
		return fmt.Errorf("%w: every document is labeled %q", ErrOneClass, t.names[0])
	case t.unlabeled > 0 && t.cfg.Semi.Method == NoSemi:
		return fmt.Errorf("%w: %d unlabeled documents but no semi-supervised method", ErrConfig, t.unlabeled)
	}
	return nil
}

// train finishes the vectorizer and fits m, returning a Summary with
// Features, MinDF and Semi filled in; Finish fills the rest.
// Semi-supervised training goes through a count matrix; otherwise the
// rows are weighted and summed straight from the vectorizer's store
// (fitPruned) or the hashed batches (fitParts).
func (t *Trainer) train(m *Model, cands []Config) (s Summary, err error) {
	direct := t.cfg.Semi.Method == NoSemi && !t.viaMatrix // from the rows as they are, not through a matrix
	if t.vocab == nil {
		m.hash = t.hash
		parts := t.hashed
		t.hashed = nil
		if direct {
			s.Features = t.hash.Cols()
			switch {
			case t.spill.err != nil:
				return s, t.spill.err
			case t.spill.file != nil:
				return s, t.fitSpilled(m)
			}
			return s, m.fitParts(s.Features, parts, t.y)
		}
		X, err := sparse.StackRows(t.hash.Cols(), parts)
		if err != nil {
			return s, err
		}
		s.Features = X.Cols
		s.Semi, err = m.fit((*vectorize.CSR)(X), t.y)
		return s, err
	}
	t.vocab.EndInput()
	merged, err := vocab.Merge(t.vocab)
	if err != nil {
		return s, err
	}
	b := t.vocab
	defer b.CloseSpill()
	t.vocab = nil
	if cands != nil {
		if s.Fallback, err = t.chooseFor(m, merged, b, cands, direct); err != nil {
			return s, err
		}
		s.Choice = m.Chosen
	}
	vc := t.finalVocab(merged)
	m.Config.Vocab.MinDF = vc.MinDF // the model records what was applied
	s.MinDF = vc.MinDF
	if !direct {
		v, X, err := merged.Consume(vocab.Config(vc))
		if err != nil {
			return s, err
		}
		m.vocab, s.Features = v, X.Cols
		s.Semi, err = m.fit((*vectorize.CSR)(X), t.y)
		return s, err
	}
	p, err := merged.PruneConsume(vocab.Config(vc))
	if err != nil {
		return s, err
	}
	if t.cfg.Select.Method != NoSelect {
		s.Features, err = t.fitSelected(m, p)
		return s, err
	}
	s.Features = p.Len()
	if t.spill.used = b.Spilled(); t.spill.used {
		m.vocab = p.Provisional()
		return s, m.fitScan(p.Len(), p.DF, t.y, p.Scan)
	}
	return s, m.fitPruned(p, t.y)
}

// finalVocab returns how the model's vocabulary is pruned: by t.cfg's, its
// automatic min_df bounding classes × features by t.cfg's table size.
func (t *Trainer) finalVocab(merged *vocab.Counts) vectorize.VocabConfig {
	vc := t.cfg.Vocab
	if t.cfg.Select.Method != NoSelect {
		vc.MaxFeatures = 0 // K is the selection's
	}
	if vc.MinDF == 0 {
		vc.MinDF = merged.MinDFFor(t.cfg.maxTableSize()/len(t.names), vc.MaxFeatures)
	}
	return vc
}

// fitPruned fits the weighting on p's document frequencies and m on p's
// rows, under p's provisional ids, which the model keeps: its vocabulary
// follows the order in which the builder first saw the terms, so training
// sorts no terms and remaps no sums. Prediction looks terms up by hash, in
// any order.
func (m *Model) fitPruned(p *vocab.Pruned, y []int) error {
	m.vocab = p.Provisional()
	return m.fitRows(p.Len(), p.DF, y, p.Row)
}

// fitParts fits m as fit would on the rows of parts stacked, without the
// stacked copy, which would double the memory the rows take. The parts
// are the trainer's own, valid by construction: StackRows would check them.
func (m *Model) fitParts(cols int, parts []*sparse.CSR, y []int) error {
	starts := make([]int, len(parts)+1) // part k's first row
	for k, p := range parts {
		starts[k+1] = starts[k] + p.Rows
	}
	df := func() []int64 {
		df := make([]int64, cols)
		for _, p := range parts {
			for _, j := range p.Indices[:p.Indptr[p.Rows]] {
				df[j]++
			}
		}
		return df
	}
	return m.fitRows(cols, df, y, func(i int, idx []int32, val []float64) ([]int32, []float64) {
		k := sort.SearchInts(starts, i+1) - 1
		ri, rv := parts[k].Row(i - starts[k])
		return append(idx, ri...), append(val, rv...)
	})
}

// fitRows fits m's weighting on the document frequencies of the len(y)
// rows (df, called only if there is a weighting), then m on the rows that
// row appends, each weighted in place and summed per class; features
// bounds their columns.
func (m *Model) fitRows(features int, df func() []int64, y []int, row compact.RowFunc) error {
	if err := m.fitWeightingDF(len(y), df); err != nil {
		return err
	}
	w := m.weight
	if m.reweighted() { // the passes score the weighted rows again and again
		X := weightedRows(features, len(y), w, row)
		if err := m.fitCounts(features, y, func(i int, idx []int32, val []float64) ([]int32, []float64) {
			ri, rv := X.Row(i)
			return append(idx, ri...), append(val, rv...)
		}); err != nil {
			return err
		}
		return m.reweigh(len(y), y, X.Row)
	}
	return m.fitCounts(features, y, func(i int, idx []int32, val []float64) ([]int32, []float64) {
		start := len(idx)
		idx, val = row(i, idx, val)
		if w != nil {
			_ = w.TransformRow(idx[start:], val[start:]) // the rows' columns are in range
		}
		return idx, val
	})
}

// fitWeightingDF fits m's weighting, if it has one, on the document
// frequencies of n rows (df, not called without a weighting).
func (m *Model) fitWeightingDF(n int, df func() []int64) error {
	m.weight = m.newWeighting()
	if m.weight == nil {
		return nil
	}
	return fitDF(m.weight, n, df())
}

// fitCounts fits m on the len(y) weighted rows that row appends.
func (m *Model) fitCounts(features int, y []int, row compact.RowFunc) error {
	counts, err := compact.CountRows(m.newEstimator(), features, y, len(m.Classes), row)
	if err != nil {
		return err
	}
	m.counts = counts
	return m.refitLazy()
}

// fit weights X in place and fits the classifier, reporting what
// semi-supervised training did.
func (m *Model) fit(X *vectorize.CSR, y []int) (SemiReport, error) {
	if err := m.fitWeighting(X); err != nil {
		return SemiReport{}, err
	}
	if m.Config.Semi.Method != NoSemi {
		c, r, err := m.fitSemi(X, y)
		if err != nil {
			return r, err
		}
		if m.counts = compact.FromDense(c); m.counts == nil {
			return r, fmt.Errorf("%w: semi-supervised counts do not fit the sparse form", ErrConfig)
		}
		return r, m.refit()
	}
	c, err := compact.Count(m.newEstimator(), X, y, len(m.Classes))
	if err != nil {
		return SemiReport{}, err
	}
	m.counts = c
	return SemiReport{}, m.refit()
}

// finite refuses a fitted classifier whose weights are NaN or infinite,
// which an extreme alpha makes: they would score every document alike, and
// Load refuses them.
func (m *Model) finite() error {
	l := m.lin
	if err := finite.Weights(ErrConfig, m.Config.alpha(), l.Bias, l.P, l.Q, l.Base, l.Delta); err != nil || m.lazy == nil {
		return err
	}
	d := make([]float64, min(m.lazy.Cells(), lazyBlock))
	for lo := 0; lo < m.lazy.Cells(); lo += len(d) {
		d = d[:min(len(d), m.lazy.Cells()-lo)]
		m.lazy.Deltas(d, lo)
		if err := finite.Weights(ErrConfig, m.Config.alpha(), d); err != nil {
			return err
		}
	}
	return nil
}

// lazyBlock is how many lazy cell weights are computed at a time.
const lazyBlock = 1 << 16
