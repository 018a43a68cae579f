package pipeline

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/vectorize"
)

// Example is one labeled document, for LearnBatch and UnlearnBatch.
type Example struct {
	Label, Text string
}

// Errors of learning (see Model.Learn).
var (
	// ErrNotLearned: Unlearn was given a document whose counts the model
	// does not hold, or a label it does not have.
	ErrNotLearned = errors.New("pipeline: the model does not hold the document to unlearn")
	// ErrNewClass: a document's label is not a class of a model that cannot
	// take a new one (calibrated, or with a threshold).
	ErrNewClass = errors.New("pipeline: the label is not a class of the model")
	// ErrNotLearnable: the model's counts cannot be updated (see
	// Model.Learn).
	ErrNotLearnable = errors.New("pipeline: the model cannot learn")
)

// Learned records what learning did to a model since it was trained: a
// model file stores it, and Inspect shows it.
type Learned struct {
	Documents int `json:"documents"` // learned
	Unlearned int `json:"unlearned"`
	// NewClasses are the classes that learning added.
	NewClasses []string `json:"new_classes,omitempty"`
	// Reweighting says what became of the training's reweighting gains:
	// "kept" (Multinomial NB: they are in the counts that learning adds
	// to) or "dropped" (Complement NB: the classifier is refitted from the
	// plain counts). Empty for a model that was not reweighted.
	Reweighting string `json:"reweighting,omitempty"`
	// Calibration is "kept" if the model was calibrated: the temperature
	// fitted at training is applied to the scores of the learned counts,
	// not fitted again.
	Calibration string `json:"calibration,omitempty"`
}

// learner is a Model's state for learning, made on its first update.
type learner struct {
	live *compact.Live // the counts, and with fast the weights, kept up to date
	fast bool          // live scores; else every update refits m.lin
	p    *Predictor    // rows of learned documents, growing the vocabulary
	// df and docs are the document frequencies and number of documents
	// that a weighted model's IDF is fitted on.
	df   []int64
	docs int
}

// Learn adds one document of class label to the model's counts and
// refits the classifier, as if it had been in the training corpus (see
// docs/learn.md for what that means for each kind of model). A label the
// model lacks becomes a new class, unless the model is calibrated or has
// a threshold (ErrNewClass). The next prediction of any Predictor sees
// the update: Learn takes the model's lock, which predictions share.
//
// For raw counts (Weighting RawCounts) with Multinomial NB or Complement
// NB without Norm, of at most 32 classes, an update costs O(terms of the
// document × classes); other models are refitted from their counts, at
// O(cells of the model), so LearnBatch is the way to learn many at once.
func (m *Model) Learn(label, text string) error {
	return m.update([]Example{{label, text}}, 1)
}

// Unlearn takes away a document that Learn (or training) added with
// label: learning it and unlearning it leaves the model as it was. A
// document whose counts the model does not hold is refused with
// ErrNotLearned and changes nothing.
func (m *Model) Unlearn(label, text string) error {
	return m.update([]Example{{label, text}}, -1)
}

// LearnBatch learns docs, in order, refitting once. If a document fails,
// the ones before it stay learned.
func (m *Model) LearnBatch(docs []Example) error { return m.update(docs, 1) }

// UnlearnBatch unlearns docs, in order, refitting once. If a document
// fails, the ones before it stay unlearned.
func (m *Model) UnlearnBatch(docs []Example) error { return m.update(docs, -1) }

// update learns (sign 1) or unlearns (−1) docs.
func (m *Model) update(docs []Example, sign float64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.startLearning(); err != nil {
		return err
	}
	l := m.learner
	err := m.updateRows(docs, sign)
	if !l.fast {
		err = errors.Join(err, m.settle())
	} else {
		m.stale = true
	}
	return err
}

