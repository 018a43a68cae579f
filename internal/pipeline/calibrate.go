package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/nb"
)

// HeldOut is what cross-validation scored of each document with the model
// of the fold that held it out: the scores of Predictor.JointLogLikelihood.
type HeldOut struct {
	Classes []string
	Labels  []int // per document, in the order added, into Classes
	// Scores holds document i's scores, one per class, at
	// Scores[i*len(Classes):]; −Inf for a class its fold did not train on.
	Scores []float64
	Folds  int
}

// newScores returns where run keeps the held-out scores of n settings:
// nil for each unless CVOptions.KeepScores asked for them.
func (d *cvData) newScores(n int) [][]float64 {
	out := make([][]float64, n)
	if !d.keep {
		return out
	}
	for s := range out {
		out[s] = make([]float64, len(d.y)*len(d.names))
		for i := range out[s] {
			out[s][i] = math.Inf(-1)
		}
	}
	return out
}

// scoreColumns returns the corpus class of each of fold f's classes, or
// nil when no scores are kept.
func (d *cvData) scoreColumns(f *foldData) []int {
	if !d.keep {
		return nil
	}
	at := make([]int, len(f.classes))
	for c, name := range f.classes {
		at[c] = slices.Index(d.names, name)
	}
	return at
}

// keepScores stores document i's scores jll, whose classes are at's, in
// scores, if they are kept.
func (d *cvData) keepScores(scores []float64, at []int, i int, jll []float64) {
	if scores == nil {
		return
	}
	row := scores[i*len(d.names) : (i+1)*len(d.names)]
	for c, v := range jll {
		row[at[c]] = v
	}
}

// heldOut returns the held-out scores kept, or nil.
func (d *cvData) heldOut(scores []float64) *HeldOut {
	if scores == nil {
		return nil
	}
	return &HeldOut{Classes: d.names, Labels: d.y, Scores: scores, Folds: len(d.folds)}
}

// CrossValidateDocs cross-validates cfg on docs (Trainer.CrossValidate).
func CrossValidateDocs(cfg Config, o CVOptions, docs Docs) (*CVResult, error) {
	t, err := trainerOn(cfg, docs)
	if err != nil {
		return nil, err
	}
	return t.CrossValidate(o)
}

// trainerOn returns a Trainer for cfg that has been given docs.
func trainerOn(cfg Config, docs Docs) (*Trainer, error) {
	t, err := NewTrainer(cfg)
	if err != nil {
		return nil, err
	}
	var addErr error
	err = docs(func(label, text string) bool { addErr = t.Add(label, text); return addErr == nil })
	if err = cmp.Or(err, addErr); err != nil {
		t.Abort() // stops its tokenizing goroutines
		return nil, err
	}
	return t, nil
}

// Calibration maps a model's scores to probabilities that mean what they
// say. Proba is softmax(JointLogLikelihood / Temperature), its top class's
// probability then mapped by TopLabel if there is one (and the rest scaled
// to sum to 1). Dividing every score by one positive number keeps their
// order, and TopLabel keeps the top class on top, so predictions and
// explanations do not change. FitCalibration fits it on cross-validated
// held-out scores.
type Calibration struct {
	// Temperature, > 0 (2^−40 to 2^40), divides the scores.
	Temperature float64 `json:"temperature"`
	// TopLabel maps the most probable class's probability; nil for none.
	TopLabel *TopLabel `json:"top_label,omitempty"`
	// Priors are the class priors the calibrated probabilities assume (see
	// Model.PosteriorPriors): their mean over the held-out documents, in
	// the order of the model's classes.
	Priors []float64 `json:"priors"`
	// Folds and Documents are those of the cross-validation fitted on.
	Folds     int `json:"folds"`
	Documents int `json:"documents"`
	// LogLossBefore and LogLossAfter are the held-out documents' mean log
	// loss with the scores as they are and calibrated.
	LogLossBefore float64 `json:"cv_log_loss_before"`
	LogLossAfter  float64 `json:"cv_log_loss_after"`
}

