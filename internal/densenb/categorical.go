package densenb

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/nb"

	"gonum.org/v1/gonum/floats"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/finite"
)

// DefaultCategoricalAlpha is the additive smoothing of a Categorical model
// whose Alpha is 0, scikit-learn's default, as in package table.
const DefaultCategoricalAlpha = 1.0

// MaxCategories bounds the number of categories of one Categorical feature
// so that a stray huge value cannot exhaust memory.
const MaxCategories = 1 << 20

// Categorical is scikit-learn's CategoricalNB over dense rows of category
// ids: feature i of class c takes category k with probability
// (n_cik + α) / (Σ_k n_cik + α·NCategories[i]).
//
// Categories are 0..NCategories[i]-1; negative ones are rejected (at
// prediction they score NaN). A category ≥ NCategories[i], never seen in
// training, scores the smoothed probability of an unseen category,
// α / (Σ_k n_cik + α·NCategories[i]), where scikit-learn raises IndexError.
//
// NCategories[i] is the widest the feature has been over all batches
// (largest category + 1, at least MinCategories[i]); scikit-learn's
// n_categories_ reflects only the last batch, but its probabilities use the
// same widths. Class priors are not smoothed, as everywhere in this package.
type Categorical struct {
	// Alpha is the additive smoothing; 0: DefaultCategoricalAlpha.
	Alpha float64
	// MinCategories optionally gives a minimum number of categories per
	// feature (for example the bin counts of a discretizer), so that
	// categories absent from training still share the smoothing mass.
	MinCategories []int

	ClassCount     []float64   // K training rows per class
	CategoryCount  [][]float64 // per feature, K×NCategories[i] row-major
	FeatureLogProb [][]float64 // per feature, K×NCategories[i] row-major
	ClassLogPrior  []float64   // K
	NCategories    []int       // F

	// table holds per feature i, from off[i], NCategories[i]+1 rows of K
	// log probabilities: the categories, then the unseen category.
	table []float64
	off   []int
}

// Fit estimates the model from the rows of X with labels y in [0, classes),
// discarding any previous fit. On error m is unchanged.
func (m *Categorical) Fit(X [][]int, y []int, classes int) error {
	return m.fit(X, y, classes, true)
}

// PartialFit adds a batch of rows to the counts (scikit-learn's
// partial_fit); classes must be the same in every call. On error m is
// unchanged.
func (m *Categorical) PartialFit(X [][]int, y []int, classes int) error {
	return m.fit(X, y, classes, false)
}

func (m *Categorical) fit(X [][]int, y []int, classes int, refit bool) error {
	alpha, err := m.alpha()
	if err != nil {
		return err
	}
	width, err := checkCategoryRows(X)
	if err != nil {
		return err
	}
	f := len(width)
	if err := checkDenseLabels(y, len(X), classes); err != nil {
		return err
	}
	if err := m.checkMinCategories(f); err != nil {
		return err
	}
	first := refit || len(m.ClassCount) == 0
	if !first {
		if err := m.checkBatch(classes, f); err != nil {
			return err
		}
	} else {
		m.ClassCount = make([]float64, classes)
		m.CategoryCount = make([][]float64, f)
		m.NCategories = make([]int, f)
	}
	m.grow(width)
	for r, row := range X {
		c := y[r]
		m.ClassCount[c]++
		for i, v := range row {
			m.CategoryCount[i][c*m.NCategories[i]+v]++
		}
	}
	m.update(alpha)
	return nil
}

// Merge adds the counts of o, fitted on other rows with the same classes
// and features, to m and refits with m's Alpha: the result equals fitting on
// the union of both training sets. An unfitted m takes o's counts; an
// unfitted o changes nothing. On error m is unchanged.
func (m *Categorical) Merge(o *Categorical) error {
	if o == nil {
		return fmt.Errorf("%w: merge with a nil model", nb.ErrShape)
	}
	alpha, err := m.alpha()
	if err != nil {
		return err
	}
	k, f, err := o.shape()
	if err != nil || k == 0 {
		return err
	}
	if err := m.checkMinCategories(f); err != nil {
		return err
	}
	if len(m.ClassCount) == 0 {
		m.ClassCount = make([]float64, k)
		m.CategoryCount = make([][]float64, f)
		m.NCategories = make([]int, f)
	} else if err := m.checkBatch(k, f); err != nil {
		return err
	}
	m.grow(o.NCategories)
	for c, n := range o.ClassCount {
		m.ClassCount[c] += n
	}
	for i, cnt := range o.CategoryCount {
		no, nm := o.NCategories[i], m.NCategories[i]
		for c := range k {
			floats.Add(m.CategoryCount[i][c*nm:c*nm+no], cnt[c*no:(c+1)*no])
		}
	}
	m.update(alpha)
	return nil
}