// updateRows adds the rows of docs to the learner's counts. On an error,
// the documents before the one that failed are counted.
func (m *Model) updateRows(docs []Example, sign float64) error {
	l := m.learner
	var failed error
	for i, d := range docs {
		l = m.learner // dropClass makes it anew
		c, err := m.classFor(d.Label, sign)
		if err != nil {
			failed = docError(len(docs), i, err)
			break
		}
		before := l.live.NumFeatures()
		grow := l.p.grow
		if sign < 0 {
			l.p.grow = 0 // a term the model lacks was not learned
		}
		idx, val := l.p.learnRow(d.Text)
		l.p.grow = grow
		if n := m.featureCount(); n > before {
			l.live.AddFeatures(n - before)
			if l.df != nil {
				l.df = append(l.df, make([]int64, n-before)...)
			}
		}
		if m.counts.Binary { // Bernoulli counts documents
			for k, v := range val {
				val[k], _ = dense.Binarized(v, true, m.counts.Threshold)
			}
		}
		r := learnedRow{c, d.Label, slices.Clone(idx), slices.Clone(val)}
		if l.df != nil {
			if err := m.addWeighted(r, sign); err != nil {
				failed = docError(len(docs), i, err)
				break
			}
			m.counted(sign)
			continue
		}
		if err := m.addRow(r, r.val, sign); err != nil {
			failed = docError(len(docs), i, err)
			break
		}
		m.counted(sign)
	}
	return failed
}

// addWeighted adds a weighted model's row r sign times. The learner
// holds each count divided by its column's IDF (the rescaling of every
// count to a new IDF is then implicit: settle multiplies by the IDF), and
// the row is weighted with the IDF of the document frequencies with it
// (learning) or before it is taken away (unlearning): O(terms), and
// LearnBatch equals the same Learns one at a time (docs/learn.md).
func (m *Model) addWeighted(r learnedRow, sign float64) error {
	l := m.learner
	if sign > 0 {
		for _, j := range r.idx {
			l.df[j]++
		}
		l.docs++
	}
	w, err := m.unscaledRow(r.idx, r.val)
	if err == nil {
		err = m.addRow(r, w, sign)
	}
	if sign > 0 || err != nil {
		if err != nil && sign > 0 {
			for _, j := range r.idx {
				l.df[j]--
			}
			l.docs--
		}
		return err
	}
	for _, j := range r.idx {
		if l.df[j]--; l.df[j] == 0 {
			l.live.Empty(int(j)) // in no document
		}
	}
	l.docs--
	return nil
}

// unscaledRow returns the raw row weighted by the model's weighting with
// the IDF of the learner's document frequencies, each value divided by
// its column's IDF (0 where that is 0).
func (m *Model) unscaledRow(idx []int32, val []float64) ([]float64, error) {
	l := m.learner
	df := make([]int64, len(idx))
	local := make([]int32, len(idx))
	for q, j := range idx {
		df[q], local[q] = l.df[j], int32(q)
	}
	t := m.newWeighting()
	if err := fitDF(t, l.docs, df); err != nil { // the same arithmetic as the whole IDF's
		return nil, err
	}
	w := slices.Clone(val)
	if err := t.TransformRow(local, w); err != nil {
		return nil, err
	}
	for q, idf := range *weightsOf(t) {
		if idf == 0 {
			w[q] = 0
		} else {
			w[q] /= idf
		}
	}
	return w, nil
}

// addRow adds r's row with values val to the learner's counts sign times.
func (m *Model) addRow(r learnedRow, val []float64, sign float64) error {
	l := m.learner
	last := sign < 0 && l.live.ClassCount()[r.c] < 2
	if last {
		// Training on the documents left would not have the class.
		switch {
		case len(m.Classes) <= 2, m.calibration != nil, m.Threshold != nil, l.df != nil:
			return fmt.Errorf("%w: the document is the last of class %q, which a model of two classes, a calibrated one, "+
				"one with a threshold or a weighted one keeps", ErrNotLearnable, r.label)
		}
	}
	if err := l.live.Add(r.c, r.idx, val, sign); err != nil {
		return notLearned(err)
	}
	if last {
		return m.dropClass(r.c)
	}
	return nil
}

