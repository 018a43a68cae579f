package multilabel

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/reweight"
	"github.com/textnb/textnb/internal/textcore"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// core is pipeline's machinery that multi-label training shares with
// pipeline.Trainer.
var core = textcore.Get[pipeline.Config, *pipeline.Model, *pipeline.Trainer]()

// Score names how a multi-label model scores each label.
type Score uint8

// The multi-label scores. Both come from one binary naive Bayes model per
// label against the rest, over shared features.
const (
	// ComplementScore, the default, scores label l by the complement
	// ("rest") half of its binary model, as pipeline.Complement NB does, and
	// normalizes the scores over the labels (a softmax): labels compete
	// for a document, which is what per-label thresholds need (it scores
	// better than OddsScore: docs/multilabel.md).
	ComplementScore Score = iota
	// OddsScore scores label l by its binary model's log-odds, each label
	// on its own (a sigmoid).
	OddsScore
)

var scoreNames = [...]string{"complement", "odds"}

func (s Score) String() string {
	if int(s) >= len(scoreNames) {
		return fmt.Sprintf("unknown(%d)", s)
	}
	return scoreNames[s]
}

// MarshalText writes the score's name: "complement" or "odds".
func (s Score) MarshalText() ([]byte, error) {
	if int(s) >= len(scoreNames) {
		return nil, fmt.Errorf("%w: multi-label score %d", pipeline.ErrConfig, s)
	}
	return []byte(scoreNames[s]), nil
}

// UnmarshalText reads a name MarshalText writes, in any letter case.
func (s *Score) UnmarshalText(b []byte) error {
	for i, n := range scoreNames {
		if strings.EqualFold(string(b), n) {
			*s = Score(i)
			return nil
		}
	}
	return fmt.Errorf("%w: multi-label score %q is not one of %s", pipeline.ErrConfig, b, strings.Join(scoreNames[:], ", "))
}

// Config configures multi-label training; the zero value is the
// default. The shared stages (tokenizer, vocabulary, weighting) and Alpha
// come from pipeline.Config; a zero pipeline.Config.Alpha means that α is chosen by
// cross-validation, from Alphas with reweighting and PlainAlphas without.
type Config struct {
	Score Score `json:"score"`
	// Folds is the number of cross-validation folds that thresholds (and
	// α) are learned from; 0 means 5.
	Folds int `json:"folds"`
	// MinPositives is the fewest training documents a label needs for a
	// threshold of its own; rarer labels, and labels whose best
	// cross-validated F1 is below 0.3, get the global cut that maximizes
	// micro-F1 over all labels. 0 means 3.
	MinPositives int `json:"min_positives"`
	// AllowEmpty lets a document get no label; by default a document that
	// no label's threshold admits gets its most probable label.
	AllowEmpty bool `json:"allow_empty"`
	// Title is how many times the first line of a document of several
	// lines (a story's headline, a ticket's subject) is counted, in
	// training and prediction; 0 means 2, and 1 counts it as any other
	// line. A Model's Multi holds the number used.
	Title int `json:"title"`
	// Reweight is the number of passes of discriminative reweighting of
	// the labels' rests (complement score only; see reweighted). 0 means
	// automatic: 10 passes or none, whichever the cross-validation that
	// learns the thresholds scores better; a negative number means none.
	// A Model's Multi holds the number made, -1 for none.
	Reweight int `json:"reweight"`
	// ReweightRate is the rate η of reweighting; 0 means that the
	// cross-validation chooses it from ReweightRates. A Model's Multi holds
	// the rate used, 0 without reweighting.
	ReweightRate float64 `json:"reweight_rate,omitempty"`
	// Seed shuffles documents into folds.
	Seed uint64 `json:"seed"`
}

// Alphas are the α that multi-label training chooses from with
// reweighting; without, PlainAlphas.
var (
	Alphas      = []float64{3}
	PlainAlphas = []float64{0.1, 0.3, 1}
)

func (c Config) folds() int {
	if c.Folds <= 0 {
		return 5
	}
	return c.Folds
}

// defaultTitle is how many times a title counts by default: twice scored
// better than once on Reuters' stories (docs/multilabel.md).
const defaultTitle = 2

