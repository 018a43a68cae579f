package compact

import (
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/nb"
)

// Linear is the scoring form of a text model (a Dense) stored in
// O(K + F + cells) memory instead of K×F. Every text model gives a weight
// whose count is zero the form
// P[c]·Base[i] + Q[c], so only the cells with a non-zero count need their
// own weight, stored as the difference Delta from that form:
//
//	W[c,i] = P[c]·Base[i] + Q[c] (+ Delta at the cells of Counts)
//	jll[c] = Bias[c] + P[c]·Σ x_i·Base_i + Q[c]·Σ x_i + Σ_i x_i·Delta[c,i]
//
// Feature i's cells are Class[Ptr[i]:Ptr[i+1]] with Delta[Ptr[i]:Ptr[i+1]].
// A nil Base counts as zeros (the models whose P is 0). Binary, Threshold
// and columns ≥ Features are treated as in Dense.
type Linear struct {
	K          int
	Bias, P, Q []float64 // K each
	Base       []float64 // Features, or nil
	Ptr        []int     // Features+1
	Class      []uint16
	Delta      []float64
	Features   int
	Binary     bool
	Threshold  float64
}

// NumClasses returns K.
func (t *Linear) NumClasses() int { return t.K }

// NumFeatures returns the number of features.
func (t *Linear) NumFeatures() int { return t.Features }

// consistent reports whether the field lengths agree: enough for
// JointLogLikelihood, which checks the cells it reads.
func (t *Linear) consistent() bool {
	k, f := t.K, t.Features
	return k > 0 && f >= 0 && len(t.Bias) == k && len(t.P) == k && len(t.Q) == k &&
		(t.Base == nil || len(t.Base) == f) && len(t.Ptr) == f+1 && len(t.Class) == len(t.Delta)
}

// Validate reports whether t is well formed: consistent lengths, pointers
// in order and every feature's classes strictly increasing below K. Call it
// on a Linear decoded from a file, or make its Scorer, which checks
// the same as it lays the model out.
func (t *Linear) Validate() error {
	if err := t.checkShape(); err != nil {
		return err
	}
	return checkCells(t.Ptr, t.Class, t.K)
}

// checkShape is Validate short of the cells: field lengths and the
// pointers' ends.
func (t *Linear) checkShape() error {
	if !t.consistent() || t.Ptr[0] != 0 || t.Ptr[t.Features] != len(t.Class) {
		return fmt.Errorf("%w: compact linear of %d classes × %d features holds %d/%d/%d class terms, %d base weights, %d pointers, %d classes and %d cells",
			nb.ErrShape, t.K, t.Features, len(t.Bias), len(t.P), len(t.Q), len(t.Base), len(t.Ptr), len(t.Class), len(t.Delta))
	}
	return nil
}

// JointLogLikelihood appends the K scores of one sparse row. A malformed t
// or a row whose idx and val differ in length scores NaN.
func (t *Linear) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	if !t.consistent() {
		return dense.NaNRow(dst, len(t.Bias))
	}
	k, n := t.K, len(dst)
	if len(idx) != len(val) {
		return dense.NaNRow(dst, k)
	}
	dst, acc := startScores(dst, k)
	keep(t.touch(idx))
	var sx, sb float64
	for p, j := range idx {
		if uint(j) >= uint(t.Features) {
			continue
		}
		x, ok := dense.Binarized(val[p], t.Binary, t.Threshold)
		if !ok {
			continue
		}
		sx += x
		if t.Base != nil {
			sb += x * t.Base[j]
		}
		lo, hi := t.Ptr[j], t.Ptr[j+1]
		if lo < 0 || lo > hi || hi > len(t.Class) {
			return dense.NaNRow(dst[:n], k)
		}
		delta := t.Delta[lo:hi]
		for q, c := range t.Class[lo:hi] {
			if int(c) >= k {
				return dense.NaNRow(dst[:n], k)
			}
			acc[c] += x * delta[q]
		}
	}
	t.addClassTerms(acc, sb, sx)
	return dst
}

// startScores appends k zeroed scores to dst and returns dst and them.
func startScores(dst []float64, k int) (all, scores []float64) {
	n := len(dst)
	dst = slices.Grow(dst, k)[:n+k]
	clear(dst[n:])
	return dst, dst[n:]
}

// addClassTerms adds each class's bias and its terms of Σ x_i·Base_i (sb)
// and Σ x_i (sx) to the cells' sums in acc, completing the scores.
func (t *Linear) addClassTerms(acc []float64, sb, sx float64) {
	for c := range acc {
		acc[c] += t.Bias[c] + t.P[c]*sb + t.Q[c]*sx
	}
}