// TopLabel is an increasing map of the top class's probability to the
// rate at which the top class is right, fitted by isotonic regression
// (pool-adjacent-violators) on held-out documents: between knots it is
// linear, outside them the end knot's. The knots are the pooled blocks'
// mean probabilities and mean accuracies.
type TopLabel struct {
	Confidence []float64 `json:"confidence"` // increasing, in [0, 1]
	Accuracy   []float64 `json:"accuracy"`   // increasing, in [0, 1]
}

// ErrNoScores is returned by FitCalibration for a CVResult without
// held-out scores (see CVOptions.KeepScores).
var ErrNoScores = errors.New("pipeline: cross-validation kept no held-out scores")

// FitCalibration fits a calibration to r's held-out scores: the
// temperature that minimizes their log loss, a convex problem in 1/T
// solved by Newton's method within a bracket; and with three or more
// classes a TopLabel map of the probabilities it gives, since the
// temperature alone leaves many-class models overconfident in their top
// class where it is most probable and underconfident below
// (docs/design.md#calibration); it needs minTopLabelDocuments. With two
// classes the temperature was calibrated already, and a map, flat past its
// end knots, would tie the scores that thresholds on spam rank.
// Documents whose class their fold did not train on are left out.
func FitCalibration(r *CVResult) (*Calibration, error) {
	h := r.HeldOut
	if h == nil {
		return nil, ErrNoScores
	}
	k := len(h.Classes)
	rows := make([]float64, 0, len(h.Scores))
	var y []int
	for i, c := range h.Labels {
		s := h.Scores[i*k : (i+1)*k]
		if math.IsInf(s[c], -1) {
			continue
		}
		top := slices.Max(s)
		for _, v := range s {
			rows = append(rows, v-top) // ≤ 0: exp never overflows
		}
		y = append(y, c)
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("%w: no held-out document of a class its fold trained on", ErrNoScores)
	}
	f := tempFit{k: k, rows: rows, y: y}
	beta := f.solve()
	cal := &Calibration{Temperature: 1 / beta, Folds: h.Folds, Documents: len(y), LogLossBefore: f.loss(1)}
	if k >= 3 && len(y) >= minTopLabelDocuments {
		cal.TopLabel = f.fitTopLabel(cal)
	}
	cal.LogLossAfter, cal.Priors = f.calibrated(cal)
	return cal, nil
}

// minTopLabelDocuments is the fewest held-out documents FitCalibration
// fits a TopLabel map to: on fewer, isotonic regression follows the
// sample's noise (scikit-learn's CalibratedClassifierCV advises the
// sigmoid below about 1,000).
const minTopLabelDocuments = 1000

// calibrated returns the mean log loss of the rows calibrated by c and
// their mean calibrated probabilities.
func (f *tempFit) calibrated(c *Calibration) (loss float64, mean []float64) {
	mean = make([]float64, f.k)
	z := make([]float64, f.k)
	var p []float64
	for i, y := range f.y {
		copy(z, f.rows[i*f.k:(i+1)*f.k])
		p, _ = c.proba(p[:0], z)
		for c, v := range p {
			mean[c] += v
		}
		loss -= math.Log(max(p[y], 1e-300))
	}
	n := float64(len(f.y))
	for c := range mean {
		mean[c] /= n
	}
	return loss / n, mean
}

