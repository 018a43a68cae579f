package compact

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/nb"
)

// ErrUnlearn is returned by Live.Add for a row it cannot take away: a
// class or a cell whose count is smaller than the row's.
var ErrUnlearn = errors.New("compact: the counts do not hold what is to be unlearned")

// A Live is Counts and the Linear that Fit makes of them, held so that
// adding or taking away one row costs O(the row's cells × classes + classes)
// instead of a refit: each feature's cells live in a block of their own,
// moved to the end of the cell arrays when a class joins them, and a
// weight that a row changes is recomputed by Fit's own arithmetic from the
// same operands. Its scores are those of the Linear Fit makes of Counts():
// equal class sums give equal bits; sums of non-integer counts may differ
// in their last bits, as the order of addition does.
//
// It fits Multinomial NB and Complement NB without Norm, of at most
// MaxScorerClasses classes: the other models' weights depend on every
// feature (Norm's Z, Bernoulli's bias). A Live is not safe for concurrent
// use.
type Live struct {
	multinomial bool
	fast        bool // the weights are kept up to date
	binary      bool // of the counts, as Counts' Binary and Threshold
	threshold   float64
	// Tolerance is the relative shortfall of a count below what is to be
	// unlearned that Add forgives, rounding the count to zero: 1e-9 by
	// default, for counts that are sums of integers.
	Tolerance  float64
	est        nb.Estimator // fits the class terms
	alpha      float64
	classCount []float64
	sums       []float64 // per class: Σ of its counts
	feats      []scoredFeature
	count      []float64 // cells, at feats[j].lo in class order
	delta      []float64
	used       int  // cells that feats point to; the rest are garbage
	dropEmpty  bool // a feature whose counts are all zero leaves the model
	dead       int  // features so left
	bias, p, q []float64
	// once, if not nil, counts per class the features whose only non-zero
	// count is 1, in that class (Once); kept up to date from its first use.
	once []float64
}

// deadLo marks a feature that has left the model (see NewLive).
const deadLo = math.MaxUint32

