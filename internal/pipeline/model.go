package pipeline

import (
	"sync"

	"gonum.org/v1/gonum/floats"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/idf"
	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/tokencore"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// tokens is the machinery of tokenize that the engine uses: workers of
// its own, the cutting of long texts and the language detector.
var tokens = tokencore.Get[*tokenize.Analyzer, tokenize.Lang]()

// Model is a trained pipeline: it turns raw text into class scores. A Model
// is safe for concurrent use; each goroutine should use its own Predictor.
type Model struct {
	Config  Config
	Classes []string
	// LabelField and TextField name the columns (or JSON fields) of the
	// training corpus that held labels and texts, when they were not the
	// usual "label" and "text", so that eval and predict read the same
	// layout. A model file stores them; older builds ignore them.
	LabelField, TextField string
	// Threshold, if set, decides a two-class model's predictions (see
	// Decide); a model file stores it, and older files, without one,
	// predict the most probable class.
	Threshold *Threshold
	// MailInput and MailFeatures say how a training corpus that held mail
	// was read: its input ("auto" or "mail", as corpus.Input's
	// UnmarshalText reads them) and the mail feature groups rendered (as mail.Features
	// reads them), so that predict and serve decode raw mail the same way.
	// Both are "" for a model trained on text: its inputs read as text.
	MailInput, MailFeatures string
	// Chosen is what cross-validation chose the model's settings from, or
	// nil if training chose nothing (settings given, Config.Fast, or a
	// fallback: see Summary.Fallback).
	Chosen *Choice
	// Learned is what Learn and Unlearn did to the model since training.
	Learned Learned

	// mu guards what Learn changes: Predictors hold it to read, Learn to
	// write. stale says that the learner's counts are ahead of counts and
	// lin, and that scores come from the learner (see settle).
	mu      sync.RWMutex
	learner *learner
	stale   bool

	an     *tokenize.Analyzer
	vocab  *vocab.Vocabulary // nil with the hashing vectorizer
	hash   featurehash.Hashing
	weight weighting       // nil: none
	lin    *compact.Linear // the classifier's scoring form; without Delta if lazy is set
	// lazy computes lin's cell weights from counts when a trained model's
	// are too many to hold as well (see refitLazy); full returns lin with
	// them, computed on first use.
	lazy *compact.LazyLinear
	full func() *compact.Linear
	// scorer returns lin's scorer: made when a model is loaded, which
	// checks lin, or on first use after training.
	scorer func() *compact.Scorer
	// classCount is the number of training documents per class.
	classCount []float64
	// calibration, if set, scales the scores that Proba normalizes.
	calibration *Calibration

	counts     *compact.Counts
	countsRaw  []byte // undecoded counts of a loaded model
	countsOnce sync.Once
	countsErr  error
}

// NumFeatures returns the number of columns of the model.
func (m *Model) NumFeatures() int {
	n := 0
	if m.readLocked(func() { n = m.lin.NumFeatures() }) != nil {
		m.mu.RLock()
		defer m.mu.RUnlock()
		return m.lin.NumFeatures()
	}
	return n
}

// Labels returns the model's classes, as Classes holds them, safe to call
// while another goroutine learns (which may add a class).
func (m *Model) Labels() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.Classes
}

// fitWeighting fits the configured weighting on X and weights X in place.
func (m *Model) fitWeighting(X *vectorize.CSR) error {
	m.weight = m.newWeighting()
	if m.weight == nil {
		return nil
	}
	if err := m.weight.Fit(X); err != nil {
		return err
	}
	return m.weight.Transform(X)
}

// weighting is TFIDF or Rennie.
type weighting interface {
	Fit(X *vectorize.CSR) error
	Transform(X *vectorize.CSR) error
	TransformRow(idx []int32, val []float64) error
}

// newWeighting returns the configured weighting, unfitted, or nil if there
// is none.
func (m *Model) newWeighting() weighting {
	if m.Config.Classifier == Bernoulli {
		return nil // Bernoulli sees only presence, which weighting keeps
	}
	switch m.Config.Weighting {
	case TFIDF:
		return m.Config.TFIDFOptions.transformer(nil)
	case Rennie:
		return &vectorize.Rennie{}
	}
	return nil
}

// fitDF fits w on the document frequencies df of n documents, as its Fit
// of their matrix would; on error w is unchanged.
func fitDF(w weighting, n int, df []int64) error {
	var weights []float64
	var err error
	switch w := w.(type) {
	case *vectorize.TFIDF:
		weights, err = idf.TFIDF(n, df, !w.NoSmoothIDF)
	case *vectorize.Rennie:
		weights, err = idf.Rennie(n, df)
	}
	if err == nil {
		*weightsOf(w) = weights
	}
	return err
}

