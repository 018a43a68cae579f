package textnb

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/roc"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/nb"
)

// OnlineOptions configure EvalOnline. The zero value replays documents
// with immediate feedback: each is classified, then learned, by a model
// that starts empty with the zero Config.
type OnlineOptions struct {
	// Start is the model to start from; EvalOnline teaches it the
	// documents. Nil: an empty start with Config.
	Start *Model
	// Config configures an empty start: a model is trained, with Fast
	// set (nothing is known to cross-validate on), once the documents
	// learned hold two classes, and learns every document after. Its
	// Weighting is used as given: a TF-IDF refits the IDF at each document
	// learned, O(model) a document, as RawCounts does not.
	//
	// Config.Select, if set, selects the terms before each batch from the
	// documents learned so far, as Train would select them from those
	// documents; Vocab.MaxFeatures is then not applied, as every term is
	// counted. The terms are scored on raw counts of the vocab vectorizer,
	// and Binary ones for every method but Chi2, which count documents.
	Config Config
	// Batch is the number of documents classified before they are learned:
	// 0 or 1 learns each before the next is classified; Metsis et al.
	// learn every 100.
	Batch int
	// LearnErrors learns only the documents classified wrongly (train on
	// error), and every document while there is no model yet.
	LearnErrors bool
	// Warmup, if positive, also scores the documents after the first
	// Warmup apart: OnlineResult.AfterWarmup.
	Warmup int
	// Unseen also scores the terms that no learned document held, by each
	// class's Good–Turing unseen mass (its share of terms counted once, in
	// it alone), and the known terms by the rest. It needs an empty start
	// of a Multinomial NB on raw counts of the vocab vectorizer, not
	// Binary, and no Select.
	Unseen bool
	// Positive is the positive class of a two-class corpus, by whose
	// log-odds the ROC ranks; "": the class with fewer documents, the
	// second in order if they tie.
	Positive string
	// Progress, if set, is called with 1 and the text's bytes after each
	// document is classified.
	Progress func(docs int, bytes int64)
}

// OnlineResult is what EvalOnline found.
type OnlineResult struct {
	// All scores the classification of every document, AfterWarmup of
	// those after the first Warmup (nil unless 0 < Warmup < documents).
	// Their classes are the start model's, then the labels only the
	// documents have, in their order; or, from an empty start, every
	// label sorted. With two classes the ROC ranks by the log-odds of the
	// positive class, which do not saturate as probabilities do on long
	// documents.
	All, AfterWarmup *metrics.Evaluation
	// Learned counts the documents learned.
	Learned int
	// Model is the model at the end; nil if the documents learned never
	// held two classes.
	Model *Model
}