// touch loads the first cell and base weight of every feature of a row
// and returns a mix of them. Its loads depend on nothing but idx and Ptr,
// so the CPU fetches them all at once; the scoring loop, whose cell loop
// waits on each feature's Ptr, then finds them in cache.
func (t *Linear) touch(idx []int32) uint64 {
	var mix uint64
	for _, j := range idx {
		if uint(j) >= uint(t.Features) {
			continue
		}
		lo := uint(t.Ptr[j])
		if t.Base != nil {
			mix += math.Float64bits(t.Base[j])
		}
		if lo < uint(len(t.Class)) {
			mix += uint64(t.Class[lo]) + math.Float64bits(t.Delta[lo])
		}
	}
	return mix
}

// keep uses v, so that the loads behind it are not optimized away.
//
//go:noinline
func keep(v uint64) {}

// Dense expands t into the Dense it stands for (K×F weights: for tests
// and small models), or returns nil if t is malformed.
func (t *Linear) Dense() *Dense {
	if t.Validate() != nil {
		return nil
	}
	k := t.K
	w := make([]float64, t.Features*k)
	for j := range t.Features {
		row := w[j*k : (j+1)*k]
		var base float64
		if t.Base != nil {
			base = t.Base[j]
		}
		for c := range row {
			row[c] = t.P[c]*base + t.Q[c]
		}
		for p := t.Ptr[j]; p < t.Ptr[j+1]; p++ {
			row[t.Class[p]] += t.Delta[p]
		}
	}
	return &Dense{K: k, W: w, Bias: slices.Clone(t.Bias), Binary: t.Binary, Threshold: t.Threshold}
}

// newShape returns a Linear with s's cells, the given bias, zero P and Q
// and no Delta. It shares s's Ptr and Class, which neither changes: a copy
// would take a third of a large model's memory again.
func newShape(s *Counts, bias []float64) *Linear {
	return &Linear{
		K:        s.Classes,
		Bias:     bias,
		P:        make([]float64, s.Classes),
		Q:        make([]float64, s.Classes),
		Ptr:      s.Ptr,
		Class:    s.Class,
		Features: s.Features,
	}
}

// Fit fits est, a *nb.Multinomial, *nb.Complement or *nb.Bernoulli, from
// sparse counts as its Fit would from their Dense, and returns its scoring
// form without any K×F allocation. est is read, not modified. The Linear
// shares s's Ptr and Class: change neither while both are in use.
func Fit(est nb.Estimator, s *Counts) (*Linear, error) {
	l, err := fit(est, s, true)
	if err != nil {
		return nil, err
	}
	return l.t, nil
}

// fit is Fit and FitLazy: it returns the fitted shape with the function
// that computes its cell weights, and with whole also the weights, in
// l.t.Delta. A fit that computes every weight anyway, to sum them, keeps
// them then instead of computing them again.
func fit(est nb.Estimator, s *Counts, whole bool) (*LazyLinear, error) {
	var l *LazyLinear
	var err error
	switch m := est.(type) {
	case *nb.Multinomial:
		l, err = fitMultinomial(m, s)
	case *nb.Complement:
		l, err = fitComplement(m, s, whole)
	case *nb.Bernoulli:
		l, err = fitBernoulli(m, s, whole)
	default:
		return nil, fmt.Errorf("%w: no sparse fit for %T", nb.ErrConfig, est)
	}
	if err != nil {
		return nil, err
	}
	if whole && l.t.Delta == nil {
		l.t.Delta = make([]float64, l.cells)
		l.Deltas(l.t.Delta, 0)
	}
	return l, nil
}

// fitStart validates s and returns the smoothing parameter alpha resolves
// to. It fits est, a fresh copy of the model's settings, on s's class
// counts alone, with no features: that gives est the class log prior and
// checks the class counts exactly as the dense model's Fit does.
func fitStart(est nb.Estimator, alpha float64, s *Counts) (float64, error) {
	alpha, err := check.Alpha(alpha, nb.DefaultAlpha, nb.MinAlpha)
	if err != nil {
		return 0, err
	}
	if err := s.check(); err != nil {
		return 0, err
	}
	if err := est.Fit(s.header()); err != nil {
		return 0, err
	}
	return alpha, nil
}