// maxTitle bounds Title, which multiplies the text of the title.
const maxTitle = 16

func (c Config) title() int {
	if c.Title == 0 {
		return defaultTitle
	}
	return c.Title
}

func (c Config) minPositives() int {
	if c.MinPositives <= 0 {
		return 3
	}
	return c.MinPositives
}

// minF1 is the cross-validated F1 below which a label's own threshold is
// not trusted (Yang's SCut.FBR).
const minF1 = 0.3

// Model is a trained multi-label pipeline: one binary naive Bayes
// model per label against the rest, over one tokenizer, vocabulary and
// weighting, and a decision threshold per label. It is safe for
// concurrent use; each goroutine should use its own Predictor.
type Model struct {
	Config pipeline.Config
	Multi  Config
	Labels []string
	// Thresholds are the per-label probabilities from which a label is
	// predicted.
	Thresholds []float64
	m          *pipeline.Model // Classes are the labels; its scores are the labels' jll
}

// Summary describes a finished multi-label training run.
type Summary struct {
	Documents, Empty, Labels, Features, MinDF int
	// Unlabeled counts documents without any label (negative for every
	// label).
	Unlabeled int
	// Assignments is the number of document-label pairs.
	Assignments int
	Lang        tokenize.Lang
	Alpha       float64
	// Reweight is the number of reweighting passes made (0: none), at
	// the rate ReweightRate.
	Reweight     int
	ReweightRate float64
	// CVMicroF1 is the micro-F1 of the cross-validated scores under the
	// thresholds learned from them: optimistic, a guide for choosing α
	// and Reweight only. When Reweight was automatic, OtherCVMicroF1 is
	// the best of the other choice's (reweighting or none), else 0.
	CVMicroF1, OtherCVMicroF1 float64
	// FallbackLabels counts the labels that got the global cut.
	FallbackLabels int
	// Selected is the number of terms feature selection kept (0: none).
	Selected int
	Elapsed  time.Duration
}

// Trainer builds a Model from documents given one at a time,
// tokenizing and counting as a pipeline.Trainer does.
type Trainer struct {
	t        *pipeline.Trainer // tokenizes and counts
	mc       Config
	ids      map[string]int
	labels   []string
	sets     [][]int32 // per document, its labels' ids
	finished bool
}

// NewTrainer returns a Trainer. Only the vocabulary vectorizer
// and the pipeline.Complement and pipeline.Multinomial classifiers (which give the same
// binary models) are supported; pipeline.Auto means Complement.
func NewTrainer(cfg pipeline.Config, mc Config) (*Trainer, error) {
	cfg, mc, err := resolve(cfg, mc)
	if err != nil {
		return nil, err
	}
	t, err := pipeline.NewTrainer(cfg)
	if err != nil {
		return nil, err
	}
	return &Trainer{t: t, mc: mc, ids: map[string]int{}}, nil
}

// resolve returns cfg and mc as a Trainer takes them, or the error
// NewTrainer refuses them with, without starting anything.
func resolve(cfg pipeline.Config, mc Config) (pipeline.Config, Config, error) {
	if cfg.Classifier == pipeline.Auto {
		cfg.Classifier = pipeline.Complement // each label's rest model: see Score
	}
	if err := checkMulti(cfg, mc); err != nil {
		return cfg, mc, fmt.Errorf("%w: %v", pipeline.ErrConfig, err)
	}
	if err := core.Validate(cfg); err != nil {
		return cfg, mc, err
	}
	mc.Title = mc.title()
	if mc.Score != ComplementScore {
		mc.Reweight, mc.ReweightRate = -1, 0 // the odds score is not reweighted
	}
	return cfg, mc, nil
}