// learnedRow is a document's raw row and class.
type learnedRow struct {
	c     int
	label string
	idx   []int32
	val   []float64
}

// A DocError is the error of one document of LearnBatch or UnlearnBatch.
type DocError struct {
	Doc int // its index in the batch
	Err error
}

func (e *DocError) Error() string { return fmt.Sprintf("document %d: %v", e.Doc+1, e.Err) }
func (e *DocError) Unwrap() error { return e.Err }

// docError names the document of a batch that failed.
func docError(n, i int, err error) error {
	if n == 1 {
		return err
	}
	return &DocError{i, err}
}

// notLearned wraps an error of unlearning in ErrNotLearned.
func notLearned(err error) error {
	if err != nil && errors.Is(err, compact.ErrUnlearn) {
		return fmt.Errorf("%w: %v", ErrNotLearned, err)
	}
	return err
}

// counted records a document learned or unlearned.
func (m *Model) counted(sign float64) {
	if sign > 0 {
		m.Learned.Documents++
	} else {
		m.Learned.Unlearned++
	}
	m.classCount = slices.Clone(m.learner.live.ClassCount())
}

// classFor returns the class of label, adding it if learning may.
func (m *Model) classFor(label string, sign float64) (int, error) {
	if label == "" {
		return 0, ErrEmptyLabel
	}
	if c := slices.Index(m.Classes, label); c >= 0 {
		return c, nil
	}
	switch {
	case sign < 0:
		return 0, fmt.Errorf("%w: the model has no class %q", ErrNotLearned, label)
	case m.calibration != nil:
		return 0, fmt.Errorf("%w: %q, and the model is calibrated on its classes %q", ErrNewClass, label, m.Classes)
	case m.Threshold != nil:
		return 0, fmt.Errorf("%w: %q, and the model's threshold decides between its classes %q", ErrNewClass, label, m.Classes)
	}
	if err := checkClassNames(append(slices.Clone(m.Classes), label)); err != nil {
		return 0, err
	}
	c, err := m.learner.live.AddClass()
	if err != nil {
		return 0, fmt.Errorf("%w: class %q: %v", ErrNotLearnable, label, err)
	}
	m.Classes = append(slices.Clone(m.Classes), label) // readers may hold the old slice
	m.Learned.NewClasses = append(m.Learned.NewClasses, label)
	return c, nil
}

// featureCount returns the number of columns rows have now.
func (m *Model) featureCount() int {
	if m.vocab != nil {
		return m.vocab.Len()
	}
	return m.hash.Cols()
}

// refitIDF fits the weighting on the learner's document frequencies.
func (m *Model) refitIDF() error {
	l := m.learner
	w := m.newWeighting()
	if err := fitDF(w, l.docs, l.df); err != nil {
		return err
	}
	m.weight = w
	return nil
}

