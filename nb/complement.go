package nb

import "math"

// Complement is scikit-learn's ComplementNB (Rennie et al. 2003 without
// their TF-IDF transform, which belongs to the weighting stage):
//
//	comp[c,j]   = Σ_c' N_c'j + α − N_cj
//	logged[c,j] = log(comp[c,j] / Σ_j comp[c,j])
//	FeatureLogProb = −logged, or logged / Σ_j logged[c,j] with Norm
//	jll(x)[c]   = Σ_j x_j·FeatureLogProb[c,j]
//
// The class prior is added only when there is a single class, as in
// scikit-learn; ClassLogPrior is still fitted and reported.
type Complement struct {
	Alpha        float64   // additive smoothing; 0: DefaultAlpha
	Norm         bool      // normalize the weights of each class (TWCNB)
	UniformPrior bool      // use −log K instead of the class frequencies
	ClassPrior   []float64 // given class priors; override UniformPrior

	// Fitted parameters.
	FeatureLogProb []float64 // K×F, row-major
	ClassLogPrior  []float64 // K

	tab linear
}

// NumClasses returns the number of classes of the fitted model.
func (m *Complement) NumClasses() int { return len(m.ClassLogPrior) }

// Fit estimates the parameters from c. On error m is unchanged.
func (m *Complement) Fit(c *Counts) error {
	alpha, prior, err := fitStart(m.Alpha, c, m.UniformPrior, m.ClassPrior)
	if err != nil {
		return err
	}
	f := c.Features
	all := make([]float64, f)
	for k := range c.Classes {
		for j, n := range c.FeatureCount[k*f : (k+1)*f] {
			all[j] += n
		}
	}
	flp := make([]float64, len(c.FeatureCount))
	for k := range c.Classes {
		row := flp[k*f : (k+1)*f]
		var total float64
		for j, n := range c.FeatureCount[k*f : (k+1)*f] {
			row[j] = all[j] + alpha - n
			total += row[j]
		}
		var summed float64
		for j, comp := range row {
			row[j] = math.Log(comp / total)
			summed += row[j]
		}
		for j, logged := range row {
			if m.Norm {
				row[j] = logged / summed
			} else {
				row[j] = -logged
			}
		}
	}
	m.FeatureLogProb, m.ClassLogPrior = flp, prior
	return m.prepare()
}

// prepare builds the scoring table from the exported parameters. Fit calls
// it; a model whose parameters were set directly scores without it, only
// slower (scoreWith).
func (m *Complement) prepare() error {
	var err error
	m.tab, err = m.buildTable()
	return err
}

func (m *Complement) buildTable() (linear, error) {
	bias := make([]float64, len(m.ClassLogPrior))
	if len(bias) == 1 {
		bias[0] = m.ClassLogPrior[0]
	}
	return newTable(m.FeatureLogProb, bias)
}

// JointLogLikelihood appends Σ_j x_j·FeatureLogProb[c,j] for every class.
func (m *Complement) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	return scoreWith(m, &m.tab, len(m.ClassLogPrior), len(m.FeatureLogProb), dst, idx, val, false, 0)
}