// fitTopLabel fits c's TopLabel to the rows calibrated by c's
// temperature: the isotonic regression of whether each row's top class is
// its class on the top class's probability.
func (f *tempFit) fitTopLabel(c *Calibration) *TopLabel {
	type point struct{ conf, right float64 }
	pts := make([]point, len(f.y))
	z := make([]float64, f.k)
	var p []float64
	for i, y := range f.y {
		copy(z, f.rows[i*f.k:(i+1)*f.k])
		best := nb.Argmax(z)
		c.scale(z)
		p = nb.Proba(p[:0], z)
		pts[i].conf = p[best]
		if best == y {
			pts[i].right = 1
		}
	}
	slices.SortFunc(pts, func(a, b point) int { return cmp.Compare(a.conf, b.conf) })
	// Pool adjacent violators: blocks of increasing mean accuracy.
	type block struct{ conf, right, n float64 }
	var bs []block
	for _, q := range pts {
		bs = append(bs, block{q.conf, q.right, 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.right/a.n < b.right/b.n {
				break
			}
			bs = append(bs[:len(bs)-2], block{a.conf + b.conf, a.right + b.right, a.n + b.n})
		}
	}
	t := &TopLabel{}
	for _, b := range bs {
		x := b.conf / b.n
		if len(t.Confidence) > 0 && x <= t.Confidence[len(t.Confidence)-1] {
			continue // equal probabilities of adjacent blocks: keep the first
		}
		t.Confidence = append(t.Confidence, x)
		t.Accuracy = append(t.Accuracy, b.right/b.n)
	}
	return t
}

// at returns t's map of the top probability x.
func (t *TopLabel) at(x float64) float64 {
	cs, as := t.Confidence, t.Accuracy
	i, _ := slices.BinarySearch(cs, x)
	switch {
	case i == 0:
		return as[0]
	case i == len(cs):
		return as[len(as)-1]
	}
	w := (x - cs[i-1]) / (cs[i] - cs[i-1])
	return as[i-1] + w*(as[i]-as[i-1])
}

// apply maps the probability of class best, p's most probable, by t and
// scales the others to sum to 1 with it, keeping best on top.
func (t *TopLabel) apply(p []float64, best int) {
	top := p[best]
	second := 0.0
	for c, v := range p {
		if c != best {
			second = max(second, v)
		}
	}
	rest := 1 - top
	q := t.at(top)
	if rest > 0 {
		// best stays on top: q > second·(1−q)/rest
		q = max(q, second/(rest+second)+0x1p-40)
	}
	q = min(max(q, 1/float64(len(p))), 1)
	for c := range p {
		switch {
		case c == best:
			p[c] = q
		case rest > 0:
			p[c] *= (1 - q) / rest
		default:
			p[c] = (1 - q) / float64(len(p)-1)
		}
	}
}

// tempFit is the log loss of softmax(β·s) over rows of k centered scores
// with true classes y, as a function of β = 1/T.
type tempFit struct {
	k    int
	rows []float64
	y    []int
}

// eval returns the mean log loss at β and its first two derivatives.
func (f *tempFit) eval(beta float64) (loss, d1, d2 float64) {
	for i, c := range f.y {
		s := f.rows[i*f.k : (i+1)*f.k]
		var z, m1, m2 float64 // Σ e^{βs}, Σ s e^{βs}, Σ s² e^{βs}
		for _, v := range s {
			if math.IsInf(v, -1) {
				continue
			}
			e := math.Exp(beta * v)
			z += e
			m1 += v * e
			m2 += v * v * e
		}
		mean := m1 / z
		loss += math.Log(z) - beta*s[c]
		d1 += mean - s[c]
		d2 += m2/z - mean*mean
	}
	n := float64(len(f.y))
	return loss / n, d1 / n, d2 / n
}

func (f *tempFit) loss(beta float64) float64 {
	l, _, _ := f.eval(beta)
	return l
}

// Bounds on β = 1/T: past them the probabilities are uniform, or 0 and 1,
// to within rounding for scores of any sensible scale.
const (
	minBeta = 0x1p-40
	maxBeta = 0x1p+40
)

// solve returns the β that minimizes the loss. The derivative increases
// with β (the loss is convex); a bracket [lo, hi] around its zero is found
// by doubling or halving from 1, then narrowed by Newton steps, bisecting
// where a step would leave it.
func (f *tempFit) solve() float64 {
	lo, hi := 1.0, 1.0
	if _, d1, _ := f.eval(1); d1 < 0 {
		for _, d1, _ = f.eval(hi); d1 < 0; _, d1, _ = f.eval(hi) {
			if hi >= maxBeta {
				return maxBeta // separable: every document's class scores highest
			}
			lo, hi = hi, 2*hi
		}
	} else {
		for _, d1, _ = f.eval(lo); d1 > 0; _, d1, _ = f.eval(lo) {
			if lo <= minBeta {
				return minBeta // the scores carry no information
			}
			lo, hi = lo/2, lo
		}
	}
	beta := (lo + hi) / 2
	for range 100 {
		_, d1, d2 := f.eval(beta)
		switch {
		case d1 == 0:
			return beta
		case d1 < 0:
			lo = beta
		default:
			hi = beta
		}
		next := beta - d1/d2
		if !(next > lo && next < hi) { // d2 = 0 included
			next = (lo + hi) / 2
		}
		if math.Abs(next-beta) <= 1e-12*beta {
			return next
		}
		beta = next
	}
	return beta
}

// Calibrate fits a calibration to r's held-out scores (FitCalibration) and
// makes m's probabilities calibrated by it; a nil r makes them
// uncalibrated. r must cross-validate m's configuration on m's training
// documents, with CVOptions.KeepScores. Calibrate may not run while m
// predicts.
func (m *Model) Calibrate(r *CVResult) error {
	if r == nil {
		return m.setCalibration(nil, nil)
	}
	c, err := FitCalibration(r)
	if err != nil {
		return err
	}
	return m.setCalibration(c, r.HeldOut.Classes)
}

// calibrateLater starts fitting r's calibration and returns a function
// that waits for it and sets it on m, as m.Calibrate(r) would: the fit
// reads only r, so it runs while the model is fitted.
func calibrateLater(r *CVResult) func(m *Model) error {
	done := make(chan struct{})
	var c *Calibration
	var err error
	go func() {
		defer close(done)
		c, err = FitCalibration(r)
	}()
	return func(m *Model) error {
		<-done
		if err != nil {
			return err
		}
		return m.setCalibration(c, r.HeldOut.Classes)
	}
}

// setCalibration sets c, whose priors are those of classes, or none if c
// is nil.
func (m *Model) setCalibration(c *Calibration, classes []string) error {
	if c == nil {
		m.calibration, m.Config.Calibrate = nil, false
		return nil
	}
	if err := c.check(len(classes)); err != nil {
		return fmt.Errorf("%w: calibration: %v", ErrConfig, err)
	}
	if len(classes) != len(m.Classes) {
		return fmt.Errorf("%w: calibration of %d classes for a model of %d", ErrConfig, len(classes), len(m.Classes))
	}
	own := *c // priors in m's order
	own.Priors = make([]float64, len(m.Classes))
	for i, name := range classes {
		at := slices.Index(m.Classes, name)
		if at < 0 {
			return fmt.Errorf("%w: calibration of class %q, which the model does not have", ErrConfig, name)
		}
		own.Priors[at] = c.Priors[i]
	}
	m.calibration = &own
	m.Config.Calibrate = true
	return nil
}

// Calibration returns a copy of m's calibration, or nil if it has none.
func (m *Model) Calibration() *Calibration {
	if m.calibration == nil {
		return nil
	}
	c := *m.calibration
	c.Priors = slices.Clone(c.Priors)
	if t := c.TopLabel; t != nil {
		c.TopLabel = &TopLabel{Confidence: slices.Clone(t.Confidence), Accuracy: slices.Clone(t.Accuracy)}
	}
	return &c
}

// check reports what no fitted calibration of k classes has: a
// temperature outside the fit's bounds (which keep scores / T finite),
// priors that are not k probabilities summing to 1, or a log
// loss below 0.
func (c *Calibration) check(k int) error {
	if !(c.Temperature >= 1/maxBeta && c.Temperature <= 1/minBeta) {
		return fmt.Errorf("temperature %g, want %g to %g", c.Temperature, 1/maxBeta, 1/minBeta)
	}
	if len(c.Priors) != k {
		return fmt.Errorf("%d priors for %d classes", len(c.Priors), k)
	}
	sum := 0.0
	for _, p := range c.Priors {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("prior %g, want a probability", p)
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("priors sum to %g, want 1", sum)
	}
	if t := c.TopLabel; t != nil {
		if len(t.Confidence) == 0 || len(t.Confidence) != len(t.Accuracy) {
			return fmt.Errorf("top-label map of %d probabilities and %d accuracies", len(t.Confidence), len(t.Accuracy))
		}
		for i := range t.Confidence {
			x, a := t.Confidence[i], t.Accuracy[i]
			if !(x >= 0 && x <= 1) || !(a >= 0 && a <= 1) || i > 0 && !(x > t.Confidence[i-1] && a >= t.Accuracy[i-1]) {
				return fmt.Errorf("top-label map: knot %d (%g, %g) is not an increasing map of probabilities", i, x, a)
			}
		}
	}
	if !(c.LogLossBefore >= 0) || !(c.LogLossAfter >= 0) || c.Folds < 0 || c.Documents < 0 {
		return fmt.Errorf("log loss %g before and %g after, %d folds, %d documents: out of range",
			c.LogLossBefore, c.LogLossAfter, c.Folds, c.Documents)
	}
	return nil
}

// scale divides the scores jll by the temperature, in place: what Proba
// normalizes.
func (c *Calibration) scale(jll []float64) {
	for i := range jll {
		jll[i] /= c.Temperature
	}
}

// proba appends the probabilities of the scores jll, which it overwrites,
// calibrated by c unless c is nil, and returns them with the index of the
// most probable class.
func (c *Calibration) proba(dst, jll []float64) ([]float64, int) {
	best := nb.Argmax(jll)
	if c != nil {
		c.scale(jll)
	}
	n := len(dst)
	dst = nb.Proba(dst, jll)
	if c != nil && c.TopLabel != nil {
		c.TopLabel.apply(dst[n:], best)
	}
	return dst, best
}

// fileCalibration is Calibration in a model file's header.
type fileCalibration struct {
	// Method is temperatureScaling, or topLabelScaling with a top-label
	// map: builds that know only the first refuse the second.
	Method string `json:"method"`
	fileTemperature
}

// fileTemperature has the fields of Calibration in the same order, so
// they convert, and a field added to one side alone breaks the build.
type fileTemperature struct {
	Temperature   float64   `json:"temperature"`
	TopLabel      *TopLabel `json:"top_label,omitempty"`
	Priors        []float64 `json:"priors"`
	Folds         int       `json:"folds"`
	Documents     int       `json:"documents"`
	LogLossBefore float64   `json:"cv_log_loss_before"`
	LogLossAfter  float64   `json:"cv_log_loss_after"`
}

// The values of fileCalibration.Method.
const (
	temperatureScaling = "temperature"
	topLabelScaling    = "temperature+top-label"
)

// newFileCalibration returns c as a header stores it; nil for none.
func newFileCalibration(c *Calibration) *fileCalibration {
	if c == nil {
		return nil
	}
	m := temperatureScaling
	if c.TopLabel != nil {
		m = topLabelScaling
	}
	return &fileCalibration{Method: m, fileTemperature: fileTemperature(*c)}
}

// calibration returns the calibration of a model of k classes that f
// describes, or an error if no fitted calibration is like it.
func (f *fileCalibration) calibration(k int) (*Calibration, error) {
	if f == nil {
		return nil, nil
	}
	c := (*Calibration)(&f.fileTemperature)
	switch m := f.Method; {
	case m == temperatureScaling && c.TopLabel == nil, m == topLabelScaling && c.TopLabel != nil:
	default:
		return nil, fmt.Errorf("calibration method %q, want %q, or %q with a top-label map", f.Method, temperatureScaling, topLabelScaling)
	}
	if err := c.check(k); err != nil {
		return nil, fmt.Errorf("calibration: %v", err)
	}
	return c, nil
}

// top returns the index of the result with the best mean accuracy, then
// macro-F1, of those not raced out; the first of equals.
func top(rs []*CVResult) int {
	t := 0
	for i, x := range rs {
		if b := rs[t]; b.Dropped || !x.Dropped && byScore(x, b) < 0 {
			t = i
		}
	}
	return t
}

// dropScores lets go of the held-out scores of the results that Tune can no
// longer choose: all but the best so far and the base configuration's.
func (r *TuneResult) dropScores() {
	t := top(r.Results)
	for i, x := range r.Results {
		if i != t && i != r.Base {
			x.HeldOut = nil
		}
	}
}