// EvalOnline replays docs in their order, as the TREC spam track does:
// each batch of documents is classified by the model that learned the
// documents before it, then learned. Bad options are ErrConfig, and are
// checked before any document: EvalOnline(nil, opt) checks opt alone.
func EvalOnline(docs []corpus.Document, opt OnlineOptions) (OnlineResult, error) {
	l := &onlineLearner{unseen: opt.Unseen}
	if opt.Start != nil {
		if opt.Unseen || opt.Config.Select.Method != pipeline.NoSelect {
			return OnlineResult{}, fmt.Errorf("%w: Unseen and Config.Select score raw counts from an empty start; a Start model has its settings", ErrConfig)
		}
		l.setModel(opt.Start.m)
	} else {
		cfg := opt.Config
		cfg.Fast = true
		if err := onlineUsable(cfg, opt.Unseen); err != nil {
			return OnlineResult{}, err
		}
		if cfg.Select.Method != pipeline.NoSelect {
			l.sel = cfg.Select
			cfg.Select = pipeline.Selection{}
			cfg.Vocab.MaxFeatures = 0 // every term is counted; each batch selects from them
		}
		if _, err := pipeline.NewTrainer(cfg); err != nil {
			return OnlineResult{}, err
		}
		l.cfg = cfg
	}
	classes, counts := onlineClasses(l.m, docs)
	pos := -1 // the positive class of a two-class corpus
	if len(classes) == 2 {
		switch {
		case opt.Positive != "":
			if pos = slices.Index(classes, opt.Positive); pos < 0 {
				return OnlineResult{}, fmt.Errorf("%w: positive class %q: want one of the corpus's classes %s", ErrConfig, opt.Positive, strings.Join(classes, ", "))
			}
		case counts[0] < counts[1]:
			pos = 0
		default:
			pos = 1
		}
	}
	batch := max(opt.Batch, 1)
	all, after := newOnlineScorer(classes, pos), newOnlineScorer(classes, pos)
	var res OnlineResult
	var learn []pipeline.Example
	for i := 0; i < len(docs); i += batch {
		docs := docs[i:min(i+batch, len(docs))]
		learn = learn[:0]
		if err := l.beforeBatch(); err != nil {
			return OnlineResult{}, fmt.Errorf("before document %d (%s): %w", i+1, docs[0].Source, err)
		}
		for k, d := range docs {
			p, c, score, err := l.classify(classes, pos, d.Text)
			if err != nil {
				return OnlineResult{}, fmt.Errorf("%s: %w", d.Source, err)
			}
			all.add(d.Label, c, p, score)
			if i+k >= opt.Warmup {
				after.add(d.Label, c, p, score)
			}
			if !opt.LearnErrors || l.m == nil || classes[c] != d.Label {
				learn = append(learn, pipeline.Example{Label: d.Label, Text: d.Text})
			}
			if opt.Progress != nil {
				opt.Progress(1, int64(len(d.Text)))
			}
		}
		if err := l.learn(learn); err != nil {
			return OnlineResult{}, fmt.Errorf("learning documents %d–%d: %w", i+1, i+len(docs), err)
		}
		res.Learned += len(learn)
	}
	if l.m != nil {
		res.Model = opt.Start
		if res.Model == nil {
			res.Model = newModel(l.m)
		}
	}
	res.All = all.result()
	if opt.Warmup > 0 && len(docs) > opt.Warmup {
		res.AfterWarmup = after.result()
	}
	return res, nil
}

// onlineUsable says why an empty start of cfg cannot select its terms
// before each batch, or score the unseen terms, if it cannot: both are
// scored on the model's raw counts (pipeline.Model.Selected and
// UnseenMass), and the unseen mass counts occurrences.
func onlineUsable(cfg Config, unseen bool) error {
	sel := cfg.Select.Method
	switch {
	case sel != pipeline.NoSelect && (cfg.Vectorizer != pipeline.Vocab || cfg.Weighting != pipeline.RawCounts):
		return fmt.Errorf("%w: selecting terms online scores them on raw counts of the vocab vectorizer (not weighting %v, vectorizer %v)",
			ErrConfig, cfg.Weighting, cfg.Vectorizer)
	case sel != pipeline.NoSelect && sel != pipeline.Chi2 && !cfg.Vocab.Binary:
		return fmt.Errorf("%w: selecting terms by %v online counts documents: it needs Binary counts, the documents of each class that hold a term", ErrConfig, sel)
	case !unseen:
		return nil
	case sel != pipeline.NoSelect:
		return fmt.Errorf("%w: scoring the unseen terms scores the terms outside the vocabulary; a selection leaves terms of the vocabulary out", ErrConfig)
	case cfg.Classifier != pipeline.Auto && cfg.Classifier != pipeline.Multinomial:
		return fmt.Errorf("%w: scoring the unseen terms completes a Multinomial NB's probabilities (mnb, or auto for two classes), not %v", ErrConfig, cfg.Classifier)
	case cfg.Vectorizer != pipeline.Vocab || cfg.Weighting != pipeline.RawCounts || cfg.Vocab.Binary:
		return fmt.Errorf("%w: scoring the unseen terms estimates the unseen mass from raw counts of term occurrences: the vocab vectorizer, counts weighting, not binary", ErrConfig)
	}
	return nil
}