// startLearning makes m's learner, or says why m cannot learn.
func (m *Model) startLearning() error {
	if m.learner != nil && m.learner.live != nil {
		return nil
	}
	c := m.Config
	switch {
	case c.Semi.Method != NoSemi:
		return fmt.Errorf("%w: its counts hold unlabeled documents' (semi-supervised %v); retrain it", ErrNotLearnable, c.Semi.Method)
	case len(m.Classes) > compact.MaxScorerClasses:
		return fmt.Errorf("%w: %d classes, at most %d", ErrNotLearnable, len(m.Classes), compact.MaxScorerClasses)
	}
	counts, err := m.fittedCounts()
	if err != nil {
		return err
	}
	l := &learner{}
	est := m.newEstimator()
	l.fast = m.weight == nil && (c.Classifier == Multinomial || c.Classifier == Complement && !c.Norm)
	if l.live, err = compact.NewLive(est, counts, m.vocab != nil, l.fast); err != nil {
		return fmt.Errorf("%w: %v", ErrNotLearnable, err)
	}
	if m.weight != nil {
		if l.df, l.docs, err = m.documentFrequencies(counts); err != nil {
			return err
		}
		inv := make([]float64, len(l.df))
		for j, idf := range *m.idf() {
			if idf != 0 {
				inv[j] = 1 / idf
			}
		}
		l.live.Scale(inv) // see addWeighted
		// A row weighted with the IDF of today is not the one counted
		// with an earlier IDF: unlearning forgives the difference.
		l.live.Tolerance = 0.5
	}
	if m.reweighted() {
		if c.Classifier == Complement {
			// The gains are not in the counts (reweigh): refitting drops them.
			m.Learned.Reweighting = "dropped"
			m.Config.Reweight, m.Config.ReweightRate = -1, 0
		} else {
			m.Learned.Reweighting = "kept"
		}
	}
	if m.calibration != nil {
		m.Learned.Calibration = "kept"
	}
	if l.p == nil {
		l.p = m.NewPredictor()
	}
	l.p.grow = m.vocabLimit()
	m.learner = l
	if l.fast {
		// The scores are the live counts' from here on; a reweighted
		// Complement NB's lin (with gains) is no longer the model.
		m.stale = true
	}
	return nil
}

// vocabLimit returns how many terms the vocabulary may grow to: a pruned
// vocabulary (min_df, max_df, max_features or a selection) is fixed,
// since which terms it keeps depends on the whole corpus; an unpruned one
// grows while classes × features stay within MaxTableSize, the bound of
// training's automatic min_df.
func (m *Model) vocabLimit() int {
	if m.vocab == nil {
		return 0
	}
	v := m.Config.Vocab
	if v.MinDF > 1 || v.MaxDF != 0 && v.MaxDF < 1 || v.MaxFeatures > 0 || m.Config.Select.Method != NoSelect {
		return m.vocab.Len()
	}
	return max(m.vocab.Len(), m.Config.maxTableSize()/len(m.Classes))
}

// documentFrequencies recovers the document frequencies that m's IDF was
// fitted on from the IDF and the number of training documents: the IDF
// is a function of them that can be inverted to the integer. A weight
// of 0, which the unsmoothed IDFs give a column in no document (and
// Rennie's one in every document), is told apart by the column's counts.
func (m *Model) documentFrequencies(counts *compact.Counts) ([]int64, int, error) {
	var n float64
	for _, v := range m.classCount {
		n += v
	}
	docs := int(math.Round(n))
	idf := *m.idf()
	df := make([]int64, len(idf))
	for j, w := range idf {
		var d float64
		empty := counts.Ptr[j] == counts.Ptr[j+1]
		switch t := m.weight.(type) {
		case *vectorize.TFIDF:
			if t.NoSmoothIDF && w == 0 && empty {
				d = 0
			} else if t.NoSmoothIDF {
				d = n * math.Exp(1-w)
			} else {
				d = (n+1)*math.Exp(1-w) - 1
			}
		case *vectorize.Rennie:
			d = n * math.Exp(-w)
			if w == 0 && empty {
				d = 0
			}
		}
		df[j] = int64(math.Round(d))
	}
	check := m.newWeighting()
	if err := fitDF(check, docs, df); err != nil {
		return nil, 0, err
	}
	got := *weightsOf(check)
	for j, w := range idf {
		if math.Abs(got[j]-w) > 1e-9*math.Abs(w) {
			return nil, 0, fmt.Errorf("%w: its IDF of column %d (%g) is not that of a whole number of %d documents",
				ErrNotLearnable, j, w, docs)
		}
	}
	return df, docs, nil
}