// grow widens every feature's counts to at least width[i] and
// MinCategories[i] categories.
func (m *Categorical) grow(width []int) {
	k := len(m.ClassCount)
	for i, old := range m.NCategories {
		w := max(old, width[i])
		if m.MinCategories != nil {
			w = max(w, m.MinCategories[i])
		}
		if w == old && m.CategoryCount[i] != nil {
			continue
		}
		cnt := make([]float64, k*w)
		for c := range k {
			copy(cnt[c*w:c*w+old], m.CategoryCount[i][c*old:(c+1)*old])
		}
		m.CategoryCount[i], m.NCategories[i] = cnt, w
	}
}

// update recomputes the log probabilities from the counts.
func (m *Categorical) update(alpha float64) {
	k := len(m.ClassCount)
	var total float64
	for _, n := range m.ClassCount {
		total += n
	}
	m.ClassLogPrior = make([]float64, k)
	for c, n := range m.ClassCount {
		m.ClassLogPrior[c] = math.Log(n) - math.Log(total)
	}
	m.FeatureLogProb = make([][]float64, len(m.CategoryCount))
	for i, cnt := range m.CategoryCount {
		n := m.NCategories[i]
		flp := make([]float64, len(cnt))
		for c := range k {
			logDen := math.Log(smoothedTotal(cnt[c*n:(c+1)*n], alpha))
			for v, x := range cnt[c*n : (c+1)*n] {
				flp[c*n+v] = math.Log(x+alpha) - logDen
			}
		}
		m.FeatureLogProb[i] = flp
	}
	m.buildTable(k, alpha)
}

// Prepare checks the fitted fields and precomputes the scoring table.
func (m *Categorical) Prepare() error {
	alpha, err := m.alpha()
	if err != nil {
		return err
	}
	k, _, err := m.shape()
	if err != nil {
		return err
	}
	if k == 0 {
		return nb.ErrNotFitted
	}
	if err := m.checkValues(); err != nil {
		return err
	}
	m.buildTable(k, alpha)
	if i := finite.Beyond(m.table, math.MaxFloat64); i >= 0 {
		err := fmt.Errorf("%w: a log probability of %g", nb.ErrNotFinite, m.table[i])
		m.table, m.off = nil, nil
		return err
	}
	return nil
}

func (m *Categorical) buildTable(k int, alpha float64) {
	m.off = make([]int, len(m.NCategories)+1)
	for i, n := range m.NCategories {
		m.off[i+1] = m.off[i] + (n+1)*k
	}
	m.table = make([]float64, m.off[len(m.NCategories)])
	for i, n := range m.NCategories {
		for v := range n + 1 {
			for c := range k {
				m.table[m.off[i]+v*k+c] = m.logProb(i, c, v, alpha)
			}
		}
	}
}

// logProb returns log P(x_i = v | c); v ≥ NCategories[i] is unseen.
func (m *Categorical) logProb(i, c, v int, alpha float64) float64 {
	n := m.NCategories[i]
	if v < n {
		return m.FeatureLogProb[i][c*n+v]
	}
	return math.Log(alpha) - math.Log(smoothedTotal(m.CategoryCount[i][c*n:(c+1)*n], alpha))
}

// smoothedTotal returns Σ_k (cnt[k] + α), summed like numpy.
func smoothedTotal(cnt []float64, alpha float64) float64 {
	var s float64
	for _, x := range cnt {
		s += x + alpha
	}
	return s
}