// onlineClasses returns the classes an online evaluation scores, in the
// order of m's classes then of the labels that only docs have (seen
// order), or sorted without a model, with the documents of each.
func onlineClasses(m *pipeline.Model, docs []corpus.Document) ([]string, []int) {
	var classes []string
	if m != nil {
		classes = slices.Clone(m.Classes)
	}
	known := len(classes)
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	counts := make([]int, len(classes))
	for _, d := range docs {
		i, ok := index[d.Label]
		if !ok {
			i = len(classes)
			index[d.Label] = i
			classes = append(classes, d.Label)
			counts = append(counts, 0)
		}
		counts[i]++
	}
	if known == 0 {
		idx := make([]int, len(classes))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int { return strings.Compare(classes[a], classes[b]) })
		cs, ns := make([]string, len(idx)), make([]int, len(idx))
		for k, i := range idx {
			cs[k], ns[k] = classes[i], counts[i]
		}
		classes, counts = cs, ns
	}
	return classes, counts
}

// onlineLearner is the model of an online evaluation: none until the
// documents learned hold two classes (a model needs them), then the
// model trained on them, which learns each document after.
type onlineLearner struct {
	cfg pipeline.Config
	m   *pipeline.Model
	p   *pipeline.Predictor
	// sel, if set, selects the terms of m before each batch: sm, the model
	// of them, classifies with sp.
	sel pipeline.Selection
	sm  *pipeline.Model
	sp  *pipeline.Predictor
	// unseen scores each occurrence of a term m lacks by logM, the log of
	// the class's unseen mass, and each known one by log1mM as well.
	unseen       bool
	logM, log1mM []float64
	pending      []pipeline.Example // learned before there was a model
	labels       map[string]bool    // of pending
	index        []int              // the scored class of each of m's classes
	jll, pr      []float64
}

func (l *onlineLearner) setModel(m *pipeline.Model) {
	l.m, l.p, l.pending, l.labels = m, m.NewPredictor(), nil, nil
	l.index = l.index[:0]
}

// beforeBatch makes, if there is a model, the model of the selected terms
// from what has been learned if there is a selection, and the unseen mass
// if the unseen terms are scored.
func (l *onlineLearner) beforeBatch() error {
	if l.m == nil {
		return nil
	}
	if l.unseen {
		if c := l.m.Config.Classifier; c != pipeline.Multinomial {
			return fmt.Errorf("%w: scoring the unseen terms completes a Multinomial NB's probabilities; auto chose %v for %d classes (configure mnb)",
				ErrConfig, c, len(l.m.Classes))
		}
		mass, err := l.m.UnseenMass()
		if err != nil {
			return err
		}
		l.logM, l.log1mM = l.logM[:0], l.log1mM[:0]
		for _, v := range mass {
			l.logM, l.log1mM = append(l.logM, math.Log(v)), append(l.log1mM, math.Log1p(-v))
		}
	}
	if l.sel.Method == pipeline.NoSelect {
		return nil
	}
	sm, err := l.m.Selected(l.sel)
	if err != nil {
		return err
	}
	l.sm, l.sp = sm, sm.NewPredictor()
	return nil
}

