package densenb

import (
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/nb"

	"gonum.org/v1/gonum/floats"

	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/finite"
)

// DefaultVarSmoothing is Gaussian's VarSmoothing when the field is 0,
// scikit-learn's default.
const DefaultVarSmoothing = 1e-9

// Gaussian is scikit-learn's GaussianNB over dense rows: each feature is
// normal within a class, with mean Theta and variance Var.
//
// Every variance is raised by Epsilon = VarSmoothing · the largest column
// variance of the (last) training batch. A variance that is still 0 (every
// column of that batch constant, so Epsilon is 0) is scored as VarSmoothing,
// as if the largest variance were 1, where scikit-learn would produce NaN.
type Gaussian struct {
	// VarSmoothing is the fraction of the largest column variance added to
	// every variance; 0: DefaultVarSmoothing.
	VarSmoothing float64
	// Priors fixes the class priors (non-negative, summing to 1); nil
	// estimates them from the class frequencies.
	Priors []float64

	ClassCount []float64 // K training rows per class
	ClassPrior []float64 // K
	Theta      []float64 // K×F row-major per-class means
	Var        []float64 // K×F row-major per-class variances, Epsilon included
	Epsilon    float64

	bias []float64 // K: log prior − ½ Σ_j log(2π var)
	prec []float64 // K×F: 1/var
}

// Fit estimates the model from the rows of X with labels y in [0, classes),
// discarding any previous fit. On error g is unchanged.
func (g *Gaussian) Fit(X [][]float64, y []int, classes int) error {
	return g.fit(X, y, classes, true)
}

// PartialFit adds a batch of rows to the fit, as scikit-learn's
// partial_fit: per-class means and variances are combined with the
// Chan–Golub–LeVeque update and Epsilon is recomputed from this batch.
// classes must be the same in every call. On error g is unchanged.
func (g *Gaussian) PartialFit(X [][]float64, y []int, classes int) error {
	return g.fit(X, y, classes, false)
}

func (g *Gaussian) fit(X [][]float64, y []int, classes int, refit bool) error {
	vs, err := g.varSmoothing()
	if err != nil {
		return err
	}
	f, err := CheckRows(X)
	if err != nil {
		return err
	}
	if err := checkDenseLabels(y, len(X), classes); err != nil {
		return err
	}
	if err := checkPriors(g.Priors, classes); err != nil {
		return err
	}
	first := refit || len(g.ClassCount) == 0
	if !first {
		if err := g.checkBatch(classes, f); err != nil {
			return err
		}
	}

	eps := vs * maxColumnVar(X, f)
	if first {
		g.ClassCount = make([]float64, classes)
		g.Theta = make([]float64, classes*f)
		g.Var = make([]float64, classes*f)
	} else {
		for i := range g.Var {
			g.Var[i] -= g.Epsilon // put epsilon back, as scikit-learn does
		}
	}
	n, mean, vr := classMeanVar(X, y, classes, f)
	for c := range classes {
		g.combine(c, f, n[c], mean[c*f:(c+1)*f], vr[c*f:(c+1)*f])
	}
	for i := range g.Var {
		g.Var[i] += eps
	}
	g.Epsilon = eps
	g.updatePrior()
	return g.Prepare()
}

// combine merges n rows with per-feature mean and variance into class c.
func (g *Gaussian) combine(c, f int, n float64, mean, vr []float64) {
	lo, hi := c*f, (c+1)*f
	combineMeanVar(g.ClassCount[c], g.Theta[lo:hi], g.Var[lo:hi], n, mean, vr)
	g.ClassCount[c] += n
}

// Merge adds the statistics of o, fitted on other rows with the same
// classes and features, to g: the result equals fitting on the union of
// both training sets, Epsilon included (recomputed with g.VarSmoothing
// from the pooled variance of all rows). An unfitted g becomes a copy of o's statistics; an
// unfitted o changes nothing. On error g is unchanged.
func (g *Gaussian) Merge(o *Gaussian) error {
	if o == nil {
		return fmt.Errorf("%w: merge with a nil model", nb.ErrShape)
	}
	vs, err := g.varSmoothing()
	if err != nil {
		return err
	}
	ko, fo, err := o.shape()
	if err != nil || ko == 0 {
		return err
	}
	if err := checkPriors(g.Priors, ko); err != nil {
		return err
	}
	if len(g.ClassCount) == 0 {
		g.ClassCount = make([]float64, ko)
		g.Theta = make([]float64, ko*fo)
		g.Var = make([]float64, ko*fo)
		g.Epsilon = 0
	} else if err := g.checkBatch(ko, fo); err != nil {
		return err
	}
	for i := range g.Var {
		g.Var[i] -= g.Epsilon
	}
	for c := range ko {
		raw := slices.Clone(o.Var[c*fo : (c+1)*fo])
		for j := range raw {
			raw[j] -= o.Epsilon
		}
		g.combine(c, fo, o.ClassCount[c], o.Theta[c*fo:(c+1)*fo], raw)
	}
	g.Epsilon = vs * g.pooledMaxVar(fo)
	for i := range g.Var {
		g.Var[i] += g.Epsilon
	}
	g.updatePrior()
	return g.Prepare()
}