// weightsOf returns where w keeps its column weights.
func weightsOf(w weighting) *[]float64 {
	switch w := w.(type) {
	case *vectorize.TFIDF:
		return &w.IDF
	case *vectorize.Rennie:
		return &w.IDF
	}
	return nil
}

// settle brings counts, lin and the vocabulary up to date with the
// learner: training's form of the model, to save or inspect. Features
// that unlearning emptied leave the vocabulary, as training would not
// have them. The caller holds m.mu.
func (m *Model) settle() error {
	l := m.learner
	if l == nil || l.live == nil {
		return nil
	}
	weighted := l.df != nil
	if weighted {
		if err := m.refitIDF(); err != nil {
			return err
		}
	}
	counts, err := m.materialize()
	if err != nil {
		return err
	}
	if weighted { // the learner's counts are divided by the IDF
		idf := *m.idf()
		for j := range counts.Features {
			for q := counts.Ptr[j]; q < counts.Ptr[j+1]; q++ {
				counts.Count[q] *= idf[j]
			}
		}
	}
	m.counts = counts
	m.countsOnce.Do(func() {}) // counts are set: nothing to decode
	m.countsRaw = nil
	if err := m.refitLazy(); err != nil {
		return err
	}
	m.stale = false
	return m.finite()
}

// materialize returns the learner's counts in training's form. If
// features left the vocabulary, the learner is dropped: its columns are
// no longer the vocabulary's, and the next update makes it again.
func (m *Model) materialize() (*compact.Counts, error) {
	l := m.learner
	counts, keep := l.live.Counts()
	counts.Binary, counts.Threshold = m.counts.Binary, m.counts.Threshold
	if keep == nil || m.vocab == nil {
		return counts, nil
	}
	ids := make([]int32, 0, counts.Features)
	for j, k := range keep {
		if k {
			ids = append(ids, int32(j))
		}
	}
	v, err := m.vocab.Select(ids)
	if err != nil {
		return nil, err
	}
	m.vocab = v
	if l.df != nil {
		idf := m.idf()
		*idf = slices.Clone(*idf)
		for i, j := range ids {
			(*idf)[i] = (*idf)[j]
		}
		*idf = (*idf)[:len(ids)]
	}
	m.learner = nil
	return counts, nil
}

// dropClass removes class c, which unlearning has emptied, and makes the
// learner again over the remaining classes.
func (m *Model) dropClass(c int) error {
	l := m.learner
	counts, err := m.materialize()
	if err != nil {
		return err
	}
	k := len(m.Classes)
	to := make([]int, k)
	for i := range to {
		to[i] = i - tally.BoolInt(i > c)
	}
	to[c] = 0 // its counts are all zero: it may go anywhere
	if counts, err = counts.RemapClasses(k-1, to); err != nil {
		return err
	}
	m.Learned.NewClasses = slices.DeleteFunc(m.Learned.NewClasses, func(s string) bool { return s == m.Classes[c] })
	m.Classes = slices.Delete(slices.Clone(m.Classes), c, c+1)
	m.counts, m.classCount = counts, slices.Clone(counts.ClassCount)
	fast := l.fast
	m.learner = nil
	if err := m.startLearning(); err != nil {
		return err
	}
	m.stale = fast
	return nil
}

// readLocked calls f with m's read lock held, after settling learned
// counts if f needs them in training's form.
func (m *Model) readLocked(f func()) error {
	m.mu.RLock()
	for m.stale {
		m.mu.RUnlock()
		m.mu.Lock()
		var err error
		if m.stale {
			err = m.settle()
		}
		m.mu.Unlock()
		if err != nil {
			return err
		}
		m.mu.RLock()
	}
	defer m.mu.RUnlock()
	f()
	return nil
}

// learnRow returns the raw row of text, growing the vocabulary up to the
// Predictor's limit.
func (p *Predictor) learnRow(text string) ([]int32, []float64) {
	p.rowOK = false
	return p.rawRow(text)
}
