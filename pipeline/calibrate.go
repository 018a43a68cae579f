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
// say: Proba is softmax(JointLogLikelihood / Temperature) instead of
// softmax(JointLogLikelihood). Dividing every score by one positive number
// keeps their order, so predictions and explanations do not change.
// FitCalibration fits it on cross-validated held-out scores.
type Calibration struct {
	// Temperature, > 0 (2^−40 to 2^40), divides the scores.
	Temperature float64 `json:"temperature"`
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

// ErrNoScores is returned by FitCalibration for a CVResult without
// held-out scores (see CVOptions.KeepScores).
var ErrNoScores = errors.New("pipeline: cross-validation kept no held-out scores")

// FitCalibration fits a temperature to r's held-out scores, the one that
// minimizes their log loss: a convex problem in 1/T, solved by Newton's
// method within a bracket. Documents whose class their fold did not train
// on are left out.
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
	cal := &Calibration{Temperature: 1 / beta, Folds: h.Folds, Documents: len(y),
		LogLossBefore: f.loss(1), LogLossAfter: f.loss(beta), Priors: f.meanProba(beta)}
	return cal, nil
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

// meanProba returns the mean of softmax(β·s) over the rows.
func (f *tempFit) meanProba(beta float64) []float64 {
	mean := make([]float64, f.k)
	p := make([]float64, f.k)
	for i := range f.y {
		for c, v := range f.rows[i*f.k : (i+1)*f.k] {
			p[c] = beta * v
		}
		for c, v := range nb.Proba(p[:0], p) {
			mean[c] += v
		}
	}
	for c := range mean {
		mean[c] /= float64(len(f.y))
	}
	return mean
}

// Calibrate fits a calibration to r's held-out scores (FitCalibration) and
// sets it (SetCalibration). r must cross-validate m's configuration on
// m's training documents, with CVOptions.KeepScores.
func (m *Model) Calibrate(r *CVResult) error {
	c, err := FitCalibration(r)
	if err != nil {
		return err
	}
	return m.setCalibration(c, r.HeldOut.Classes)
}

// SetCalibration makes m's probabilities calibrated by c, whose priors
// are in the order of m's classes, or uncalibrated if c is nil. Neither it
// nor Calibrate may run while m predicts.
func (m *Model) SetCalibration(c *Calibration) error {
	return m.setCalibration(c, m.Classes)
}

// setCalibration sets c, whose priors are those of classes.
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
	if !(c.LogLossBefore >= 0) || !(c.LogLossAfter >= 0) || c.Folds < 0 || c.Documents < 0 {
		return fmt.Errorf("log loss %g before and %g after, %d folds, %d documents: out of range",
			c.LogLossBefore, c.LogLossAfter, c.Folds, c.Documents)
	}
	return nil
}

// calibrate turns scores into what Proba normalizes, in place.
func (c *Calibration) calibrate(jll []float64) {
	for i := range jll {
		jll[i] /= c.Temperature
	}
}

// fileCalibration is Calibration in a model file's header.
type fileCalibration struct {
	Method string `json:"method"` // "temperature"
	fileTemperature
}

// fileTemperature has the fields of Calibration in the same order, so
// they convert, and a field added to one side alone breaks the build.
type fileTemperature struct {
	Temperature   float64   `json:"temperature"`
	Priors        []float64 `json:"priors"`
	Folds         int       `json:"folds"`
	Documents     int       `json:"documents"`
	LogLossBefore float64   `json:"cv_log_loss_before"`
	LogLossAfter  float64   `json:"cv_log_loss_after"`
}

// temperatureScaling is fileCalibration.Method of Calibration.
const temperatureScaling = "temperature"

// newFileCalibration returns c as a header stores it; nil for none.
func newFileCalibration(c *Calibration) *fileCalibration {
	if c == nil {
		return nil
	}
	return &fileCalibration{Method: temperatureScaling, fileTemperature: fileTemperature(*c)}
}

// calibration returns the calibration of a model of k classes that f
// describes, or an error if no fitted calibration is like it.
func (f *fileCalibration) calibration(k int) (*Calibration, error) {
	if f == nil {
		return nil, nil
	}
	if f.Method != temperatureScaling {
		return nil, fmt.Errorf("calibration method %q, want %q", f.Method, temperatureScaling)
	}
	c := (*Calibration)(&f.fileTemperature)
	if err := c.check(k); err != nil {
		return nil, fmt.Errorf("calibration: %v", err)
	}
	return c, nil
}

// top returns the index of the result with the best mean accuracy, then
// macro-F1; the first of equals.
func top(rs []*CVResult) int {
	t := 0
	for i, x := range rs {
		b := rs[t]
		if x.Accuracy.Mean > b.Accuracy.Mean || x.Accuracy.Mean == b.Accuracy.Mean && x.MacroF1.Mean > b.MacroF1.Mean {
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
