package shard

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/textcore"
	"github.com/textnb/textnb/internal/tokencore"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// tokens is the machinery of tokenize that featurizing uses.
var tokens = tokencore.Get[*tokenize.Analyzer, tokenize.Lang]()

// core is pipeline's machinery that training in parts shares with Trainer.
var core = textcore.Get[pipeline.Config, *pipeline.Model, *pipeline.Trainer]()

// ErrStats: statistics of parts cannot be combined.
var ErrStats = errors.New("shard: statistics of parts")

// DocFreqs are the statistics of the first pass over a part of a corpus.
type DocFreqs struct {
	Config    pipeline.Config // Tokenize resolved, as a model records it
	Classes   []string        // in order of first appearance
	ClassDocs []int64         // labeled documents per class
	Empty     int64           // documents without terms
	// terms are the vocabulary's terms with their document frequencies;
	// with the hashing vectorizer, terms.DF is per column and terms.Terms
	// is empty.
	terms vocab.TermStats
}

// Docs returns the number of documents counted.
func (d *DocFreqs) Docs() int64 { return d.terms.Docs }

// NumTerms returns the number of distinct terms counted; 0 with the
// hashing vectorizer, which keeps none.
func (d *DocFreqs) NumTerms() int { return len(d.terms.Terms) }

// A Featurizer turns documents into the terms that a Trainer with the same
// Config counts: its tokenizer, with every default resolved as the model
// records it, and its word n-grams joined by spaces. It is not safe for
// concurrent use; make one per goroutine.
type Featurizer struct {
	cfg          pipeline.Config
	tok          tokencore.Worker
	r            ngrams.Range
	words, extra []string
}

// NewFeaturizer returns a Featurizer for cfg, whose language must be set:
// every part must tokenize alike, and Lang Auto could decide differently
// from one part to the next.
func NewFeaturizer(cfg pipeline.Config) (*Featurizer, error) {
	if err := core.Validate(cfg); err != nil {
		return nil, err
	}
	if cfg.Reweight > 0 {
		return nil, fmt.Errorf("%w (%d passes asked)", pipeline.ErrReweighted, cfg.Reweight)
	}
	if cfg.Tokenize.Lang == tokenize.Auto {
		return nil, fmt.Errorf("%w: a Featurizer needs a language, not auto", pipeline.ErrConfig)
	}
	cfg, an := core.Resolve(cfg, cfg.Tokenize.Lang)
	r := an.Config().WordNGrams
	return &Featurizer{cfg: cfg, tok: tokens.NewWorker(an), r: ngrams.Range{Min: r.Min, Max: r.Max}}, nil
}

// resolveLang returns cfg with Lang Auto replaced by the language of
// sample, as a Trainer decides it from the first 64 KiB of its documents.
func resolveLang(cfg pipeline.Config, sample string) pipeline.Config {
	if cfg.Tokenize.Lang == tokenize.Auto {
		d := tokens.NewLangDetector()
		d.Add(sample)
		cfg.Tokenize.Lang = d.Lang()
	}
	return cfg
}

// Config returns the Featurizer's configuration with every default spelled
// out, as a model trained with it records it.
func (f *Featurizer) Config() pipeline.Config { return f.cfg }

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

// hashRow appends the counts of text's terms to idx and val, as the hashing
// vectorizer of f's Config gives them: only for Vectorizer Hash.
func (f *Featurizer) hashRow(h featurehash.Hashing, idx []int32, val []float64, hashes []uint32, text string) ([]int32, []float64, []uint32) {
	f.words, f.extra = f.tok.Words(f.words[:0], f.extra[:0], text)
	return h.TransformWords(idx, val, hashes, f.words, f.r, f.extra)
}

