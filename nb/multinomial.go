package nb

import "math"

// Multinomial is scikit-learn's MultinomialNB:
//
//	FeatureLogProb[c,j] = log(N_cj + α) − log Σ_j (N_cj + α)
//	jll(x)[c] = ClassLogPrior[c] + Σ_j x_j·FeatureLogProb[c,j]
//
// The zero value is ready to Fit with the default α and empirical
// (unsmoothed) class priors.
type Multinomial struct {
	Alpha        float64   // additive smoothing; 0: DefaultAlpha
	UniformPrior bool      // use −log K instead of the class frequencies
	ClassPrior   []float64 // given class priors; override UniformPrior

	// Fitted parameters.
	FeatureLogProb []float64 // K×F, row-major
	ClassLogPrior  []float64 // K

	tab linear
}

// NumClasses returns the number of classes of the fitted model.
func (m *Multinomial) NumClasses() int { return len(m.ClassLogPrior) }

// Fit estimates the parameters from c. On error m is unchanged.
func (m *Multinomial) Fit(c *Counts) error {
	alpha, prior, err := fitStart(m.Alpha, c, m.UniformPrior, m.ClassPrior)
	if err != nil {
		return err
	}
	f := c.Features
	flp := make([]float64, len(c.FeatureCount))
	for k := range c.Classes {
		fc := c.FeatureCount[k*f : (k+1)*f]
		var total float64
		for _, n := range fc {
			total += n + alpha
		}
		logTotal := math.Log(total)
		for j, n := range fc {
			flp[k*f+j] = math.Log(n+alpha) - logTotal
		}
	}
	m.FeatureLogProb, m.ClassLogPrior = flp, prior
	return m.prepare()
}

// prepare builds the scoring table from the exported parameters. Fit calls
// it; a model whose parameters were set directly scores without it, only
// slower (scoreWith).
func (m *Multinomial) prepare() error {
	var err error
	m.tab, err = m.buildTable()
	return err
}

func (m *Multinomial) buildTable() (linear, error) {
	return newTable(m.FeatureLogProb, m.ClassLogPrior)
}

// JointLogLikelihood appends log P(c) + Σ_j x_j log P(j|c) for every class.
func (m *Multinomial) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	return scoreWith(m, &m.tab, len(m.ClassLogPrior), len(m.FeatureLogProb), dst, idx, val, false, 0)
}
