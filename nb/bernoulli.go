package nb

import (
	"fmt"
	"math"
)

// Bernoulli is scikit-learn's BernoulliNB: a feature is present unless its
// value is at most Binarize (the zero value's threshold 0 is scikit-learn's
// default), both when counting and when scoring.
//
//	FeatureLogProb[c,j] = log(N_cj + α) − log(n_c + 2α)
//	jll(x)[c] = ClassLogPrior[c] + Σ_j [x_j log p_cj + (1−x_j) log(1−p_cj)]
//
// Absent features contribute log(1−p_cj), so the per-class sum of those is
// precomputed and a document is scored in one pass over its present terms.
// Its Counts must be binarized the same way: create them with NewCounts(m, …).
type Bernoulli struct {
	Alpha        float64   // additive smoothing; 0: DefaultAlpha
	Binarize     float64   // presence threshold: x > Binarize counts as 1
	NoBinarize   bool      // input is already 0/1: use values as they are
	UniformPrior bool      // use −log K instead of the class frequencies
	ClassPrior   []float64 // given class priors; override UniformPrior

	// Fitted parameters.
	FeatureLogProb []float64 // K×F, row-major
	ClassLogPrior  []float64 // K

	tab linear
}

// NumClasses returns the number of classes of the fitted model.
func (m *Bernoulli) NumClasses() int { return len(m.ClassLogPrior) }

// Fit estimates the parameters from c, which must be binarized like m (see
// NewCounts). On error m is unchanged.
func (m *Bernoulli) Fit(c *Counts) error {
	alpha, prior, err := fitStart(m.Alpha, c, m.UniformPrior, m.ClassPrior)
	if err != nil {
		return err
	}
	if err := m.checkBinary(c); err != nil {
		return err
	}
	f := c.Features
	flp := make([]float64, len(c.FeatureCount))
	for k, n := range c.ClassCount {
		logTotal := math.Log(n + 2*alpha)
		for j, nj := range c.FeatureCount[k*f : (k+1)*f] {
			flp[k*f+j] = math.Log(nj+alpha) - logTotal
		}
	}
	m.FeatureLogProb, m.ClassLogPrior = flp, prior
	return m.prepare()
}

// checkBinary verifies that c counts presence the way m scores it.
func (m *Bernoulli) checkBinary(c *Counts) error {
	if c.Binary == m.NoBinarize || c.Binary && c.Threshold != m.Binarize {
		return fmt.Errorf("%w: counts binary=%t threshold=%g, model binarizes=%t at %g (use NewCounts(m, …))",
			ErrConfig, c.Binary, c.Threshold, !m.NoBinarize, m.Binarize)
	}
	f := c.Features
	for k, n := range c.ClassCount {
		for j, nj := range c.FeatureCount[k*f : (k+1)*f] {
			if nj > n*(1+1e-9) {
				return fmt.Errorf("%w: feature %d of class %d counts %g in %g documents: input is not 0/1",
					ErrConfig, j, k, nj, n)
			}
		}
	}
	return nil
}

// prepare builds the scoring table from the exported parameters. Fit calls
// it; a model whose parameters were set directly scores without it, only
// slower (scoreWith).
func (m *Bernoulli) prepare() error {
	var err error
	m.tab, err = m.buildTable()
	return err
}

// buildTable folds the absent-feature terms into the bias:
// w = log p − log(1−p), bias = log prior + Σ_j log(1−p).
func (m *Bernoulli) buildTable() (linear, error) {
	k := len(m.ClassLogPrior)
	if k == 0 || len(m.FeatureLogProb)%k != 0 {
		return newTable(m.FeatureLogProb, m.ClassLogPrior) // reports the error
	}
	f := len(m.FeatureLogProb) / k
	w := make([]float64, len(m.FeatureLogProb))
	bias := make([]float64, k)
	for c := range k {
		bias[c] = m.ClassLogPrior[c]
		for j, lp := range m.FeatureLogProb[c*f : (c+1)*f] {
			neg := math.Log1p(-math.Exp(lp))
			w[c*f+j] = lp - neg
			bias[c] += neg
		}
	}
	t, err := newTable(w, bias)
	t.Binary, t.Threshold = !m.NoBinarize, m.Binarize
	return t, err
}

// JointLogLikelihood binarizes the row like the training data and appends
// the log joint probability of every class.
func (m *Bernoulli) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	return scoreWith(m, &m.tab, len(m.ClassLogPrior), len(m.FeatureLogProb), dst, idx, val, !m.NoBinarize, m.Binarize)
}