// pooledMaxVar returns the largest per-feature variance of all training
// rows, pooled from the per-class statistics (Var without Epsilon).
func (g *Gaussian) pooledMaxVar(f int) float64 {
	var n float64
	mean, vr := make([]float64, f), make([]float64, f)
	for c, nc := range g.ClassCount {
		combineMeanVar(n, mean, vr, nc, g.Theta[c*f:(c+1)*f], g.Var[c*f:(c+1)*f])
		n += nc
	}
	return slices.Max(vr)
}

// checkBatch reports whether more data of classes×f fits the fitted g.
func (g *Gaussian) checkBatch(classes, f int) error {
	k, gf, err := g.shape()
	if err != nil {
		return err
	}
	if classes != k || f != gf {
		return fmt.Errorf("%w: data of %d classes × %d features for a model of %d classes × %d features",
			nb.ErrShape, classes, f, k, gf)
	}
	return nil
}

func (g *Gaussian) updatePrior() {
	if g.Priors != nil {
		g.ClassPrior = slices.Clone(g.Priors)
		return
	}
	var total float64
	for _, n := range g.ClassCount {
		total += n
	}
	g.ClassPrior = make([]float64, len(g.ClassCount))
	for c, n := range g.ClassCount {
		g.ClassPrior[c] = n / total
	}
}

// Prepare checks the fitted fields and precomputes the scoring tables.
func (g *Gaussian) Prepare() error {
	k, f, err := g.shape()
	if err != nil {
		return err
	}
	if err := g.checkValues(); err != nil {
		return err
	}
	bias, prec := make([]float64, k), make([]float64, k*f)
	for c := range k {
		bias[c] = g.classBias(c, f)
		for j, v := range g.Var[c*f : (c+1)*f] {
			prec[c*f+j] = 1 / g.scoredVar(v)
		}
	}
	if i := finite.Beyond(prec, math.MaxFloat64); i >= 0 {
		return fmt.Errorf("%w: variance %g is too small to score with", nb.ErrNotFinite, g.Var[i])
	}
	g.bias, g.prec = bias, prec
	return nil
}

// shape returns K and F of the fitted fields, or an error if they disagree.
func (g *Gaussian) shape() (k, f int, err error) {
	k = len(g.ClassCount)
	if k == 0 {
		return 0, 0, nil
	}
	f = len(g.Theta) / k
	if f == 0 || len(g.Theta) != k*f || len(g.Var) != k*f || len(g.ClassPrior) != k {
		return 0, 0, fmt.Errorf("%w: Gaussian has %d class counts, %d priors, %d means, %d variances",
			nb.ErrShape, k, len(g.ClassPrior), len(g.Theta), len(g.Var))
	}
	return k, f, nil
}

// classBias returns log prior − ½ Σ_j log(2π var) for class c.
func (g *Gaussian) classBias(c, f int) float64 {
	var s float64
	for _, v := range g.Var[c*f : (c+1)*f] {
		s += math.Log(2 * math.Pi * g.scoredVar(v))
	}
	return math.Log(g.ClassPrior[c]) - 0.5*s
}

// scoredVar floors a zero variance (see the type's documentation).
func (g *Gaussian) scoredVar(v float64) float64 {
	if v > 0 {
		return v
	}
	vs, err := g.varSmoothing()
	if err != nil {
		return DefaultVarSmoothing
	}
	return vs
}

// JointLogLikelihoodDense appends, per class, log P(c) + log p(x|c) of the
// dense row x to dst. A row of the wrong length, or a model whose fields
// disagree, scores NaN for every class.
func (g *Gaussian) JointLogLikelihoodDense(dst []float64, x []float64) []float64 {
	k, f, err := g.shape()
	if err != nil || len(x) != f {
		return dense.NaNRow(dst, len(g.ClassCount))
	}
	prepared := len(g.bias) == k && len(g.prec) == k*f
	for c := range k {
		th := g.Theta[c*f : (c+1)*f]
		var s float64
		if prepared {
			p := g.prec[c*f : (c+1)*f]
			for j, v := range x {
				d := v - th[j]
				s += d * d * p[j]
			}
			dst = append(dst, g.bias[c]-0.5*s)
			continue
		}
		for j, v := range x {
			d := v - th[j]
			s += d * d / g.scoredVar(g.Var[c*f+j])
		}
		dst = append(dst, g.classBias(c, f)-0.5*s)
	}
	return dst
}

