package compact

import (
	"sync/atomic"

	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/parallel"
)

// Dense is the K×F table that every text model reduces to and that a
// Linear expands to: the reference for tests and small models.
type Dense = dense.Table

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
