package pipeline

import "slices"

// PosteriorPriors returns the class priors that m's probabilities assume,
// the π of prior correction (nb.AdjustPriors, nb.PriorEM): the training
// class frequencies, or uniform priors when the model leaves them out —
// with UniformPrior, and for Complement NB, whose scores (as in
// scikit-learn) do not include the class prior. A calibrated model's
// probabilities assume the priors of its Calibration.
func (m *Model) PosteriorPriors() []float64 {
	if m.calibration != nil {
		return slices.Clone(m.calibration.Priors)
	}
	if m.Config.UniformPrior || m.Config.Classifier == Complement {
		p := make([]float64, len(m.Classes))
		for c := range p {
			p[c] = 1 / float64(len(p))
		}
		return p
	}
	return m.trainingPriors()
}