// idf returns where the weighting keeps its column weights, or nil if
// there is no weighting.
func (m *Model) idf() *[]float64 {
	switch w := m.weight.(type) {
	case *vectorize.TFIDF:
		return &w.IDF
	case *vectorize.Rennie:
		return &w.IDF
	}
	return nil
}

// refit recomputes the classifier's tables from m.counts.
func (m *Model) refit() error { return m.refitLin(false) }

// setLin makes lin the classifier's scoring form. Its scorer is s if given
// (a loaded model's, made as lin was checked), else made on first use.
func (m *Model) setLin(lin *compact.Linear, s *compact.Scorer) {
	m.lin, m.lazy, m.full = lin, nil, nil
	if s != nil {
		m.scorer = func() *compact.Scorer { return s }
		return
	}
	m.scorer = sync.OnceValue(func() *compact.Scorer {
		s, err := m.linear().Scorer()
		if err != nil { // training fits lin from counts it has checked
			panic("pipeline: trained classifier is malformed: " + err.Error())
		}
		return s
	})
}

// lazyCells is the number of cells from which a trained model computes
// its cell weights on demand (see refitLazy): 32 MiB of them.
var lazyCells = 1 << 22

// refitLazy is refit, but a model of lazyCells cells or more leaves its
// cell weights to be computed from m.counts on demand: saving writes them
// a block at a time, and prediction computes them all on first use. A
// large model then does not hold them while it is saved, which for the
// hashing vectorizer's would be as much again as its counts.
func (m *Model) refitLazy() error { return m.refitLin(len(m.counts.Count) >= lazyCells) }

// refitLin is refit, with the cell weights left lazy if lazy is set.
func (m *Model) refitLin(lazy bool) error {
	m.classCount = append([]float64(nil), m.counts.ClassCount...)
	if !lazy {
		lin, err := compact.Fit(m.newEstimator(), m.counts)
		if err != nil {
			return err
		}
		m.setLin(lin, nil)
		return nil
	}
	l, err := compact.FitLazy(m.newEstimator(), m.counts)
	if err != nil {
		return err
	}
	m.setLin(l.Shape(), nil)
	m.lazy, m.full = l, sync.OnceValue(l.Linear)
	return nil
}

// linear returns the classifier's scoring form with its cell weights,
// computing them if they are lazy.
func (m *Model) linear() *compact.Linear {
	if m.full != nil {
		return m.full()
	}
	return m.lin
}

// trainingPriors returns the class frequencies of the training data. The
// priors that the model's probabilities assume are PosteriorPriors: Complement
// NB, like scikit-learn's, leaves the class prior out of its scores.
func (m *Model) trainingPriors() []float64 {
	p := append([]float64(nil), m.classCount...)
	floats.Scale(1/floats.Sum(p), p)
	return p
}

// textEstimator is a text model that compact.Fit fits from sparse counts:
// O(features + non-zero counts) memory instead of classes × features.
type textEstimator interface {
	nb.Estimator
}

// newEstimator returns an unfitted classifier as configured.
func (m *Model) newEstimator() textEstimator {
	a := m.Config.alpha()
	switch m.Config.Classifier {
	case Multinomial:
		return &nb.Multinomial{Alpha: a, UniformPrior: m.Config.UniformPrior}
	case Bernoulli:
		return &nb.Bernoulli{Alpha: a, UniformPrior: m.Config.UniformPrior}
	}
	return &nb.Complement{Alpha: a, Norm: m.Config.Norm, UniformPrior: m.Config.UniformPrior}
}

// ngramsOf returns the word n-gram range of analyzer a, for the vectorizer.
func ngramsOf(a *tokenize.Analyzer) ngrams.Range {
	r := a.Config().WordNGrams
	return ngrams.Range{Min: r.Min, Max: r.Max}
}

// A Predictor scores documents with a Model, reusing its buffers and its
// tokencore.Worker (which, with stemming, remembers up to 65,536 words: about
// 5 MB). It is not safe for concurrent use; make one per goroutine.
type Predictor struct {
	m            *Model
	tok          tokencore.Worker
	ngrams       ngrams.Range
	terms, extra []string
	hashes       []uint64 // scratch of the vocabulary
	murmurs      []uint32 // scratch of the hashing vectorizer
	idx          []int32
	val          []float64
	jll          []float64
	sum          rowSum // of a long document's pieces
	// known and unknown are the occurrences of the last row's terms that
	// the vocabulary holds (as the row counts them) and lacks (Coverage).
	known   float64
	unknown int
	// text is the document whose row idx, val, terms and extra hold, if
	// rowOK: Explain after Proba of the same text tokenizes it once.
	text  string
	rowOK bool
	// grow, if positive, is the vocabulary size up to which rows add the
	// terms the vocabulary lacks (a learner's Predictor).
	grow int
}