func (g *Gaussian) varSmoothing() (float64, error) {
	switch vs := g.VarSmoothing; {
	case vs == 0:
		return DefaultVarSmoothing, nil
	case !(vs > 0) || math.IsInf(vs, 1):
		return 0, fmt.Errorf("%w: VarSmoothing %g", nb.ErrConfig, vs)
	default:
		return vs, nil
	}
}

// checkPriors validates fixed class priors as scikit-learn does.
func checkPriors(p []float64, classes int) error {
	if p == nil {
		return nil
	}
	if len(p) != classes {
		return fmt.Errorf("%w: %d priors for %d classes", nb.ErrConfig, len(p), classes)
	}
	var s float64
	for c, v := range p {
		if !(v >= 0) || math.IsInf(v, 1) {
			return fmt.Errorf("%w: prior %d is %g", nb.ErrConfig, c, v)
		}
		s += v
	}
	if math.Abs(s-1) > 1e-8+1e-5 { // numpy.isclose(sum, 1)
		return fmt.Errorf("%w: priors sum to %g, not 1", nb.ErrConfig, s)
	}
	return nil
}

// combineMeanVar merges nb rows of mean mb and variance vb into na rows of
// mean ma and variance va, in place: Chan, Golub & LeVeque's pairwise update
// exactly as scikit-learn's _update_mean_variance computes it.
func combineMeanVar(na float64, ma, va []float64, nb float64, mb, vb []float64) {
	switch {
	case nb == 0:
		return
	case na == 0:
		copy(ma, mb)
		copy(va, vb)
		return
	}
	n := na + nb
	w := nb * na / n
	for j := range ma {
		d := ma[j] - mb[j]
		ssd := na*va[j] + nb*vb[j] + w*(d*d)
		ma[j] = (nb*mb[j] + na*ma[j]) / n
		va[j] = ssd / n
	}
}

// classMeanVar returns per-class row counts and K×F means and (biased)
// variances of the rows of X, summed in row order like numpy.
func classMeanVar(X [][]float64, y []int, classes, f int) (n, mean, vr []float64) {
	n = make([]float64, classes)
	mean = make([]float64, classes*f)
	vr = make([]float64, classes*f)
	for r, row := range X {
		c := y[r]
		n[c]++
		floats.Add(mean[c*f:(c+1)*f], row)
	}
	for c, nc := range n {
		for j := range f {
			mean[c*f+j] /= max(nc, 1)
		}
	}
	for r, row := range X {
		c := y[r]
		m, v := mean[c*f:(c+1)*f], vr[c*f:(c+1)*f]
		for j, x := range row {
			d := x - m[j]
			v[j] += d * d
		}
	}
	for c, nc := range n {
		for j := range f {
			vr[c*f+j] /= max(nc, 1)
		}
	}
	return n, mean, vr
}

// maxColumnVar returns the largest column variance of X (numpy.var).
func maxColumnVar(X [][]float64, f int) float64 {
	y := make([]int, len(X))
	_, _, vr := classMeanVar(X, y, 1, f)
	return slices.Max(vr)
}

// CheckRows reports whether X is a non-empty rectangular matrix of
// finite values with at least one column, and returns its width.
func CheckRows(X [][]float64) (int, error) {
	if len(X) == 0 {
		return 0, nb.ErrEmpty
	}
	f := len(X[0])
	if f == 0 {
		return 0, fmt.Errorf("%w: rows have no columns", nb.ErrShape)
	}
	for r, row := range X {
		if len(row) != f {
			return 0, fmt.Errorf("%w: row %d has %d columns, row 0 has %d", nb.ErrShape, r, len(row), f)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, fmt.Errorf("%w: row %d column %d has value %g", nb.ErrNotFinite, r, j, v)
			}
		}
	}
	return f, nil
}

// checkDenseLabels reports whether y holds n labels in [0, classes).
func checkDenseLabels(y []int, n, classes int) error {
	if classes < 1 {
		return fmt.Errorf("%w: %d classes", nb.ErrConfig, classes)
	}
	if len(y) != n {
		return fmt.Errorf("%w: %d labels for %d rows", nb.ErrShape, len(y), n)
	}
	for r, c := range y {
		if c < 0 || c >= classes {
			return fmt.Errorf("%w: row %d has label %d, want 0..%d", nb.ErrLabel, r, c, classes-1)
		}
	}
	return nil
}
