package multilabel

import (
	"slices"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/reweight"
)

// ReweightRates are the rates η that multi-label training chooses from: how
// much of a document a label's rest gains for each unit of probability
// the label wrongly takes from it in a pass. With the default TF-IDF rows
// (unit length) a pass moves at most η documents' worth.
var ReweightRates = []float64{40}

// legacyRate is the rate of the builds that had only one.
const legacyRate = 20

// maxReweightRate bounds ReweightRate; a larger step overshoots.
const maxReweightRate = 1000

// DefaultReweight is the number of passes that automatic reweighting
// (Config.Reweight 0) weighs against none.
const DefaultReweight = 10

// maxReweight bounds Reweight; each pass costs a scoring of the corpus.
const maxReweight = 100

// settings are the settings that cross-validation chooses from: α from
// PlainAlphas without reweighting; with it, α from Alphas and the rate
// from ReweightRates (or ReweightRate); both when Reweight is automatic.
// alpha, if not 0, is the only α.
func (c Config) settings(alpha float64) []setting {
	var passes []int
	switch {
	case c.Reweight < 0 || c.Score != ComplementScore:
		passes = []int{0}
	case c.Reweight == 0:
		passes = []int{0, DefaultReweight}
	default:
		passes = []int{c.Reweight}
	}
	var out []setting
	for _, p := range passes {
		alphas, rates := Alphas, ReweightRates
		switch {
		case p == 0:
			alphas, rates = PlainAlphas, []float64{0}
		case c.ReweightRate != 0:
			rates = []float64{c.ReweightRate}
		}
		if alpha != 0 {
			alphas = []float64{alpha}
		}
		for _, a := range alphas {
			for _, r := range rates {
				out = append(out, setting{a, p, r})
			}
		}
	}
	return out
}

// reweighted returns c, the sums of the documents for which in is true,
// with each label's rest grown by set.passes passes of discriminative
// reweighting at α set.alpha and rate η set.rate, after Su et
// al.'s discriminative multinomial naive Bayes (2008): each pass scores
// those documents with the model of the sums so far, and a document that
// a label l does not hold, but to which l's probability exceeds the
// uniform 1/L, is added to l's rest again, weighted by η times the
// excess. The labels that take probability from a document wrongly so
// learn its terms as evidence against them; a label never confused keeps
// its counts, and the table gains cells only where confusion was. It also
// returns the weights gained (reweight.Task.Weights) for foldGain.
func (f *ovrFit) reweighted(c ovrCounts, in func(i int) bool, set setting) (ovrCounts, []float64, error) {
	if set.passes == 0 {
		return c, nil, nil
	}
	var w []float64
	t := f.task(in, set.alpha, &c)
	t.Weights = &w
	extra, err := reweight.Gains(t, set.passes, set.rate)
	c.extra = extra
	return c, w, err
}

// foldGain returns what the documents for which in is false gained in a
// reweighting of every document whose weights are w and gains all: its
// gains less those of the documents for which in is true. Cross-validation's fold models are a reweighting's
// model less the fold, as they are its counts less the fold's, so that
// one reweighting serves every fold: the fold's own weights leave with it,
// while the other documents keep the weights that a model which had seen
// the fold gave them.
func (f *ovrFit) foldGain(w []float64, all *compact.Counts, in func(i int) bool) (*compact.Counts, error) {
	t := f.task(in, 0, nil)
	L := f.labels
	sub := f.foldWeights[:0]
	for _, i := range t.Docs {
		sub = append(sub, w[i*L:(i+1)*L]...)
	}
	f.foldWeights = sub
	var err error
	if f.foldSum, err = reweight.Sum(f.foldSum, t, sub); err != nil {
		return nil, err
	}
	f.foldLess, err = reweight.Less(f.foldLess, all, f.foldSum)
	return f.foldLess, err
}

// task is the reweighting of the documents for which in is true, whose
// passes fit the sums c at α alpha (c nil: for reweight.Sum alone).
func (f *ovrFit) task(in func(i int) bool, alpha float64, c *ovrCounts) reweight.Task {
	var docs []int
	for i := range f.sets {
		if in(i) {
			docs = append(docs, i)
		}
	}
	t := reweight.Task{
		Classes: f.labels, Features: f.X.Cols, Docs: docs,
		Row:      func(i int) ([]int32, []float64) { return f.X.Row(i) },
		Holds:    func(i, l int) bool { return slices.Contains(f.sets[i], int32(l)) },
		LogProbs: func(jll []float64) { logScores(ComplementScore, jll) },
	}
	if c != nil {
		t.Fit = func(dst *compact.Linear, gain *compact.Counts) (*compact.Linear, error) {
			fc := *c
			fc.extra = gain
			return f.fitInto(dst, fc, alpha)
		}
	}
	return t
}
