package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// tuneGC sets the collector's percent after every collection so that the
// next one comes when the heap reaches the larger of floor and live data ×
// (1 + percent/100), but no more than ceiling above the live data, until
// stop is called.
func tuneGC(percent int, floor, ceiling uint64) (stop func()) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	var stopped atomic.Bool
	var set func()
	set = func() {
		if stopped.Load() {
			return
		}
		metrics.Read(sample)
		live := sample[0].Value.Uint64()
		if live == 0 {
			// No collection has measured the live heap yet: the heap in use
			// bounds it. Taken as 0, percent would start a collection within
			// a megabyte or two.
			live = sample[1].Value.Uint64()
		}
		debug.SetGCPercent(gcPercentFor(live, percent, floor, ceiling))
		sentinel := new([16]byte) // big enough not to share a tiny block
		runtime.SetFinalizer(sentinel, func(*[16]byte) { set() })
	}
	set()
	return func() { stopped.Store(true) }
}

// gcPercentFor returns the percent that puts the next collection at the
// larger of floor and live × (1 + percent/100), at most live + ceiling.
func gcPercentFor(live uint64, percent int, floor, ceiling uint64) int {
	if live >= floor && live/100*uint64(percent) > ceiling {
		return max(1, int(ceiling/(live/100)))
	}
	if live == 0 || live >= floor {
		return percent
	}
	// The runtime's smallest goal is 4 MiB × percent/100 whatever the live
	// heap: cap the percent where that reaches floor.
	return max(percent, int(min((floor-live)*100/live, floor*100/(4<<20))))
}