// classify returns the probabilities of text for classes, the class
// decided, and for a two-class evaluation with positive class pos the
// log-odds of pos, by which ROC ranks. Without a model every class is
// equally likely, and the first is decided.
func (l *onlineLearner) classify(classes []string, pos int, text string) ([]float64, int, float64, error) {
	p := make([]float64, len(classes))
	if l.m == nil {
		for c := range p {
			p[c] = 1 / float64(len(p))
		}
		return p, 0, 0, nil
	}
	mc := l.m.Labels()
	for len(l.index) < len(mc) { // learning added classes
		c := slices.Index(classes, mc[len(l.index)])
		if c < 0 {
			return nil, 0, 0, fmt.Errorf("the model's class %q is not one of the corpus's", mc[len(l.index)])
		}
		l.index = append(l.index, c)
	}
	var best int
	if l.sp != nil { // the selected terms' model: of m's classes, uncalibrated
		l.jll = l.sp.JointLogLikelihood(l.jll[:0], text)
		best = nb.Argmax(l.jll)
		l.pr = nb.Proba(l.pr[:0], l.jll)
	} else if l.m.Calibration() == nil && l.m.Threshold == nil {
		l.jll = l.p.JointLogLikelihood(l.jll[:0], text)
		if l.unseen {
			known, unknown := l.p.Coverage()
			for k := range l.jll {
				l.jll[k] += known*l.log1mM[k] + float64(unknown)*l.logM[k]
			}
		}
		best = nb.Argmax(l.jll)
		l.pr = nb.Proba(l.pr[:0], l.jll)
	} else {
		l.pr, best = l.p.Proba(l.pr[:0], text)
		l.jll = l.p.JointLogLikelihood(l.jll[:0], text)
	}
	for k, v := range l.pr {
		p[l.index[k]] = v
	}
	score := 0.0
	if pos >= 0 {
		// log-odds of pos against the other class, −∞/+∞ while the model
		// lacks one of them
		in, out := math.Inf(-1), math.Inf(-1)
		for k, v := range l.jll {
			if l.index[k] == pos {
				in = v
			} else {
				out = max(out, v)
			}
		}
		switch {
		case math.IsInf(in, -1):
			score = math.Inf(-1)
		case math.IsInf(out, -1):
			score = math.Inf(1)
		default:
			score = in - out
		}
	}
	return p, l.index[best], score, nil
}

// learn adds docs to the model, training it once the documents learned
// hold two classes.
func (l *onlineLearner) learn(docs []pipeline.Example) error {
	if len(docs) == 0 {
		return nil
	}
	if l.m != nil {
		return l.m.LearnBatch(docs)
	}
	if l.labels == nil {
		l.labels = map[string]bool{}
	}
	for _, d := range docs {
		l.pending = append(l.pending, d)
		l.labels[d.Label] = true
	}
	if len(l.labels) < 2 {
		return nil
	}
	tr, err := pipeline.NewTrainer(l.cfg)
	if err != nil {
		return err
	}
	for _, d := range l.pending {
		if err := tr.Add(d.Label, d.Text); err != nil {
			return err
		}
	}
	m, _, err := tr.Finish()
	if err != nil {
		return err
	}
	l.setModel(m)
	return nil
}

// onlineScorer scores a run of documents.
type onlineScorer struct {
	ev       *metrics.Evaluator
	pos      int
	scores   []float64
	positive []bool
	classes  []string
}

func newOnlineScorer(classes []string, pos int) *onlineScorer {
	s := &onlineScorer{ev: metrics.NewEvaluator(classes), pos: pos, classes: classes}
	if pos >= 0 {
		s.ev.Positive = classes[pos]
	}
	return s
}

func (s *onlineScorer) add(truth string, class int, p []float64, score float64) {
	s.ev.AddProba(truth, class, p)
	if s.pos >= 0 {
		s.scores = append(s.scores, score)
		s.positive = append(s.positive, truth == s.classes[s.pos])
	}
}

// result returns the scores, ROC AUC ranked by the log-odds.
func (s *onlineScorer) result() *metrics.Evaluation {
	r := s.ev.Result()
	if b := r.BinaryScores; b != nil {
		points, auc := roc.Curve(s.scores, s.positive)
		b.ROC, b.ROCAUC = points, auc
		for _, f := range metrics.RecallFPRs {
			b.RecallAtFPR[strconv.FormatFloat(f, 'g', -1, 64)] = roc.RecallAt(points, f)
		}
	}
	return &r
}