// fitMultinomial is Fit for a Multinomial: a zero count gives
// log α − log S_c with S_c = Σ_i N_ci + F·α, so P = 0,
// Q_c = log α − log S_c and Delta = log(1 + N_ci/α).
func fitMultinomial(m *nb.Multinomial, s *Counts) (*LazyLinear, error) {
	h := &nb.Multinomial{Alpha: m.Alpha, UniformPrior: m.UniformPrior, ClassPrior: m.ClassPrior}
	alpha, err := fitStart(h, m.Alpha, s)
	if err != nil {
		return nil, err
	}
	t := newShape(s, slices.Clone(h.ClassLogPrior))
	logAlpha, fa := math.Log(alpha), float64(s.Features)*alpha
	for c, r := range s.classSums() {
		t.Q[c] = multinomialQ(logAlpha, r, fa)
	}
	count := s.Count
	return &LazyLinear{t: t, cells: len(count), delta: func(dst []float64, lo int) {
		for q, n := range count[lo : lo+len(dst)] {
			dst[q] = multinomialDelta(n, alpha)
		}
	}}, nil
}

// multinomialQ is Multinomial NB's weight of a zero count, log α − log(S_c + F·α),
// given log α, the class sum S_c and F·α; multinomialDelta is a count n's
// weight above it. Fit and Live share them.
func multinomialQ(logAlpha, r, fa float64) float64 { return logAlpha - math.Log(r+fa) }

func multinomialDelta(n, alpha float64) float64 { return math.Log1p(n / alpha) }

// complementLogS is log S′_c: the log of class c's complement total, from
// the grand total, class c's and F·α.
func complementLogS(grand, r, fa float64) float64 { return math.Log(grand - r + fa) }

// fitComplement is Fit for a Complement. With T_i = Σ_c N_ci and S′_c = Σ_i (T_i + α − N_ci),
// a zero count gives the weight log S′_c − log(T_i+α) (P = 1,
// Base_i = −log(T_i+α), Q_c = log S′_c); with Norm the weights are
// log((T_i+α−N_ci)/S′_c) / Z_c, where Z_c sums that logarithm over all F
// features in closed form, so P_c = 1/Z_c, Base_i = log(T_i+α) and
// Q_c = −log S′_c / Z_c.
func fitComplement(m *nb.Complement, s *Counts, whole bool) (*LazyLinear, error) {
	h := &nb.Complement{Alpha: m.Alpha, Norm: m.Norm, UniformPrior: m.UniformPrior, ClassPrior: m.ClassPrior}
	alpha, err := fitStart(h, m.Alpha, s)
	if err != nil {
		return nil, err
	}
	bias := make([]float64, s.Classes)
	if len(bias) == 1 {
		bias[0] = h.ClassLogPrior[0]
	}
	t := newShape(s, bias)
	t.Base = make([]float64, s.Features)
	// Base holds log(T_i+α) and the cells d = log(T_i+α−N_ci) − log(T_i+α),
	// negated at once without Norm (the weights); with Norm, sumBase sums
	// Base and zextra sums d per class for Z_c, in one fixed order, and the
	// weights are d / Z_c. With whole the feature pass computes d too.
	sign := 1.0
	if !m.Norm {
		sign = -1
	}
	var raw []float64
	if whole {
		raw = make([]float64, len(s.Count))
	}
	logAlpha := math.Log(alpha) // log(T+α) of a feature without cells
	parallel.Chunks(s.Features, parallelChunk, 0, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			first, end := s.Ptr[j], s.Ptr[j+1]
			if first == end {
				t.Base[j] = sign * logAlpha
				continue
			}
			var dst []float64
			if raw != nil {
				dst = raw[first:end]
			}
			t.Base[j] = sign * complementFeature(dst, s.Count[first:end], 0, alpha, sign)
		}
	})
	rawAt := complementDeltas(s, alpha, sign)
	zextra := make([]float64, s.Classes)
	var sumBase float64
	if m.Norm {
		for _, lt := range t.Base {
			sumBase += lt
		}
		sum := func(lo int, d []float64) {
			for q, v := range d {
				zextra[s.Class[lo+q]] += v
			}
		}
		if raw != nil {
			sum(0, raw)
		} else {
			eachDelta(len(s.Count), rawAt, sum)
		}
	}
	compactWeights(m.Norm, t, s, alpha, sumBase, zextra)
	l := &LazyLinear{t: t, cells: len(s.Count), delta: rawAt}
	if m.Norm {
		l.delta = func(dst []float64, lo int) {
			rawAt(dst, lo)
			divideByZ(dst, s.Class[lo:], zextra)
		}
		if raw != nil {
			parallel.Chunks(len(raw), parallelChunk, 0, func(lo, hi int) {
				divideByZ(raw[lo:hi], s.Class[lo:], zextra)
			})
		}
	}
	t.Delta = raw
	return l, nil
}

