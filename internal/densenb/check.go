package densenb

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/nb"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/finite"
)

// checkFinite reports the first value of v that is NaN or infinite.
func checkFinite(what string, v []float64) error {
	if i := finite.Beyond(v, math.MaxFloat64); i >= 0 {
		return fmt.Errorf("%w: %s %d is %g", nb.ErrNotFinite, what, i, v[i])
	}
	return nil
}

// checkValues reports fitted fields of g that no fit gives: counts that are
// negative or not finite, priors outside [0, 1] or not summing to 1, means
// and variances that are not finite, negative variances, and variances so
// small that their inverse overflows.
func (g *Gaussian) checkValues() error {
	if err := check.Weights("class count", g.ClassCount); err != nil {
		return err
	}
	if err := checkPriors(g.ClassPrior, len(g.ClassCount)); err != nil {
		return err
	}
	if err := checkPriors(g.Priors, len(g.ClassCount)); err != nil {
		return err
	}
	if err := checkFinite("mean", g.Theta); err != nil {
		return err
	}
	if err := check.Weights("variance", g.Var); err != nil {
		return err
	}
	if !check.Good(g.Epsilon) {
		return check.Weight("epsilon", 0, g.Epsilon)
	}
	return nil
}

// checkValues reports fitted fields of m that no fit gives: counts that are
// negative or not finite, log probabilities that are not finite, class
// priors that do not sum to 1.
func (m *Categorical) checkValues() error {
	if err := check.Weights("class count", m.ClassCount); err != nil {
		return err
	}
	if err := checkFinite("class log prior", m.ClassLogPrior); err != nil {
		return err
	}
	prior := make([]float64, len(m.ClassLogPrior))
	for c, lp := range m.ClassLogPrior {
		prior[c] = math.Exp(lp)
	}
	if err := checkPriors(prior, len(prior)); err != nil {
		return fmt.Errorf("class log priors: %w", err)
	}
	for i, cnt := range m.CategoryCount {
		if err := check.Weights(fmt.Sprintf("feature %d category count", i), cnt); err != nil {
			return err
		}
		if err := checkFinite(fmt.Sprintf("feature %d log probability", i), m.FeatureLogProb[i]); err != nil {
			return err
		}
	}
	return nil
}
