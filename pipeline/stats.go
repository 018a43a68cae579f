package pipeline

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// Training in parts, exactly: the weightings need corpus-wide document
// frequencies (IDF, pruning) before any row can be weighted, and an
// L2-normalized row's weights depend on every IDF in it, so class sums of
// weighted rows cannot be computed before the document frequencies of the
// whole corpus are known. Training in parts therefore takes two passes over
// the parts, each of which any number of workers may do:
//
//  1. DocFreqCounter counts each part's DocFreqs; MergeDocFreqs combines
//     them (associative, in any grouping; class order follows part order).
//  2. Prepare fixes the vocabulary, its pruning and the weighting from the
//     merged DocFreqs; a Summer per part weights its rows with them and sums
//     them per class; compact.Merge combines those sums; Build makes
//     the model.
//
// The model equals one trained on the parts in order, except that its
// vocabulary ids follow term order and that class sums are added in another
// order (a relative difference of about 1e-15 in the weights). Every
// Config that a Trainer accepts without unlabeled documents trains in
// parts; Lang Auto must be the same language in every part.

// ErrStats: statistics of parts cannot be combined.
var ErrStats = errors.New("pipeline: statistics of parts")

// DocFreqs are the statistics of the first pass over a part of a corpus.
type DocFreqs struct {
	Config    Config   // Tokenize resolved, as a model records it
	Classes   []string // in order of first appearance
	ClassDocs []int64  // labeled documents per class
	Empty     int64    // documents without terms
	// Terms are the vocabulary's terms with their document frequencies;
	// with the hashing vectorizer, Terms.DF is per column and Terms.Terms
	// is empty.
	Terms vocab.TermStats
}

// Docs returns the number of documents counted.
func (d *DocFreqs) Docs() int64 { return d.Terms.Docs }

// A Featurizer turns documents into the terms that a Trainer with the same
// Config counts: its tokenizer, with every default resolved as the model
// records it, and its word n-grams joined by spaces. It is not safe for
// concurrent use; make one per goroutine.
type Featurizer struct {
	cfg          Config
	tok          *tokenize.Worker
	r            ngrams.Range
	words, extra []string
}

// NewFeaturizer returns a Featurizer for cfg, whose language must be set:
// ResolveLang decides Lang Auto from a sample of the corpus, as a Trainer
// does from its first 64 KiB.
func NewFeaturizer(cfg Config) (*Featurizer, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Tokenize.Lang == tokenize.Auto {
		return nil, fmt.Errorf("%w: a Featurizer needs a language, not auto (see ResolveLang)", ErrConfig)
	}
	an := tokenize.New(cfg.tokenizeConfig(cfg.Tokenize.Lang))
	cfg.Tokenize = an.Config()
	cfg.Alpha = cfg.alpha()
	return &Featurizer{cfg: cfg, tok: an.NewWorker(), r: ngramsOf(an)}, nil
}

// ResolveLang returns cfg with Lang Auto replaced by the language of
// sample, as a Trainer decides it from the first 64 KiB of its documents.
func ResolveLang(cfg Config, sample string) Config {
	if cfg.Tokenize.Lang == tokenize.Auto {
		var d tokenize.LangDetector
		d.Add(sample)
		cfg.Tokenize.Lang = d.Lang()
	}
	return cfg
}

// Config returns the Featurizer's configuration with every default spelled
// out, as a model trained with it records it.
func (f *Featurizer) Config() Config { return f.cfg }

// Terms appends the terms of text to dst, an occurrence each: the word
// n-grams (words joined by single spaces), then the extra terms (Han
// character n-grams). Counting them gives the document's row.
func (f *Featurizer) Terms(dst []string, text string) []string {
	f.words, f.extra = f.tok.Words(f.words[:0], f.extra[:0], text)
	lo, hi := f.r.Min, f.r.Max
	for i := range f.words {
		for n := lo; n <= hi && i+n <= len(f.words); n++ {
			dst = append(dst, strings.Join(f.words[i:i+n], " "))
		}
	}
	return append(dst, f.extra...)
}

// Row appends the counts of text's terms to idx and val, as the hashing
// vectorizer of f's Config gives them: only for Vectorizer Hash.
func (f *Featurizer) hashRow(h featurehash.Hashing, idx []int32, val []float64, hashes []uint32, text string) ([]int32, []float64, []uint32) {
	f.words, f.extra = f.tok.Words(f.words[:0], f.extra[:0], text)
	return h.TransformWords(idx, val, hashes, f.words, f.r, f.extra)
}

