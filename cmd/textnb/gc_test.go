package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	const floor = 64 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 35}, {1 << 20, 1600}, {32 << 20, 100}, {60 << 20, 35}, {64 << 20, 35}, {256 << 20, 35},
		// Past the ceiling the headroom stays 160 MiB: 15.6% of 1 GiB.
		{1 << 30, 15}, {4 << 30, 3}, {1 << 40, 1},
	} {
		if got := gcPercentFor(c.live, 35, floor, 160<<20); got != c.want {
			t.Errorf("gcPercentFor(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

func TestTuneGCFollowsCollections(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	stop := tuneGC(35, 1<<40, 1<<40) // a floor no test heap reaches: the cap applies
	defer stop()
	want := (1 << 40) * 100 / (4 << 20)
	debug.SetGCPercent(7) // overwritten after the next collection
	for {                 // if no collection restores the percent, the test times out
		runtime.GC()
		time.Sleep(time.Millisecond)  // the finalizer runs on its own goroutine
		got := debug.SetGCPercent(-1) // reads the percent
		debug.SetGCPercent(got)
		if got == want {
			return
		}
	}
}