// checkMulti reports settings that multi-label training does not support;
// a model file holding them is damaged.
func checkMulti(cfg pipeline.Config, mc Config) error {
	switch {
	case cfg.Vectorizer != pipeline.Vocab:
		return errors.New("multi-label training needs the vocab vectorizer")
	case cfg.Classifier == pipeline.Bernoulli:
		return errors.New("multi-label training supports cnb and mnb, not bnb")
	case cfg.Semi.Method != pipeline.NoSemi:
		return errors.New("multi-label training is not semi-supervised")
	case mc.Score > OddsScore, mc.Folds == 1, mc.Folds < 0, mc.MinPositives < 0:
		return fmt.Errorf("multi-label score %d, %d folds, min positives %d", mc.Score, mc.Folds, mc.MinPositives)
	case mc.Title < 0, mc.Title > maxTitle:
		return fmt.Errorf("a title counted %d times, want 1 to %d (0: %d)", mc.Title, maxTitle, defaultTitle)
	case mc.Reweight > maxReweight:
		return fmt.Errorf("%d reweighting passes, at most %d", mc.Reweight, maxReweight)
	case !(mc.ReweightRate >= 0 && mc.ReweightRate <= maxReweightRate):
		return fmt.Errorf("reweighting rate %g, want 0 (chosen) or up to %d", mc.ReweightRate, maxReweightRate)
	}
	return nil
}

// Add queues a document with its labels; repeated labels count once, and a
// document without labels is a negative example for every label. It
// refuses an empty label (pipeline.ErrEmptyLabel) and a Trainer that has
// finished (pipeline.ErrFinished).
func (mt *Trainer) Add(labels []string, text string) error {
	switch {
	case slices.Contains(labels, ""):
		return pipeline.ErrEmptyLabel
	case mt.finished:
		return pipeline.ErrFinished
	}
	set := make([]int32, 0, len(labels))
	for _, l := range labels {
		id, ok := mt.ids[l]
		if !ok {
			id = len(mt.labels)
			mt.ids[l] = id
			mt.labels = append(mt.labels, l)
		}
		if !slices.Contains(set, int32(id)) {
			set = append(set, int32(id))
		}
	}
	slices.Sort(set)
	mt.sets = append(mt.sets, set)
	core.Queue(mt.t, withTitle(text, mt.mc.Title))
	return nil
}

// withTitle returns text with its first line repeated to count times in
// all. A text of one line, or whose first line or rest is blank, has no
// title and is returned as it is.
func withTitle(text string, times int) string {
	i := strings.IndexByte(text, '\n')
	if times <= 1 || i < 0 {
		return text
	}
	title := text[:i+1]
	if strings.TrimSpace(title) == "" || strings.TrimSpace(text[i+1:]) == "" {
		return text
	}
	return strings.Repeat(title, times-1) + text
}

// Abort ends training without a model, for a caller whose input failed
// part way, as pipeline.Trainer.Abort does: it stops the tokenizing
// workers and lets go of everything added. Later calls to Add and Finish
// return ErrFinished.
func (mt *Trainer) Abort() {
	if mt.finished {
		return
	}
	mt.finished = true
	mt.t.Abort()
	mt.sets, mt.labels, mt.ids = nil, nil, nil
}

// Finish trains the model on everything added. A Trainer finishes
// once.
func (mt *Trainer) Finish() (*Model, Summary, error) {
	if mt.finished {
		return nil, Summary{}, pipeline.ErrFinished
	}
	mt.finished = true
	core.Stop(mt.t)
	switch {
	case len(mt.sets) == 0:
		return nil, Summary{}, pipeline.ErrNoDocuments
	case len(mt.labels) < 2:
		return nil, Summary{}, fmt.Errorf("%w: %d labels in all; multi-label training needs two", pipeline.ErrOneClass, len(mt.labels))
	case len(mt.labels) > compact.MaxClasses:
		return nil, Summary{}, fmt.Errorf("%w: %d labels, at most %d", pipeline.ErrConfig, len(mt.labels), compact.MaxClasses)
	}
	var s Summary
	m, r, err := core.MultiRows(mt.t, mt.labels, mt.sets)
	if err != nil {
		return nil, s, err
	}
	s.MinDF, s.Selected = r.MinDF, r.Selected
	f := newOvRFit(r.X, mt.sets, len(mt.labels), mt.mc)
	th, set, all, other, err := f.thresholds(mt.mc.settings(m.Config.Alpha))
	if err != nil {
		return nil, s, err
	}
	lin, err := f.fit(all, set.alpha)
	if err != nil {
		return nil, s, err
	}
	core.SetClassifier(m, set.alpha, f.all.pos, lin)
	mm := &Model{Config: m.Config, Multi: mt.mc, Labels: mt.labels, Thresholds: th.probs, m: m}
	mm.Multi.Reweight, mm.Multi.ReweightRate = set.passes, set.rate // the passes made, -1 for none
	if set.passes == 0 {
		mm.Multi.Reweight = -1
	}
	s.Documents, s.Labels, s.Features, s.Alpha = len(mt.sets), len(mt.labels), r.X.Cols, set.alpha
	s.Empty, s.Lang = r.Empty, m.Config.Tokenize.Lang
	s.Reweight, s.ReweightRate = set.passes, set.rate
	s.CVMicroF1, s.OtherCVMicroF1, s.FallbackLabels = th.microF1, other, th.fallbacks
	for _, set := range mt.sets {
		s.Assignments += len(set)
		if len(set) == 0 {
			s.Unlabeled++
		}
	}
	s.Elapsed = time.Since(r.Start)
	return mm, s, nil
}

