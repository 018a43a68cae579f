package pipeline

import (
	"fmt"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/reweight"
	"github.com/textnb/textnb/vectorize"
)

// validateReweight refuses reweighting settings out of range, and explicit
// passes with what reweighting does not support.
func (c Config) validateReweight() error {
	switch {
	case c.Reweight > maxReweight:
		return fmt.Errorf("%w: %d reweighting passes, at most %d", ErrConfig, c.Reweight, maxReweight)
	case !(c.ReweightRate >= 0 && c.ReweightRate <= maxReweightRate):
		return fmt.Errorf("%w: reweighting rate %g, want 0 (the default) or up to %d", ErrConfig, c.ReweightRate, maxReweightRate)
	case c.Reweight <= 0:
		return nil
	case c.Classifier == Bernoulli, c.Norm:
		return fmt.Errorf("%w: reweighting needs Complement NB without --norm or Multinomial NB", ErrConfig)
	case c.Semi.Method != NoSemi:
		return fmt.Errorf("%w: reweighting is not semi-supervised", ErrConfig)
	case c.Select.Method != NoSelect:
		return fmt.Errorf("%w: reweighting with feature selection is not supported", ErrConfig)
	}
	return nil
}

// reweighted reports whether m's classifier was reweighted.
func (m *Model) reweighted() bool { return m.Config.Reweight > 0 }

// reweigh grows m, fitted on the n weighted rows that row returns with
// labels y (m.counts), by m.Config.Reweight passes of reweighting at
// m.Config.ReweightRate (reweight.Gains). Complement NB's gains go to the
// complements of the classes that took probability, as a multi-label
// label's rest; the classifier is then reweight.RestLinear of the counts
// and gains, and m.counts stay the plain counts. Multinomial NB's go to the
// document's own class, weighted by the probability other classes took (Su
// et al.'s update; with two classes the same thing), and m.counts become
// the counts with the gains. m.Config must be concrete (forClasses).
func (m *Model) reweigh(n int, y []int, row func(i int) ([]int32, []float64)) error {
	if !m.reweighted() {
		return nil
	}
	base := m.counts
	docs := make([]int, n)
	for i := range docs {
		docs[i] = i
	}
	t := reweight.Task{Classes: len(m.Classes), Features: base.Features, Docs: docs, Row: row,
		Holds: func(i, c int) bool { return y[i] == c }, LogProbs: reweight.Softmax}
	alpha := m.Config.alpha()
	var fit func(dst *compact.Linear, gain *compact.Counts) (*compact.Linear, *compact.Counts, error)
	switch m.Config.Classifier {
	case Complement:
		tot := reweight.FeatureTotals(base)
		fit = func(dst *compact.Linear, gain *compact.Counts) (*compact.Linear, *compact.Counts, error) {
			lin, err := reweight.RestLinear(dst, base, tot, n, gain, alpha, false)
			return lin, base, err
		}
	case Multinomial:
		t.Own = func(i int) int { return y[i] }
		fit = func(_ *compact.Linear, gain *compact.Counts) (*compact.Linear, *compact.Counts, error) {
			c := base
			if gain != nil {
				var err error
				if c, err = compact.Merge(base, gain); err != nil {
					return nil, nil, err
				}
			}
			lin, err := compact.Fit(m.newEstimator(), c)
			return lin, c, err
		}
	default:
		return fmt.Errorf("%w: %v is not reweighted", ErrConfig, m.Config.Classifier)
	}
	t.Fit = func(dst *compact.Linear, gain *compact.Counts) (*compact.Linear, error) {
		lin, _, err := fit(dst, gain)
		return lin, err
	}
	gain, err := reweight.Gains(t, m.Config.Reweight, m.Config.reweightRate())
	if err != nil {
		return err
	}
	lin, counts, err := fit(nil, gain)
	if err != nil {
		return err
	}
	m.counts = counts
	m.setLin(lin, nil)
	return nil
}

// weightedRows returns the n rows that row appends, each weighted by w (nil:
// as they are), as one matrix of features columns: reweighting scores them
// once a pass.
func weightedRows(features, n int, w weighting, row func(i int, idx []int32, val []float64) ([]int32, []float64)) *vectorize.CSR {
	X := vectorize.NewCSR(features)
	var idx []int32
	var val []float64
	for i := range n {
		idx, val = row(i, idx[:0], val[:0])
		if w != nil {
			_ = w.TransformRow(idx, val) // the rows' columns are in range
		}
		X.AppendRow(idx, val)
	}
	return X
}
