package compact

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/nb"
)

// A LazyLinear is a Linear fitted from counts whose cell weights (Delta)
// are computed from the counts when they are asked for, instead of being
// held: for a large model they take as much memory as the counts, and
// saving a model needs them only once, in order. The values are those of
// Fit, bit for bit: each is computed by the same arithmetic from the same
// operands.
//
// A LazyLinear reads its Counts' Ptr, Class and Count: change none of them
// while it is in use.
type LazyLinear struct {
	t     *Linear                     // Delta nil
	delta func(dst []float64, lo int) // sets dst to Delta[lo:lo+len(dst)]
	cells int
}

// FitLazy is Fit, but leaves the cell weights to be computed on demand
// (see LazyLinear). Everything else, including the per-class sums that
// the weights depend on, is computed here, as Fit does.
func FitLazy(est nb.Estimator, s *Counts) (*LazyLinear, error) {
	switch m := est.(type) {
	case *nb.Multinomial:
		return fitMultinomialLazy(m, s)
	case *nb.Complement:
		return fitComplementLazy(m, s)
	case *nb.Bernoulli:
		return fitBernoulliLazy(m, s)
	}
	return nil, fmt.Errorf("%w: no sparse fit for %T", nb.ErrConfig, est)
}

// Shape returns the Linear without its cell weights: Delta is nil. It
// shares the LazyLinear's fields; modify none of them.
func (l *LazyLinear) Shape() *Linear { return l.t }

// Cells returns the number of cells, len(Delta) of the complete Linear.
func (l *LazyLinear) Cells() int { return l.cells }

// Deltas sets dst to Delta[lo:lo+len(dst)], computing the values on every
// core. It is safe for concurrent use.
func (l *LazyLinear) Deltas(dst []float64, lo int) {
	if lo < 0 || lo+len(dst) > l.cells {
		panic(fmt.Sprintf("compact: cells %d to %d of %d", lo, lo+len(dst), l.cells))
	}
	parallel.Chunks(len(dst), 8*parallelChunk, 0, func(a, b int) {
		l.delta(dst[a:b], lo+a)
	})
}

// Linear returns a new complete Linear: the shape's fields (shared) with
// Delta computed.
func (l *LazyLinear) Linear() *Linear {
	t := *l.t
	t.Delta = make([]float64, l.cells)
	l.Deltas(t.Delta, 0)
	return &t
}

// lazyBlock is how many cells the passes of FitLazy that need every
// weight compute at a time.
const lazyBlock = 1 << 16

// eachDelta calls f with blocks of the values that delta gives for
// cells 0 to n−1, in order, computed on every core.
func eachDelta(n int, delta func(dst []float64, lo int), f func(lo int, d []float64)) {
	buf := make([]float64, min(n, lazyBlock))
	for lo := 0; lo < n; lo += lazyBlock {
		d := buf[:min(lazyBlock, n-lo)]
		parallel.Chunks(len(d), 8*parallelChunk, 0, func(a, b int) { delta(d[a:b], lo+a) })
		f(lo, d)
	}
}

// fitMultinomialLazy is fitMultinomial with Delta = log(1 + N_ci/α)
// computed on demand.
func fitMultinomialLazy(m *nb.Multinomial, s *Counts) (*LazyLinear, error) {
	h := &nb.Multinomial{Alpha: m.Alpha, UniformPrior: m.UniformPrior, ClassPrior: m.ClassPrior}
	alpha, err := fitStart(h, m.Alpha, s)
	if err != nil {
		return nil, err
	}
	t := newShape(s, slices.Clone(h.ClassLogPrior))
	logAlpha, fa := math.Log(alpha), float64(s.Features)*alpha
	for c, r := range s.classSums() {
		t.Q[c] = logAlpha - math.Log(r+fa)
	}
	count := s.Count
	return &LazyLinear{t: t, cells: len(count), delta: func(dst []float64, lo int) {
		for q, n := range count[lo : lo+len(dst)] {
			dst[q] = math.Log1p(n / alpha)
		}
	}}, nil
}