// A DocFreqCounter counts the DocFreqs of a part of a corpus. It is not
// safe for concurrent use.
type DocFreqCounter struct {
	cfg     Config
	f       *Featurizer
	pending []labeled // documents held until Lang Auto has decided
	sampled int
	d       DocFreqs
	classes map[string]int
	vocab   *vocab.Builder
	hash    featurehash.Hashing
	idx     []int32
	val     []float64
	hashes  []uint32
	err     error
}

type labeled struct{ label, text string }

// NewDocFreqCounter returns a counter for cfg. Semi-supervised training
// cannot be done in parts: its rounds need every row.
func NewDocFreqCounter(cfg Config) (*DocFreqCounter, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Semi.Method != NoSemi {
		return nil, fmt.Errorf("%w: semi-supervised training (%v) cannot be done in parts: each round rescores every document", ErrConfig, cfg.Semi.Method)
	}
	c := &DocFreqCounter{cfg: cfg, classes: map[string]int{}}
	if cfg.Tokenize.Lang != tokenize.Auto {
		c.begin()
	}
	return c, nil
}

func (c *DocFreqCounter) begin() {
	var sample strings.Builder
	for _, d := range c.pending {
		sample.WriteString(d.text)
	}
	c.f, c.err = NewFeaturizer(ResolveLang(c.cfg, sample.String()))
	if c.err != nil {
		return
	}
	c.d.Config = c.f.Config()
	if c.cfg.Vectorizer == Hash {
		c.hash = featurehash.Hashing{Features: c.cfg.hashFeatures()}
		c.d.Terms.DF = make([]int64, c.hash.Cols())
	} else {
		c.vocab = vocab.NewBuilder()
		c.vocab.DiscardRows()
	}
	pending := c.pending
	c.pending = nil
	for _, d := range pending {
		c.add(d.label, d.text)
	}
}

// Add counts one labeled document. It refuses an empty label
// (ErrEmptyLabel).
func (c *DocFreqCounter) Add(label, text string) error {
	if label == "" {
		return ErrEmptyLabel
	}
	if c.f == nil && c.err == nil {
		c.pending = append(c.pending, labeled{label, text})
		if c.sampled += len(text); c.sampled >= langSample {
			c.begin()
		}
		return nil
	}
	c.add(label, text)
	return nil
}

func (c *DocFreqCounter) add(label, text string) {
	if c.err != nil {
		return
	}
	id, ok := c.classes[label]
	if !ok {
		id = len(c.d.Classes)
		c.classes[label] = id
		c.d.Classes, c.d.ClassDocs = append(c.d.Classes, label), append(c.d.ClassDocs, 0)
	}
	c.d.ClassDocs[id]++
	c.d.Terms.Docs++
	if c.vocab != nil {
		f := c.f
		f.words, f.extra = f.tok.Words(f.words[:0], f.extra[:0], text)
		c.vocab.AddWords(f.words, f.r, f.extra)
		if len(f.words) == 0 && len(f.extra) == 0 {
			c.d.Empty++
		}
		return
	}
	c.idx, c.val, c.hashes = c.f.hashRow(c.hash, c.idx[:0], c.val[:0], c.hashes, text)
	for _, j := range c.idx {
		c.d.Terms.DF[j]++
	}
	if len(c.idx) == 0 {
		c.d.Empty++
	}
}

// DocFreqs returns the statistics of the documents added.
func (c *DocFreqCounter) DocFreqs() (*DocFreqs, error) {
	if c.f == nil && c.err == nil {
		c.begin()
	}
	if c.err != nil {
		return nil, c.err
	}
	d := c.d
	d.Classes, d.ClassDocs = slices.Clone(d.Classes), slices.Clone(d.ClassDocs)
	if c.vocab == nil {
		d.Terms.DF = slices.Clone(d.Terms.DF)
		d.Terms.TF = make([]int64, len(d.Terms.DF)) // not needed: hashing does not prune
		return &d, nil
	}
	merged, err := vocab.Merge(c.vocab)
	if err != nil {
		return nil, err
	}
	d.Terms = *merged.TermStats()
	return &d, nil
}