// ovrFit fits one-vs-rest models on weighted rows X with label sets.
type ovrFit struct {
	X      *vectorize.CSR
	sets   [][]int32
	labels int
	mc     Config
	all    ovrCounts
	// foldGain's memory: a fold's weights, its gains, the others' gains;
	// foldLin is thresholds' for a fold's model.
	foldWeights       []float64
	foldSum, foldLess *compact.Counts
	foldLin           *compact.Linear
}

// ovrCounts are the sums of a set of documents' rows.
type ovrCounts struct {
	pos  *compact.Counts // per label: its documents' rows; ClassCount: its documents
	tot  []float64       // per feature: every document's rows
	docs int
	// extra is per label what reweighting added to its rest, or nil.
	extra *compact.Counts
}

func newOvRFit(X *vectorize.CSR, sets [][]int32, labels int, mc Config) *ovrFit {
	f := &ovrFit{X: X, sets: sets, labels: labels, mc: mc}
	f.all = f.counts(func(int) bool { return true })
	return f
}

// counts sums the rows for which in is true, per label and in all.
func (f *ovrFit) counts(in func(i int) bool) ovrCounts {
	var y, doc []int // one entry per document-label pair
	c := ovrCounts{tot: make([]float64, f.X.Cols)}
	for i, set := range f.sets {
		if !in(i) {
			continue
		}
		c.docs++
		idx, val := f.X.Row(i)
		for k, j := range idx {
			c.tot[j] += val[k]
		}
		for _, l := range set {
			y, doc = append(y, int(l)), append(doc, i)
		}
	}
	var err error
	c.pos, err = compact.CountRows(nil, f.X.Cols, y, f.labels, func(i int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := f.X.Row(doc[i])
		return append(idx, ri...), append(val, rv...)
	})
	if err != nil { // the rows are weighted counts, checked by the weighting
		panic("multilabel: counts: " + err.Error())
	}
	return c
}

// fit returns the scoring form of the labels' binary models for the sums
// c: reweight.RestLinear of the labels' rows, their rests grown by
// c.extra.
func (f *ovrFit) fit(c ovrCounts, alpha float64) (*compact.Linear, error) {
	return f.fitInto(nil, c, alpha)
}

// fitInto is fit in dst's memory (see reweight.RestLinear).
func (f *ovrFit) fitInto(dst *compact.Linear, c ovrCounts, alpha float64) (*compact.Linear, error) {
	return reweight.RestLinear(dst, c.pos, c.tot, c.docs, c.extra, alpha, f.mc.Score == OddsScore)
}

// logScores turns the labels' jll into log-probabilities in place: a
// softmax over the labels (ComplementScore) or a sigmoid each (OddsScore).
func logScores(score Score, jll []float64) {
	if score == OddsScore {
		for l, v := range jll {
			jll[l] = -softplus(-v)
		}
		return
	}
	reweight.Softmax(jll)
}

// softplus is log(1+e^x) without overflow.
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}
