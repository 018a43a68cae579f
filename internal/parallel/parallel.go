package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns n, or GOMAXPROCS when n ≤ 0.
func Workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// For calls f(i) for every i in [0, n) on up to workers goroutines (≤ 0:
// GOMAXPROCS). A goroutine takes the next index when it is free, so uneven
// items balance; with one worker the calls run in order on the caller's
// goroutine.
func For(n, workers int, f func(i int)) {
	Chunks(n, 1, workers, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f(i)
		}
	})
}

// Chunks calls f on consecutive ranges [lo, hi) of size elements (the last
// may be shorter) that together cover [0, n), on up to workers goroutines
// (≤ 0: GOMAXPROCS). With one worker, or one chunk, f(0, n) runs on the
// caller's goroutine.
func Chunks(n, size, workers int, f func(lo, hi int)) {
	size = max(size, 1)
	workers = min(Workers(workers), (n+size-1)/size)
	if workers <= 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(int64(size))) - size
				if lo >= n {
					return
				}
				f(lo, min(lo+size, n))
			}
		})
	}
	wg.Wait()
}