// NewLive returns a Live of est fitted on s. With dropEmpty a feature
// whose counts all become zero stops counting as a feature (as training
// keeps no term it never saw) until a row adds to it again. Without fast
// it keeps the counts alone, for any estimator: the caller fits them
// (Counts) when it needs weights.
func NewLive(est nb.Estimator, s *Counts, dropEmpty, fast bool) (*Live, error) {
	l := &Live{dropEmpty: dropEmpty, fast: fast, binary: s.Binary, threshold: s.Threshold, Tolerance: 1e-9}
	if s.Classes > MaxScorerClasses || len(s.Count) >= math.MaxUint32/2 {
		return nil, fmt.Errorf("%w: no incremental fit of %d classes", nb.ErrConfig, s.Classes)
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	l.classCount, l.sums = slices.Clone(s.ClassCount), s.classSums()
	l.count, l.used = slices.Clone(s.Count), len(s.Count)
	var t *Linear
	if fast {
		switch m := est.(type) {
		case *nb.Multinomial:
			l.multinomial = true
			l.est = &nb.Multinomial{Alpha: m.Alpha, UniformPrior: m.UniformPrior, ClassPrior: m.ClassPrior}
			l.alpha = m.Alpha
		case *nb.Complement:
			if m.Norm {
				return nil, fmt.Errorf("%w: no incremental fit of Complement NB with Norm", nb.ErrConfig)
			}
			l.est = &nb.Complement{Alpha: m.Alpha, UniformPrior: m.UniformPrior, ClassPrior: m.ClassPrior}
			l.alpha = m.Alpha
		default:
			return nil, fmt.Errorf("%w: no incremental fit for %T", nb.ErrConfig, est)
		}
		if s.Binary {
			return nil, fmt.Errorf("%w: no incremental fit of binary counts", nb.ErrConfig)
		}
		alpha, err := fitStart(l.est, l.alpha, s)
		if err != nil {
			return nil, err
		}
		l.alpha = alpha
		if t, err = Fit(est, s); err != nil {
			return nil, err
		}
		l.bias, l.p, l.q = slices.Clone(t.Bias), slices.Clone(t.P), slices.Clone(t.Q)
		l.delta = slices.Clone(t.Delta)
	} else {
		l.delta = make([]float64, len(s.Count))
	}
	l.feats = make([]scoredFeature, s.Features)
	for j := range l.feats {
		f := scoredFeature{lo: uint32(s.Ptr[j])}
		if t != nil && t.Base != nil {
			f.base = t.Base[j]
		}
		for _, c := range s.Class[s.Ptr[j]:s.Ptr[j+1]] {
			f.mask |= 1 << c
		}
		l.feats[j] = f
		if dropEmpty && l.empty(j) {
			l.kill(j)
		}
	}
	if fast && l.dead > 0 {
		// Fit counted the empty features: the class terms without them.
		if err := l.refitClasses(); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// Scale multiplies the counts of each feature j by f[j] (for a weighting
// fitted anew). It is for a Live without fast: the weights are not
// recomputed.
func (l *Live) Scale(f []float64) {
	clear(l.sums)
	for j := range l.feats {
		lo, _ := l.cells(j)
		q := lo
		for m := l.feats[j].mask; m != 0; m &= m - 1 {
			if j < len(f) {
				l.count[q] *= f[j]
			}
			l.sums[bits.TrailingZeros32(m)] += l.count[q]
			q++
		}
	}
}

// NumClasses returns the number of classes.
func (l *Live) NumClasses() int { return len(l.classCount) }

// NumFeatures returns the number of feature columns, those that left the
// model included.
func (l *Live) NumFeatures() int { return len(l.feats) }

// ClassCount returns the number of rows per class; do not modify it.
func (l *Live) ClassCount() []float64 { return l.classCount }

// cells returns feature j's cell range.
func (l *Live) cells(j int) (lo, hi int) {
	f := l.feats[j]
	if f.lo == deadLo {
		return 0, 0
	}
	return int(f.lo), int(f.lo) + bits.OnesCount32(f.mask)
}

// empty reports whether every count of feature j is zero.
func (l *Live) empty(j int) bool {
	lo, hi := l.cells(j)
	for _, n := range l.count[lo:hi] {
		if n != 0 {
			return false
		}
	}
	return true
}

// kill takes feature j, whose counts are zero, out of the model.
func (l *Live) kill(j int) {
	l.used -= bits.OnesCount32(l.feats[j].mask)
	l.feats[j] = scoredFeature{lo: deadLo}
	l.dead++
}

// Empty sets every count of feature j to zero: for a weighted model,
// whose counts rounding leaves a trace of once no document holds the
// feature. With dropEmpty the feature leaves the model. The weights are
// not recomputed: it is for a Live without fast.
func (l *Live) Empty(j int) {
	l.unOnce(j)
	lo, hi := l.cells(j)
	q := lo
	for m := l.feats[j].mask; m != 0; m &= m - 1 {
		c := bits.TrailingZeros32(m)
		l.sums[c] = max(l.sums[c]-l.count[q], 0)
		q++
	}
	clear(l.count[lo:hi])
	if l.dropEmpty && l.feats[j].lo != deadLo {
		l.kill(j)
	}
}

// AddClass adds a class without rows and returns its index.
func (l *Live) AddClass() (int, error) {
	k := len(l.classCount)
	if k >= MaxScorerClasses {
		return 0, fmt.Errorf("%w: an incremental fit holds at most %d classes", nb.ErrShape, MaxScorerClasses)
	}
	l.classCount, l.sums = append(l.classCount, 0), append(l.sums, 0)
	l.bias, l.p, l.q = append(l.bias, 0), append(l.p, 0), append(l.q, 0)
	if l.once != nil {
		l.once = append(l.once, 0)
	}
	return k, nil
}

// AddFeatures adds n features without counts; they count as features
// only once a row adds to them if the Live drops empty features.
func (l *Live) AddFeatures(n int) {
	for range n {
		l.feats = append(l.feats, l.emptyFeature())
		if l.dropEmpty {
			l.feats[len(l.feats)-1].lo = deadLo
			l.dead++
		}
	}
}

// emptyFeature is a feature without cells: Fit's Base of log α.
func (l *Live) emptyFeature() scoredFeature {
	if l.multinomial || !l.fast {
		return scoredFeature{}
	}
	return scoredFeature{base: -math.Log(l.alpha)}
}

// Add adds the row (idx, val) to class c sign times: 1 learns it, −1
// takes it away (ErrUnlearn if the counts do not hold it, with nothing
// changed). Columns must be distinct and below NumFeatures, values
// non-negative and finite.
func (l *Live) Add(c int, idx []int32, val []float64, sign float64) error {
	if c < 0 || c >= len(l.classCount) || len(idx) != len(val) || (sign != 1 && sign != -1) {
		return fmt.Errorf("%w: row of %d columns and %d values for class %d of %d", nb.ErrShape, len(idx), len(val), c, len(l.classCount))
	}
	for p, j := range idx {
		if j < 0 || int(j) >= len(l.feats) {
			return fmt.Errorf("%w: column %d of %d", nb.ErrShape, j, len(l.feats))
		}
		if v := val[p]; !(v >= 0 && v <= math.MaxFloat64) {
			return fmt.Errorf("%w: column %d has value %g", nb.ErrShape, j, v)
		}
	}
	if sign < 0 {
		if err := l.holds(c, idx, val); err != nil {
			return err
		}
	}
	var sum float64
	for p, j := range idx {
		if v := val[p]; v != 0 {
			l.unOnce(int(j))
			l.addCell(int(j), c, sign*v)
			l.reOnce(int(j))
			sum += v
		}
	}
	l.classCount[c] += sign
	l.sums[c] += sign * sum
	if sign < 0 {
		l.sums[c] = max(l.sums[c], 0) // rounding
	}
	if !l.fast {
		return nil
	}
	if err := l.refitClasses(); err != nil && l.classCount[c] != 0 {
		return err
	} // else a class without rows, which may have no weights: the caller removes it
	return nil
}

// Once returns, per class, the number of features whose only non-zero
// count is 1, in that class: the terms seen once, in it alone, of
// Good–Turing's estimate of its unseen mass. The first call counts them,
// O(cells); Add and Empty keep them up to date after it, O(classes) a
// cell. Do not modify the slice.
func (l *Live) Once() []float64 {
	if l.once == nil {
		l.once = make([]float64, len(l.classCount))
		for j := range l.feats {
			l.reOnce(j)
		}
	}
	return l.once
}

// Sums returns, per class, the sum of its counts; do not modify it.
func (l *Live) Sums() []float64 { return l.sums }

// alone returns the class of feature j's only non-zero count if it is 1.
func (l *Live) alone(j int) (int, bool) {
	lo, _ := l.cells(j)
	c := -1
	q := lo
	for m := l.feats[j].mask; m != 0; m &= m - 1 {
		if n := l.count[q]; n != 0 {
			if c >= 0 || n != 1 {
				return 0, false
			}
			c = bits.TrailingZeros32(m)
		}
		q++
	}
	return c, c >= 0
}

// unOnce takes feature j out of once, before its counts change.
func (l *Live) unOnce(j int) {
	if l.once == nil {
		return
	}
	if c, ok := l.alone(j); ok {
		l.once[c]--
	}
}

// reOnce puts feature j in once, after its counts changed.
func (l *Live) reOnce(j int) {
	if l.once == nil {
		return
	}
	if c, ok := l.alone(j); ok {
		l.once[c]++
	}
}

// holds reports whether class c's counts hold the row.
func (l *Live) holds(c int, idx []int32, val []float64) error {
	if l.classCount[c] < 1 {
		return fmt.Errorf("%w: class %d has %g rows", ErrUnlearn, c, l.classCount[c])
	}
	for p, j := range idx {
		v := val[p]
		if v == 0 {
			continue
		}
		if n := l.cell(int(j), c); n < v*(1-l.Tolerance) {
			return fmt.Errorf("%w: feature %d of class %d counts %g, less than %g", ErrUnlearn, j, c, n, v)
		}
	}
	return nil
}

// cell returns the count of feature j in class c.
func (l *Live) cell(j, c int) float64 {
	f := l.feats[j]
	if f.lo == deadLo || f.mask&(1<<c) == 0 {
		return 0
	}
	return l.count[int(f.lo)+bits.OnesCount32(f.mask&(1<<c-1))]
}

// addCell adds v to the count of feature j in class c and recomputes the
// weights it changes.
func (l *Live) addCell(j, c int, v float64) {
	f := &l.feats[j]
	if f.lo == deadLo {
		*f = l.emptyFeature()
		f.lo = uint32(len(l.count))
		l.dead--
	}
	bit := uint32(1) << c
	at := bits.OnesCount32(f.mask & (bit - 1))
	if f.mask&bit == 0 {
		l.insertCell(f, bit, at)
	}
	lo := int(f.lo)
	n := l.count[lo+at] + v
	if v < 0 && n < 0 {
		n = 0 // rounding
	}
	l.count[lo+at] = n
	hi := lo + bits.OnesCount32(f.mask)
	switch {
	case !l.fast:
	case l.multinomial:
		l.delta[lo+at] = multinomialDelta(n, l.alpha)
	default:
		f.base = -complementFeature(l.delta[lo:hi], l.count[lo:hi], 0, l.alpha, -1)
	}
	if v < 0 && l.dropEmpty && l.empty(j) {
		l.kill(j)
	}
}

// insertCell gives feature f a cell for class bit, at position at of its
// cells, moving its cells to the end of the arrays.
func (l *Live) insertCell(f *scoredFeature, bit uint32, at int) {
	n := bits.OnesCount32(f.mask)
	lo := int(f.lo)
	if n > 0 && lo+n == len(l.count) { // last already: grow in place
		l.count = slices.Insert(l.count, lo+at, 0)
		l.delta = slices.Insert(l.delta, lo+at, 0)
	} else {
		start := len(l.count)
		l.count = append(l.count, l.count[lo:lo+at]...)
		l.count = append(l.count, 0)
		l.count = append(l.count, l.count[lo+at:lo+n]...)
		l.delta = append(l.delta, l.delta[lo:lo+at]...)
		l.delta = append(l.delta, 0)
		l.delta = append(l.delta, l.delta[lo+at:lo+n]...)
		f.lo = uint32(start)
	}
	f.mask |= bit
	l.used++
	if len(l.count) > 2*l.used+1<<12 {
		l.compact()
	}
}

// compact drops the garbage cells, laying the features out in order.
func (l *Live) compact() {
	count, delta := make([]float64, 0, l.used+l.used/4), make([]float64, 0, l.used+l.used/4)
	for j := range l.feats {
		lo, hi := l.cells(j)
		if l.feats[j].lo != deadLo {
			l.feats[j].lo = uint32(len(count))
		}
		count, delta = append(count, l.count[lo:hi]...), append(delta, l.delta[lo:hi]...)
	}
	l.count, l.delta = count, delta
}

// refitClasses recomputes the class terms from the class counts and sums,
// as Fit does.
func (l *Live) refitClasses() error {
	k := len(l.classCount)
	if err := l.est.Fit(&nb.Counts{Classes: k, ClassCount: l.classCount}); err != nil {
		return err
	}
	fa := float64(len(l.feats)-l.dead) * l.alpha
	if l.multinomial {
		copy(l.bias, l.est.(*nb.Multinomial).ClassLogPrior)
		logAlpha := math.Log(l.alpha)
		for c, r := range l.sums {
			l.q[c] = multinomialQ(logAlpha, r, fa)
		}
		return nil
	}
	clear(l.bias)
	if k == 1 {
		l.bias[0] = l.est.(*nb.Complement).ClassLogPrior[0]
	}
	var grand float64
	for _, r := range l.sums {
		grand += r
	}
	for c, r := range l.sums {
		l.p[c], l.q[c] = 1, complementLogS(grand, r, fa)
	}
	return nil
}

// JointLogLikelihood appends the scores of one sparse row, as Scorer's;
// only a fast Live has them.
// A row whose idx and val differ in length scores NaN.
func (l *Live) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	k := len(l.classCount)
	if len(idx) != len(val) {
		return dense.NaNRow(dst, k)
	}
	dst, acc := startScores(dst, k)
	full := uint32(1<<k - 1)
	var sx, sb float64
	for p, j := range idx {
		if uint(j) >= uint(len(l.feats)) {
			continue
		}
		x, ok := dense.Binarized(val[p], false, 0)
		if !ok {
			continue
		}
		f := &l.feats[j]
		if f.lo == deadLo {
			continue // not a feature of the model
		}
		sx += x
		if !l.multinomial {
			sb += x * f.base
		}
		delta := l.delta[f.lo:]
		if f.mask == full {
			for c, d := range delta[:k] {
				acc[c] += x * d
			}
			continue
		}
		q := 0
		for m := f.mask; m != 0; m &= m - 1 {
			acc[bits.TrailingZeros32(m)] += x * delta[q]
			q++
		}
	}
	for c := range acc {
		acc[c] += l.bias[c] + l.p[c]*sb + l.q[c]*sx
	}
	return dst
}

// Counts returns the counts held, without zero cells; keep, if not nil,
// receives for each feature whether it is still in the model (see
// NewLive's dropEmpty), and the counts have only those features.
func (l *Live) Counts() (s *Counts, keep []bool) {
	k := len(l.classCount)
	s = &Counts{Classes: k, ClassCount: slices.Clone(l.classCount), Ptr: make([]int, 1, len(l.feats)+1-l.dead),
		Binary: l.binary, Threshold: l.threshold}
	s.Class, s.Count = make([]uint16, 0, l.used), make([]float64, 0, l.used)
	if l.dead > 0 {
		keep = make([]bool, len(l.feats))
	}
	for j, f := range l.feats {
		if f.lo == deadLo {
			continue
		}
		if keep != nil {
			keep[j] = true
		}
		q := int(f.lo)
		for m := f.mask; m != 0; m &= m - 1 {
			if n := l.count[q]; n != 0 {
				s.Class, s.Count = append(s.Class, uint16(bits.TrailingZeros32(m))), append(s.Count, n)
			}
			q++
		}
		s.Ptr = append(s.Ptr, len(s.Class))
	}
	s.Features = len(s.Ptr) - 1
	return s, keep
}