// complementDeltas returns the function that computes fitComplement's
// Delta before the division by Z_c: sign·(log(T_i+α−N_ci) − log(T_i+α)),
// with T_i summed over the feature's cells in order, as there.
func complementDeltas(s *Counts, alpha, sign float64) func(dst []float64, lo int) {
	return func(dst []float64, lo int) {
		hi := lo + len(dst)
		j := sort.Search(s.Features, func(j int) bool { return s.Ptr[j+1] > lo })
		for p := lo; p < hi; j++ {
			first, end := s.Ptr[j], s.Ptr[j+1]
			if first == end {
				continue
			}
			var all float64
			for _, n := range s.Count[first:end] {
				all += n
			}
			lt := math.Log(all + alpha)
			for ; p < min(end, hi); p++ {
				dst[p-lo] = sign * (math.Log(all+alpha-s.Count[p]) - lt)
			}
		}
	}
}

// fitComplementLazy is fitComplement with Delta computed on demand: with
// Norm, a first pass computes every cell's weight to sum Z_c, in the order
// fitComplement sums them.
func fitComplementLazy(m *nb.Complement, s *Counts) (*LazyLinear, error) {
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
	sign := 1.0
	if !m.Norm {
		sign = -1
	}
	parallel.Chunks(s.Features, parallelChunk, 0, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			var all float64
			for _, n := range s.Count[s.Ptr[j]:s.Ptr[j+1]] {
				all += n
			}
			t.Base[j] = sign * math.Log(all+alpha)
		}
	})
	raw := complementDeltas(s, alpha, sign)
	zextra := make([]float64, s.Classes)
	var sumBase float64
	if m.Norm {
		for _, lt := range t.Base {
			sumBase += lt
		}
		eachDelta(len(s.Count), raw, func(lo int, d []float64) {
			for q, v := range d {
				zextra[s.Class[lo+q]] += v
			}
		})
	}
	compactWeights(m.Norm, t, s, alpha, sumBase, zextra)
	l := &LazyLinear{t: t, cells: len(s.Count), delta: raw}
	if m.Norm {
		l.delta = func(dst []float64, lo int) {
			raw(dst, lo)
			for q := range dst {
				dst[q] /= zextra[s.Class[lo+q]]
			}
		}
	}
	return l, nil
}

// fitBernoulliLazy is fitBernoulli with Delta computed on demand; the
// bias sums its terms over every cell first, in the same order.
func fitBernoulliLazy(m *nb.Bernoulli, s *Counts) (*LazyLinear, error) {
	h := &nb.Bernoulli{Alpha: m.Alpha, Binarize: m.Binarize, NoBinarize: m.NoBinarize,
		UniformPrior: m.UniformPrior, ClassPrior: m.ClassPrior}
	alpha, err := fitStart(h, m.Alpha, s)
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
	zeros := make([]int, k)
	logAlpha := math.Log(alpha)
	for c, n := range s.ClassCount {
		logTotal[c] = math.Log(n + 2*alpha)
		lp := logAlpha - logTotal[c]
		neg0[c] = math.Log1p(-math.Exp(lp))
		t.Q[c], zeros[c] = lp-neg0[c], s.Features
	}
	for p, c := range s.Class {
		lp := math.Log(s.Count[p]+alpha) - logTotal[c]
		t.Bias[c] += math.Log1p(-math.Exp(lp))
		zeros[c]--
	}
	for c := range k {
		t.Bias[c] += float64(zeros[c]) * neg0[c]
	}
	return &LazyLinear{t: t, cells: len(s.Count), delta: func(dst []float64, lo int) {
		for q := range dst {
			c := s.Class[lo+q]
			lp := math.Log(s.Count[lo+q]+alpha) - logTotal[c]
			neg := math.Log1p(-math.Exp(lp))
			dst[q] = lp - neg - t.Q[c]
		}
	}}, nil
}
