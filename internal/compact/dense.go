package compact

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// Dense is the K×F table that every text model reduces to and that a
// Linear expands to: the reference for tests and small models.
type Dense = dense.Table

// resolveAlpha applies nb's zero-value default and its MinAlpha clip.
func resolveAlpha(a float64) (float64, error) {
	switch {
	case a == 0:
		return nb.DefaultAlpha, nil
	case a < 0 || math.IsNaN(a) || math.IsInf(a, 0):
		return 0, fmt.Errorf("%w: alpha %g, want a finite value ≥ 0", nb.ErrConfig, a)
	}
	return max(a, nb.MinAlpha), nil
}

// goodValue reports whether v is finite and not negative: one comparison
// pair, false for NaN, for the per-value checks.
func goodValue(v float64) bool { return v >= 0 && v <= math.MaxFloat64 }

// badValue returns the sentinel v violates (negative, or NaN/±Inf), or nil.
func badValue(v float64) error {
	switch {
	case goodValue(v):
		return nil
	case v < 0:
		return nb.ErrNegative
	case math.IsNaN(v) || math.IsInf(v, 0):
		return nb.ErrNotFinite
	}
	return nil
}

func checkValue(row int, col int32, v float64) error {
	if err := badValue(v); err != nil {
		return fmt.Errorf("%w: row %d column %d has value %g", err, row, col, v)
	}
	return nil
}

func checkWeight(what string, i int, w float64) error {
	if err := badValue(w); err != nil {
		return fmt.Errorf("%w: %s %d is %g", err, what, i, w)
	}
	return nil
}

// checkWeights checks every value of w with checkWeight, reporting the
// first bad one.
func checkWeights(what string, w []float64) error {
	for i, v := range w {
		if !goodValue(v) {
			return checkWeight(what, i, v)
		}
	}
	return nil
}

// checkShape reports whether X is a well-formed matrix of at most features
// columns (features < 0: any); its values are not checked.
func checkShape(X *vectorize.CSR, features int) error {
	if X == nil {
		return fmt.Errorf("%w: nil matrix", nb.ErrShape)
	}
	if err := X.Validate(); err != nil {
		return fmt.Errorf("%w: %w", nb.ErrShape, err)
	}
	if features >= 0 && X.Cols > features {
		return fmt.Errorf("%w: matrix has %d columns, model has %d features", nb.ErrShape, X.Cols, features)
	}
	return nil
}

// firstBad returns the lowest index in [0, n) that bad finds, or n, having
// searched chunks of it on every core: bad returns the first bad index in
// [lo, hi), or hi. Chunks past a bad index found already are skipped.
func firstBad(n int, bad func(lo, hi int) int) int {
	var first atomic.Int64
	first.Store(int64(n))
	parallel.Chunks(n, parallelChunk, 0, func(lo, hi int) {
		if int64(lo) >= first.Load() {
			return
		}
		if i := bad(lo, hi); i < hi {
			storeMin(&first, int64(i))
		}
	})
	return int(first.Load())
}

// storeMin lowers v to x if x is smaller.
func storeMin(v *atomic.Int64, x int64) {
	for cur := v.Load(); x < cur && !v.CompareAndSwap(cur, x); cur = v.Load() {
	}
}

// parallelChunk is how many rows, features or cells a goroutine takes at a
// time from the loops that run in parallel.
const parallelChunk = 128
