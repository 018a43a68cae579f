package compact

import (
	"fmt"
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
	t     *Linear                     // Delta nil, but for fit with whole
	delta func(dst []float64, lo int) // sets dst to Delta[lo:lo+len(dst)]
	cells int
}

// FitLazy is Fit, but leaves the cell weights to be computed on demand
// (see LazyLinear). Everything else, including the per-class sums that
// the weights depend on, is computed here, as Fit does.
func FitLazy(est nb.Estimator, s *Counts) (*LazyLinear, error) {
	return fit(est, s, false)
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

// complementDeltas returns the function that computes fitComplement's
// Delta before the division by Z_c for any run of cells, which may start
// and end inside a feature.
func complementDeltas(s *Counts, alpha, sign float64) func(dst []float64, lo int) {
	return func(dst []float64, lo int) {
		hi := lo + len(dst)
		j := sort.Search(s.Features, func(j int) bool { return s.Ptr[j+1] > lo })
		for p := lo; p < hi; j++ {
			first, end := s.Ptr[j], s.Ptr[j+1]
			if first == end {
				continue
			}
			stop := min(end, hi)
			complementFeature(dst[p-lo:stop-lo], s.Count[first:end], p-first, alpha, sign)
			p = stop
		}
	}
}