// JointLogLikelihoodInt appends, per class, log P(c) + Σ_i log P(x_i|c)
// of the row of category ids x to dst. A row of the wrong length, a
// negative category, or a model whose fields disagree scores NaN for every
// class.
func (m *Categorical) JointLogLikelihoodInt(dst []float64, x []int) []float64 {
	k := len(m.ClassLogPrior)
	f := len(m.NCategories)
	if len(x) != f {
		return dense.NaNRow(dst, k)
	}
	if len(m.off) != f+1 || len(m.table) != m.off[f] || len(m.ClassCount) != k {
		return m.jllSlow(dst, x)
	}
	n := len(dst)
	dst = append(dst, make([]float64, k)...)
	out := dst[n:]
	for i, v := range x {
		if v < 0 {
			return dense.NaNRow(dst[:n], k)
		}
		v = min(v, m.NCategories[i])
		w := m.table[m.off[i]+v*k : m.off[i]+v*k+k]
		for c := range out {
			out[c] += w[c]
		}
	}
	for c, p := range m.ClassLogPrior {
		out[c] += p
	}
	return dst
}

// jllSlow scores an unprepared model from its exported fields.
func (m *Categorical) jllSlow(dst []float64, x []int) []float64 {
	k := len(m.ClassLogPrior)
	alpha, err := m.alpha()
	if _, _, serr := m.shape(); err != nil || serr != nil {
		return dense.NaNRow(dst, k)
	}
	for c, p := range m.ClassLogPrior {
		var s float64
		for i, v := range x {
			if v < 0 {
				s = math.NaN()
				break
			}
			s += m.logProb(i, c, min(v, m.NCategories[i]), alpha)
		}
		dst = append(dst, s+p)
	}
	return dst
}

// shape returns K and F of the fitted fields, or an error if they disagree.
func (m *Categorical) shape() (k, f int, err error) {
	k, f = len(m.ClassCount), len(m.NCategories)
	if k == 0 {
		return 0, 0, nil
	}
	bad := len(m.ClassLogPrior) != k || len(m.CategoryCount) != f || len(m.FeatureLogProb) != f
	for i := 0; !bad && i < f; i++ {
		n := m.NCategories[i]
		bad = n < 1 || n > MaxCategories || len(m.CategoryCount[i]) != k*n || len(m.FeatureLogProb[i]) != k*n
	}
	if f == 0 || bad {
		return 0, 0, fmt.Errorf("%w: Categorical fields disagree on %d classes × %d features", nb.ErrShape, k, f)
	}
	return k, f, nil
}

// checkBatch reports whether more data of classes×f fits the fitted m.
func (m *Categorical) checkBatch(classes, f int) error {
	k, mf, err := m.shape()
	if err != nil {
		return err
	}
	if classes != k || f != mf {
		return fmt.Errorf("%w: data of %d classes × %d features for a model of %d classes × %d features",
			nb.ErrShape, classes, f, k, mf)
	}
	return nil
}

func (m *Categorical) checkMinCategories(f int) error {
	if m.MinCategories == nil {
		return nil
	}
	if len(m.MinCategories) != f {
		return fmt.Errorf("%w: %d MinCategories for %d features", nb.ErrConfig, len(m.MinCategories), f)
	}
	for i, n := range m.MinCategories {
		if n < 0 || n > MaxCategories {
			return fmt.Errorf("%w: MinCategories[%d] is %d, want 0..%d", nb.ErrConfig, i, n, MaxCategories)
		}
	}
	return nil
}

func (m *Categorical) alpha() (float64, error) {
	return check.Alpha(m.Alpha, DefaultCategoricalAlpha, nb.MinAlpha)
}

// checkCategoryRows reports whether X is a non-empty rectangular matrix of
// valid category ids and returns, per feature, the largest id + 1.
func checkCategoryRows(X [][]int) ([]int, error) {
	if len(X) == 0 {
		return nil, nb.ErrEmpty
	}
	f := len(X[0])
	if f == 0 {
		return nil, fmt.Errorf("%w: rows have no columns", nb.ErrShape)
	}
	width := make([]int, f)
	for r, row := range X {
		if len(row) != f {
			return nil, fmt.Errorf("%w: row %d has %d columns, row 0 has %d", nb.ErrShape, r, len(row), f)
		}
		for i, v := range row {
			switch {
			case v < 0:
				return nil, fmt.Errorf("%w: row %d column %d has category %d", nb.ErrNegative, r, i, v)
			case v >= MaxCategories:
				return nil, fmt.Errorf("%w: row %d column %d has category %d, limit %d",
					nb.ErrShape, r, i, v, MaxCategories-1)
			}
			width[i] = max(width[i], v+1)
		}
	}
	return width, nil
}