// A DocFreqCounter counts the DocFreqs of a part of a corpus. It is not
// safe for concurrent use.
type DocFreqCounter struct {
	cfg     pipeline.Config
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
func NewDocFreqCounter(cfg pipeline.Config) (*DocFreqCounter, error) {
	if err := core.Validate(cfg); err != nil {
		return nil, err
	}
	if cfg.Semi.Method != pipeline.NoSemi {
		return nil, fmt.Errorf("%w: semi-supervised training (%v) cannot be done in parts: each round rescores every document", pipeline.ErrConfig, cfg.Semi.Method)
	}
	if cfg.Reweight > 0 {
		return nil, fmt.Errorf("%w (%d passes asked)", pipeline.ErrReweighted, cfg.Reweight)
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
	c.f, c.err = NewFeaturizer(resolveLang(c.cfg, sample.String()))
	if c.err != nil {
		return
	}
	c.d.Config = c.f.Config()
	if c.cfg.Vectorizer == pipeline.Hash {
		c.hash = featurehash.Hashing{Features: core.HashFeatures(c.cfg)}
		c.d.terms.DF = make([]int64, c.hash.Cols())
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
		return pipeline.ErrEmptyLabel
	}
	if c.f == nil && c.err == nil {
		c.pending = append(c.pending, labeled{label, text})
		if c.sampled += len(text); c.sampled >= core.LangSample {
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
	c.d.terms.Docs++
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
		c.d.terms.DF[j]++
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
		d.terms.DF = slices.Clone(d.terms.DF)
		d.terms.TF = make([]int64, len(d.terms.DF)) // not needed: hashing does not prune
		return &d, nil
	}
	merged, err := vocab.Merge(c.vocab)
	if err != nil {
		return nil, err
	}
	d.terms = *merged.TermStats()
	return &d, nil
}

// MergeDocFreqs returns the statistics of a's documents followed by b's.
// Their configurations, language included, must be equal.
func MergeDocFreqs(a, b *DocFreqs) (*DocFreqs, error) {
	if setting, va, vb := core.Difference(a.Config, b.Config); setting != "" {
		return nil, fmt.Errorf("%w: the parts differ in %s (%v, %v)", ErrStats, setting, va, vb)
	}
	hash := a.Config.Vectorizer == pipeline.Hash
	if hash && len(a.terms.DF) != len(b.terms.DF) {
		return nil, fmt.Errorf("%w: %d and %d hashing columns", ErrStats, len(a.terms.DF), len(b.terms.DF))
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
		out.terms = vocab.TermStats{Docs: a.terms.Docs + b.terms.Docs, DF: slices.Clone(a.terms.DF), TF: slices.Clone(a.terms.TF)}
		for j, d := range b.terms.DF {
			out.terms.DF[j] += d
			out.terms.TF[j] += b.terms.TF[j]
		}
		return out, nil
	}
	out.terms = *vocab.MergeTermStats(&a.terms, &b.terms)
	return out, nil
}

// validate reports statistics that no DocFreqCounter wrote.
func (d *DocFreqs) validate() error {
	if err := core.Validate(d.Config); err != nil {
		return err
	}
	if err := modelfile.CheckClassNames(d.Classes); err != nil { // as Load requires of the model
		return fmt.Errorf("%w: %v", ErrStats, err)
	}
	switch {
	case d.Config.Tokenize.Lang == tokenize.Auto:
		return fmt.Errorf("%w: language not resolved", ErrStats)
	case len(d.ClassDocs) != len(d.Classes):
		return fmt.Errorf("%w: %d classes with %d document counts", ErrStats, len(d.Classes), len(d.ClassDocs))
	case classDocs(d.ClassDocs) != d.Docs():
		return fmt.Errorf("%w: the classes hold %d documents, the document frequencies %d", ErrStats, classDocs(d.ClassDocs), d.Docs())
	case d.Config.Vectorizer == pipeline.Hash && len(d.terms.DF) != core.HashFeatures(d.Config):
		return fmt.Errorf("%w: %d hashing columns, want %d", ErrStats, len(d.terms.DF), core.HashFeatures(d.Config))
	case d.Config.Vectorizer == pipeline.Vocab:
		return d.terms.Validate()
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
	m        *pipeline.Model // without a classifier yet
	index    map[string]int
	n        int64
	features int
}

// Prepare fixes the vocabulary and the weighting from the statistics of the
// whole corpus, as a Trainer would from its documents.
func (d *DocFreqs) Prepare() (*Prepared, error) {
	if err := d.validate(); err != nil {
		return nil, err
	}
	switch {
	case d.Docs() == 0:
		return nil, pipeline.ErrNoDocuments
	case len(d.Classes) < 2:
		return nil, fmt.Errorf("%w: every document is labeled %q", pipeline.ErrOneClass, d.Classes[0])
	}
	cfg := d.Config
	var (
		v        *vocab.Vocabulary
		h        featurehash.Hashing
		df       []int64
		features int
	)
	if cfg.Vectorizer == pipeline.Hash {
		h = featurehash.Hashing{Features: core.HashFeatures(cfg)}
		df, features = d.terms.DF, h.Cols()
	} else {
		vc := cfg.Vocab
		if vc.MinDF == 0 {
			vc.MinDF = d.terms.MinDFFor(core.MaxTableSize(cfg)/len(d.Classes), vc.MaxFeatures)
		}
		cfg.Vocab.MinDF = vc.MinDF
		var err error
		if v, df, err = d.terms.Select(vocab.Config(vc)); err != nil {
			return nil, err
		}
		features = v.Len()
	}
	m, err := core.NewModel(cfg, d.Classes, v, h, int(d.Docs()), df)
	if err != nil {
		return nil, err
	}
	p := &Prepared{m: m, index: map[string]int{}, n: d.Docs(), features: features}
	for i, c := range m.Classes {
		p.index[c] = i
	}
	return p, nil
}

// Config returns the configuration the model will record.
func (p *Prepared) Config() pipeline.Config { return p.m.Config }

// Classes returns the classes, in the order of the model.
func (p *Prepared) Classes() []string { return slices.Clone(p.m.Classes) }

// NumFeatures returns the number of columns.
func (p *Prepared) NumFeatures() int { return p.features }

// A Summer weights a part's documents as training does and sums them per
// class. It is not safe for concurrent use; use one per worker and merge
// their Sums.
type Summer struct {
	p       *Prepared
	row     func(text string) ([]int32, []float64)
	y       []int
	pending *vectorize.CSR
	sums    *compact.Counts
	// table is the hashing vectorizer's sums, Classes×Features: nearly
	// every cell of a large corpus's hashed sums is non-zero, so one dense
	// table that every batch adds to costs less than sparse sums merged
	// anew at every batch. shared: Sums handed it out, so the next batch
	// copies it first.
	table  *nb.Counts
	shared bool
}

// summerBatch is the entries a Summer holds before it adds them to its sums.
const summerBatch = 1 << 20

// denseCells bounds the cells of a dense table of class sums (8 bytes
// each): the hashing vectorizer's 2^20 columns for up to 32 classes.
const denseCells = 1 << 25

// NewSummer returns an empty Summer.
func (p *Prepared) NewSummer() *Summer {
	return &Summer{p: p, row: core.Row(p.m), pending: vectorize.NewCSR(p.NumFeatures())}
}

// dense reports whether the sums of p's model are kept in a dense table.
func (p *Prepared) dense() bool {
	return p.m.Config.Vectorizer == pipeline.Hash && len(p.m.Classes)*p.features <= denseCells
}

// Add weights one document and adds it to its class's sums. An empty
// label (pipeline.ErrEmptyLabel) or one that the first pass did not see is
// an error.
func (s *Summer) Add(label, text string) error {
	if label == "" {
		return pipeline.ErrEmptyLabel
	}
	c, ok := s.p.index[label]
	if !ok {
		return fmt.Errorf("%w: class %q was not counted in the first pass", ErrStats, label)
	}
	idx, val := s.row(text)
	s.pending.AppendRow(idx, val)
	s.y = append(s.y, c)
	if s.pending.NNZ() >= summerBatch {
		return s.fold()
	}
	return nil
}

// fold adds the pending rows to the sums. A dense table adds them row by
// row in order, as a Trainer's counts do.
func (s *Summer) fold() error {
	m := s.p.m
	if s.p.dense() {
		switch {
		case s.table == nil:
			s.table = nb.NewCounts(core.Estimator(m), len(m.Classes), s.p.features)
		case s.shared:
			s.table = cloneCounts(s.table)
		}
		s.shared = false
		if err := s.table.Add(s.pending, s.y, nil); err != nil {
			return err
		}
		s.y, s.pending = s.y[:0], vectorize.NewCSR(s.pending.Cols)
		return nil
	}
	c, err := compact.CountRows(core.Estimator(m), s.pending.Cols, s.y, len(m.Classes),
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

func cloneCounts(c *nb.Counts) *nb.Counts {
	d := *c
	d.ClassCount, d.FeatureCount = slices.Clone(c.ClassCount), slices.Clone(c.FeatureCount)
	return &d
}

// Sums returns the class sums of the documents added, with their class
// counts.
func (s *Summer) Sums() (*ClassSums, error) {
	if err := s.fold(); err != nil {
		return nil, err
	}
	if s.table != nil {
		s.shared = true
		return &ClassSums{d: s.table}, nil
	}
	return &ClassSums{c: s.sums}, nil
}

// Build makes the model from the merged class sums of every part.
func (p *Prepared) Build(sums *ClassSums) (*pipeline.Model, error) {
	if sums == nil || sums.c == nil && sums.d == nil {
		return nil, fmt.Errorf("%w: no class sums", ErrStats)
	}
	if k, f := sums.shape(); k != len(p.m.Classes) || f != p.NumFeatures() {
		return nil, fmt.Errorf("%w: sums of %d classes × %d features, want %d × %d",
			ErrStats, k, f, len(p.m.Classes), p.NumFeatures())
	}
	c, err := sums.sparse()
	if err != nil {
		return nil, err
	}
	var docs float64
	for _, c := range c.ClassCount {
		docs += c
	}
	if docs != float64(p.n) {
		return nil, fmt.Errorf("%w: the sums hold %g documents, the document frequencies %d", ErrStats, docs, p.n)
	}
	return core.Fit(p.m, c)
}
