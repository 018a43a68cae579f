package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// tuneGC sets the collector's percent after every collection so that the
// next one comes when the heap reaches the larger of floor and live data ×
// (1 + percent/100), until stop is called.
func tuneGC(percent int, floor uint64) (stop func()) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var stopped atomic.Bool
	var set func()
	set = func() {
		if stopped.Load() {
			return
		}
		metrics.Read(sample)
		debug.SetGCPercent(gcPercentFor(sample[0].Value.Uint64(), percent, floor))
		sentinel := new([16]byte) // big enough not to share a tiny block
		runtime.SetFinalizer(sentinel, func(*[16]byte) { set() })
	}
	set()
	return func() { stopped.Store(true) }
}

// gcPercentFor returns the percent that puts the next collection at the
// larger of floor and live × (1 + percent/100).
func gcPercentFor(live uint64, percent int, floor uint64) int {
	if live == 0 || live >= floor {
		return percent
	}
	// The runtime's smallest goal is 4 MiB × percent/100 whatever the live
	// heap: cap the percent where that reaches floor.
	return max(percent, int(min((floor-live)*100/live, floor*100/(4<<20))))
}