// MergeDocFreqs returns the statistics of a's documents followed by b's.
// Their configurations, language included, must be equal.
func MergeDocFreqs(a, b *DocFreqs) (*DocFreqs, error) {
	if setting, va, vb := fieldDifference("", reflect.ValueOf(a.Config), reflect.ValueOf(b.Config)); setting != "" {
		return nil, fmt.Errorf("%w: the parts differ in %s (%v, %v)", ErrStats, setting, va, vb)
	}
	hash := a.Config.Vectorizer == Hash
	if hash && len(a.Terms.DF) != len(b.Terms.DF) {
		return nil, fmt.Errorf("%w: %d and %d hashing columns", ErrStats, len(a.Terms.DF), len(b.Terms.DF))
	}
	out := &DocFreqs{Config: a.Config, Classes: slices.Clone(a.Classes), ClassDocs: slices.Clone(a.ClassDocs), Empty: a.Empty + b.Empty}
	for k, name := range b.Classes {
		i := slices.Index(out.Classes, name)
		if i < 0 {
			i = len(out.Classes)
			out.Classes, out.ClassDocs = append(out.Classes, name), append(out.ClassDocs, 0)
		}
		out.ClassDocs[i] += b.ClassDocs[k]
	}
	if hash {
		out.Terms = vocab.TermStats{Docs: a.Terms.Docs + b.Terms.Docs, DF: slices.Clone(a.Terms.DF), TF: slices.Clone(a.Terms.TF)}
		for j, d := range b.Terms.DF {
			out.Terms.DF[j] += d
			out.Terms.TF[j] += b.Terms.TF[j]
		}
		return out, nil
	}
	out.Terms = *vocab.MergeTermStats(&a.Terms, &b.Terms)
	return out, nil
}

// validate reports statistics that no DocFreqCounter wrote.
func (d *DocFreqs) validate() error {
	if err := d.Config.validate(); err != nil {
		return err
	}
	if err := checkClassNames(d.Classes); err != nil { // as Load requires of the model
		return fmt.Errorf("%w: %v", ErrStats, err)
	}
	switch {
	case d.Config.Tokenize.Lang == tokenize.Auto:
		return fmt.Errorf("%w: language not resolved", ErrStats)
	case len(d.ClassDocs) != len(d.Classes):
		return fmt.Errorf("%w: %d classes with %d document counts", ErrStats, len(d.Classes), len(d.ClassDocs))
	case classDocs(d.ClassDocs) != d.Docs():
		return fmt.Errorf("%w: the classes hold %d documents, the document frequencies %d", ErrStats, classDocs(d.ClassDocs), d.Docs())
	case d.Config.Vectorizer == Hash && len(d.Terms.DF) != d.Config.hashFeatures():
		return fmt.Errorf("%w: %d hashing columns, want %d", ErrStats, len(d.Terms.DF), d.Config.hashFeatures())
	case d.Config.Vectorizer == Vocab:
		return d.Terms.Validate()
	}
	return nil
}

// classDocs returns the sum of the document counts n, or -1 if one is
// negative.
func classDocs(n []int64) int64 {
	var sum int64
	for _, v := range n {
		if v < 0 {
			return -1
		}
		sum += v
	}
	return sum
}

// Prepared is what the second pass needs: the pruned vocabulary (or the
// hashing columns), the fitted weighting and the classes, all fixed by the
// DocFreqs of the whole corpus. It is safe for concurrent use.
type Prepared struct {
	m     *Model // without a classifier yet
	index map[string]int
	n     int64
}

// Prepare fixes the vocabulary and the weighting from the statistics of the
// whole corpus, as a Trainer would from its documents.
func (d *DocFreqs) Prepare() (*Prepared, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	switch {
	case d.Docs() == 0:
		return nil, ErrNoDocuments
	case len(d.Classes) < 2:
		return nil, fmt.Errorf("%w: every document is labeled %q", ErrOneClass, d.Classes[0])
	}
	m := &Model{Config: d.Config, Classes: slices.Clone(d.Classes), an: tokenize.New(d.Config.Tokenize)}
	m.Config.Alpha = d.Config.alpha()
	var df []int64
	if d.Config.Vectorizer == Hash {
		m.hash = featurehash.Hashing{Features: d.Config.hashFeatures()}
		df = d.Terms.DF
	} else {
		vc := d.Config.Vocab
		if vc.MinDF == 0 {
			vc.MinDF = d.Terms.MinDFFor(d.Config.maxTableSize()/len(d.Classes), vc.MaxFeatures)
		}
		m.Config.Vocab.MinDF = vc.MinDF
		var err error
		if m.vocab, df, err = d.Terms.Select(vocab.Config(vc)); err != nil {
			return nil, err
		}
	}
	if err := m.fitWeightingDF(int(d.Docs()), func() []int64 { return df }); err != nil {
		return nil, err
	}
	p := &Prepared{m: m, index: map[string]int{}, n: d.Docs()}
	for i, c := range m.Classes {
		p.index[c] = i
	}
	return p, nil
}