// complementFeature returns log(T+α) of the feature whose cells count
// counts, with T summed in order, and sets dst to the cells' d =
// sign·(log(T+α−N) − log(T+α)) from cell from on.
func complementFeature(dst, counts []float64, from int, alpha, sign float64) float64 {
	var all float64
	for _, n := range counts {
		all += n
	}
	ta := all + alpha
	lt := math.Log(ta)
	for q, n := range counts[from : from+len(dst)] {
		dst[q] = sign * (math.Log(ta-n) - lt) // as scikit-learn: (T+α)−N
	}
	return lt
}

// divideByZ divides each cell weight by the Z of its class.
func divideByZ(d []float64, class []uint16, z []float64) {
	for q := range d {
		d[q] /= z[class[q]]
	}
}

// compactWeights sets P and Q of t from the per-class complement totals
// S′_c = Σ_c′ R_c′ − R_c + F·α; with norm it turns zextra into each class's
// Z_c, by which Delta is to be divided (without, fitComplement has negated
// Base and Delta).
func compactWeights(norm bool, t *Linear, s *Counts, alpha, sumBase float64, zextra []float64) {
	sums := s.classSums()
	var grand float64
	for _, r := range sums {
		grand += r
	}
	fa, fn := float64(s.Features)*alpha, float64(s.Features)
	for c, r := range sums {
		logS := complementLogS(grand, r, fa)
		if norm {
			z := sumBase - fn*logS + zextra[c]
			t.P[c], t.Q[c], zextra[c] = 1/z, -logS/z, z
		} else {
			t.P[c], t.Q[c] = 1, logS
		}
	}
}

// fitBernoulli is Fit for a Bernoulli; s must be binarized like m (see
// Count). With flp = log(N_ci+α) − log(n_c+2α), the
// weight is w = flp − log(1−exp(flp)) and the bias
// prior + Σ_i log(1−exp(flp)), whose zero-count terms are summed in closed
// form; so P = 0 and Q_c is the weight of a zero count. The bias needs
// every cell's term, so with whole the weights are kept from that pass.
func fitBernoulli(m *nb.Bernoulli, s *Counts, whole bool) (*LazyLinear, error) {
	h := &nb.Bernoulli{Alpha: m.Alpha, Binarize: m.Binarize, NoBinarize: m.NoBinarize,
		UniformPrior: m.UniformPrior, ClassPrior: m.ClassPrior}
	alpha, err := fitStart(h, m.Alpha, s) // checks the binarization too
	if err != nil {
		return nil, err
	}
	if err := checkBinaryCells(s); err != nil {
		return nil, err
	}
	k := s.Classes
	t := newShape(s, slices.Clone(h.ClassLogPrior))
	t.Binary, t.Threshold = !m.NoBinarize, m.Binarize
	logTotal, neg0 := make([]float64, k), make([]float64, k)
	zeros := make([]int, k) // features with a zero count, per class
	logAlpha := math.Log(alpha)
	for c, n := range s.ClassCount {
		logTotal[c] = math.Log(n + 2*alpha)
		lp := logAlpha - logTotal[c]
		neg0[c] = math.Log1p(-math.Exp(lp))
		t.Q[c], zeros[c] = lp-neg0[c], s.Features
	}
	// cell returns cell p's weight and its term of the bias.
	cell := func(p int) (w, neg float64) {
		c := s.Class[p]
		lp := math.Log(s.Count[p]+alpha) - logTotal[c]
		neg = math.Log1p(-math.Exp(lp))
		return lp - neg - t.Q[c], neg
	}
	if whole {
		t.Delta = make([]float64, len(s.Count))
	}
	for p, c := range s.Class {
		w, neg := cell(p)
		if whole {
			t.Delta[p] = w
		}
		t.Bias[c] += neg
		zeros[c]--
	}
	for c := range k {
		t.Bias[c] += float64(zeros[c]) * neg0[c]
	}
	return &LazyLinear{t: t, cells: len(s.Count), delta: func(dst []float64, lo int) {
		for q := range dst {
			dst[q], _ = cell(lo + q)
		}
	}}, nil
}

// checkBinaryCells reports a cell that counts more than its class's
// documents: input that is not 0/1, as nb.Bernoulli's Fit does.
func checkBinaryCells(s *Counts) error {
	for j := range s.Features {
		for p := s.Ptr[j]; p < s.Ptr[j+1]; p++ {
			c, nj := s.Class[p], s.Count[p]
			if n := s.ClassCount[c]; nj > n*(1+1e-9) {
				return fmt.Errorf("%w: feature %d of class %d counts %g in %g documents: input is not 0/1",
					nb.ErrConfig, j, c, nj, n)
			}
		}
	}
	return nil
}