// NewPredictor returns a Predictor for m.
func (m *Model) NewPredictor() *Predictor {
	return &Predictor{m: m, tok: tokens.NewWorker(m.an), ngrams: ngramsOf(m.an)}
}

// row appends text's weighted feature row to the Predictor's buffers and
// returns it; the slices are valid until the next call.
func (p *Predictor) row(text string) (idx []int32, val []float64) {
	m := p.m
	p.rawRow(text)
	// The weightings cannot fail here: the ids come from m's own vocabulary
	// or hashing, and loading checked that the IDF covers every column.
	if m.weight != nil {
		_ = m.weight.TransformRow(p.idx, p.val)
	}
	p.text, p.rowOK = text, true
	return p.idx, p.val
}

// rawRow sets the Predictor's row to text's counts and returns it.
func (p *Predictor) rawRow(text string) (idx []int32, val []float64) {
	p.unknown = 0
	if len(text) <= longText {
		p.terms, p.extra = p.tok.Words(p.terms[:0], p.extra[:0], text)
		p.idx, p.val = p.piece(p.idx[:0], p.val[:0], p.terms, 0, p.extra)
	} else {
		var idx []int32
		var val []float64
		idx, val, p.terms, p.extra = p.sum.long(p.tok, p.terms, p.extra, text, contextOf(p.ngrams), p.piece)
		p.idx, p.val = append(p.idx[:0], idx...), append(p.val[:0], val...)
		p.sum.release(maxRowBuffer)
	}
	if p.m.vocab != nil && p.m.Config.Vocab.Binary {
		for i := range p.val { // as the training rows were (vocab.Config.Binary)
			p.val[i] = 1
		}
	}
	p.known = 0
	for _, v := range p.val {
		p.known += v
	}
	return p.idx, p.val
}

// Coverage returns, for the last text the Predictor scored, the
// occurrences of its terms that the model holds, as its row counts them
// (once a document for a Vocab.Binary model), and the occurrences of those
// it lacks, which the scores leave out. With the hashing vectorizer every
// term has a column: unknown is 0.
func (p *Predictor) Coverage() (known float64, unknown int) { return p.known, p.unknown }

// piece appends the row of the n-grams that end in words[from:] and of
// the extra terms.
func (p *Predictor) piece(idx []int32, val []float64, words []string, from int, extra []string) ([]int32, []float64) {
	if v := p.m.vocab; v != nil && p.grow > 0 {
		idx, val, p.hashes = v.GrowWordsFrom(idx, val, p.hashes, words, from, p.ngrams, extra, p.grow)
	} else if v != nil {
		idx, val, p.hashes = v.TransformWordsCounting(idx, val, p.hashes, words, from, p.ngrams, extra, &p.unknown)
	} else {
		idx, val, p.murmurs = p.m.hash.TransformWordsFrom(idx, val, p.murmurs, words, from, p.ngrams, extra)
	}
	return idx, val
}

// JointLogLikelihood appends one unnormalized log posterior per class.
func (p *Predictor) JointLogLikelihood(dst []float64, text string) []float64 {
	m := p.m
	m.mu.RLock()
	defer m.mu.RUnlock()
	idx, val := p.row(text)
	return m.score(dst, idx, val)
}

// score appends the scores of a weighted row; the caller holds m.mu.
func (m *Model) score(dst []float64, idx []int32, val []float64) []float64 {
	if l := m.learner; l != nil && l.fast && m.stale {
		return l.live.JointLogLikelihood(dst, idx, val)
	}
	return m.scorer().JointLogLikelihood(dst, idx, val)
}

// Proba appends the class probabilities of text, calibrated if the model
// is (Model.Calibration), and returns them with the index of the class
// predicted: the most probable (ties: the first class), or the one the
// model's Threshold decides on the calibrated probabilities.
func (p *Predictor) Proba(dst []float64, text string) ([]float64, int) {
	p.jll = p.JointLogLikelihood(p.jll[:0], text)
	n := len(dst)
	dst, best := p.m.calibration.proba(dst, p.jll)
	if t := p.m.Threshold; t != nil {
		return dst, t.Decide(dst[n:])
	}
	return dst, best
}