// Config returns the configuration the model will record.
func (p *Prepared) Config() Config { return p.m.Config }

// Classes returns the classes, in the order of the model.
func (p *Prepared) Classes() []string { return slices.Clone(p.m.Classes) }

// NumFeatures returns the number of columns.
func (p *Prepared) NumFeatures() int {
	if p.m.vocab != nil {
		return p.m.vocab.Len()
	}
	return p.m.hash.Cols()
}

// A Summer weights a part's documents as training does and sums them per
// class. It is not safe for concurrent use; use one per worker and merge
// their Sums.
type Summer struct {
	p       *Prepared
	pred    *Predictor
	y       []int
	pending *vectorize.CSR
	sums    *compact.Counts
}

// summerBatch is the entries a Summer holds before it adds them to its sums.
const summerBatch = 1 << 20

// NewSummer returns an empty Summer.
func (p *Prepared) NewSummer() *Summer {
	return &Summer{p: p, pred: p.m.NewPredictor(), pending: vectorize.NewCSR(p.NumFeatures())}
}

// Row appends text's weighted row, as training weights it, to idx and val.
// The slices are valid until the Summer's next call.
func (s *Summer) Row(text string) ([]int32, []float64) { return s.pred.row(text) }

// Add weights one document and adds it to its class's sums. An empty
// label (ErrEmptyLabel) or one that the first pass did not see is an
// error.
func (s *Summer) Add(label, text string) error {
	if label == "" {
		return ErrEmptyLabel
	}
	c, ok := s.p.index[label]
	if !ok {
		return fmt.Errorf("%w: class %q was not counted in the first pass", ErrStats, label)
	}
	idx, val := s.pred.row(text)
	s.pending.AppendRow(idx, val)
	s.y = append(s.y, c)
	if s.pending.NNZ() >= summerBatch {
		return s.fold()
	}
	return nil
}

// fold adds the pending rows to the sums.
func (s *Summer) fold() error {
	m := s.p.m
	c, err := compact.CountRows(m.newEstimator(), s.pending.Cols, s.y, len(m.Classes),
		func(i int, idx []int32, val []float64) ([]int32, []float64) {
			ri, rv := s.pending.Row(i)
			return append(idx, ri...), append(val, rv...)
		})
	if err != nil {
		return err
	}
	if s.sums != nil {
		if c, err = compact.Merge(s.sums, c); err != nil {
			return err
		}
	}
	s.sums, s.y, s.pending = c, s.y[:0], vectorize.NewCSR(s.pending.Cols)
	return nil
}

// Sums returns the class sums of the documents added, with their class
// counts: statistics that compact.Merge combines across parts.
func (s *Summer) Sums() (*compact.Counts, error) {
	if err := s.fold(); err != nil {
		return nil, err
	}
	return s.sums, nil
}

// Build makes the model from the merged class sums of every part.
func (p *Prepared) Build(sums *compact.Counts) (*Model, error) {
	m := &Model{Config: p.m.Config, Classes: slices.Clone(p.m.Classes), an: p.m.an, vocab: p.m.vocab, hash: p.m.hash, weight: p.m.weight}
	switch {
	case sums == nil:
		return nil, fmt.Errorf("%w: no class sums", ErrStats)
	case sums.Classes != len(m.Classes) || sums.Features != p.NumFeatures():
		return nil, fmt.Errorf("%w: sums of %d classes × %d features, want %d × %d",
			ErrStats, sums.Classes, sums.Features, len(m.Classes), p.NumFeatures())
	}
	var docs float64
	for _, c := range sums.ClassCount {
		docs += c
	}
	if docs != float64(p.n) {
		return nil, fmt.Errorf("%w: the sums hold %g documents, the document frequencies %d", ErrStats, docs, p.n)
	}
	m.counts = sums
	if err := m.refit(); err != nil {
		return nil, err
	}
	if err := m.finite(); err != nil {
		return nil, err
	}
	return m, nil
}
