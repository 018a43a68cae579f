package nb

import (
	"fmt"
	"slices"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/vectorize"
)

// Counts holds the sufficient statistics of the discrete text models:
// ClassCount[c] is the (weighted) number of documents of class c and
// FeatureCount[c*Features+j] the (weighted) sum of feature j over them.
//
// With Binary set, Add counts a value as 1 when it exceeds Threshold and as
// 0 otherwise: the statistics of scikit-learn's BernoulliNB.
type Counts struct {
	Classes, Features int
	ClassCount        []float64
	FeatureCount      []float64 // Classes×Features, row-major

	Binary    bool
	Threshold float64
}

// NewCounts returns zeroed counts for classes×features that count rows
// the way est is fitted from: binarized like a *Bernoulli, values as they
// are for any other estimator or nil.
func NewCounts(est Estimator, classes, features int) *Counts {
	classes, features = max(classes, 0), max(features, 0)
	c := &Counts{
		Classes:      classes,
		Features:     features,
		ClassCount:   make([]float64, classes),
		FeatureCount: make([]float64, classes*features),
	}
	if m, ok := est.(*Bernoulli); ok && m != nil {
		c.Binary, c.Threshold = !m.NoBinarize, m.Binarize
	}
	return c
}

// Add counts the rows of X with labels y in [0, Classes), row i with the
// non-negative weight w[i] (w nil: all 1). Adding more batches later is
// scikit-learn's partial_fit. On error c is unchanged.
func (c *Counts) Add(X *vectorize.CSR, y []int, w []float64) error {
	if err := c.check(X, len(y), 1); err != nil {
		return err
	}
	if w != nil && len(w) != X.Rows {
		return fmt.Errorf("%w: %d weights for %d rows", ErrShape, len(w), X.Rows)
	}
	for i, label := range y {
		if label < 0 || label >= c.Classes {
			return fmt.Errorf("%w: row %d has label %d, want 0..%d", ErrLabel, i, label, c.Classes-1)
		}
		if w != nil {
			if err := check.Weight("weight", i, w[i]); err != nil {
				return err
			}
		}
	}
	for i, label := range y {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		idx, val := X.Row(i)
		c.addRow(idx, val, label, wi)
	}
	return nil
}

// addSoft adds every row of X to every class c with weight
// scale·resp[row*Classes+c] (the fractional counts of an EM M-step), on
// input already validated.
func (c *Counts) addSoft(X *vectorize.CSR, resp []float64, scale float64) {
	for i := 0; i < X.Rows; i++ {
		idx, val := X.Row(i)
		for k, r := range resp[i*c.Classes : (i+1)*c.Classes] {
			if r != 0 {
				c.addRow(idx, val, k, scale*r)
			}
		}
	}
}

// check validates X against c and that it has n/per rows.
func (c *Counts) check(X *vectorize.CSR, n, per int) error {
	if err := c.checkShape(); err != nil {
		return err
	}
	if err := checkCSR(X, c.Features); err != nil {
		return err
	}
	if n != X.Rows*per {
		return fmt.Errorf("%w: %d rows need %d labels or responsibilities, got %d", ErrShape, X.Rows, X.Rows*per, n)
	}
	return nil
}

// checkShape reports counts whose slices do not hold Classes×Features
// counts for at least one class.
func (c *Counts) checkShape() error {
	if c.Classes < 1 || c.Features < 0 || len(c.ClassCount) != c.Classes ||
		len(c.FeatureCount) != c.Classes*c.Features {
		return fmt.Errorf("%w: counts for %d classes × %d features hold %d class and %d feature counts",
			ErrShape, c.Classes, c.Features, len(c.ClassCount), len(c.FeatureCount))
	}
	return nil
}

// addRow adds one validated row to class k with weight w.
func (c *Counts) addRow(idx []int32, val []float64, k int, w float64) {
	c.ClassCount[k] += w
	fc := c.FeatureCount[k*c.Features : (k+1)*c.Features]
	for p, j := range idx {
		v, ok := dense.Binarized(val[p], c.Binary, c.Threshold)
		if !ok {
			continue
		}
		fc[j] += w * v
	}
}

// Merge adds o's counts to c, as Add would have counted o's rows; both
// must have the same shape and binarization. On error c is unchanged.
func (c *Counts) Merge(o *Counts) error {
	if o == nil {
		return fmt.Errorf("%w: merge with nil counts", ErrShape)
	}
	if c.Classes != o.Classes || c.Features != o.Features ||
		len(c.ClassCount) != len(o.ClassCount) || len(c.FeatureCount) != len(o.FeatureCount) {
		return fmt.Errorf("%w: cannot merge counts of %d classes × %d features into %d classes × %d features",
			ErrShape, o.Classes, o.Features, c.Classes, c.Features)
	}
	if c.Binary != o.Binary || c.Binary && c.Threshold != o.Threshold {
		return fmt.Errorf("%w: cannot merge counts with binary=%t threshold=%g into binary=%t threshold=%g",
			ErrConfig, o.Binary, o.Threshold, c.Binary, c.Threshold)
	}
	for i, v := range o.ClassCount {
		c.ClassCount[i] += v
	}
	for i, v := range o.FeatureCount {
		c.FeatureCount[i] += v
	}
	return nil
}

// clone returns a deep copy of c.
func (c *Counts) clone() *Counts {
	d := *c
	d.ClassCount = slices.Clone(c.ClassCount)
	d.FeatureCount = slices.Clone(c.FeatureCount)
	return &d
}

// copyFrom overwrites c with o, reusing c's storage: same shape assumed.
func (c *Counts) copyFrom(o *Counts) {
	copy(c.ClassCount, o.ClassCount)
	copy(c.FeatureCount, o.FeatureCount)
}

// total returns the number of (weighted) documents counted.
func (c *Counts) total() float64 {
	var s float64
	for _, v := range c.ClassCount {
		s += v
	}
	return s
}
