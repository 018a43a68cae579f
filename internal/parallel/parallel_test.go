package parallel

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000} {
		for _, workers := range []int{-1, 0, 1, 3, 64} {
			calls := make([]atomic.Int32, n)
			For(n, workers, func(i int) { calls[i].Add(1) })
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("n %d, workers %d: index %d called %d times", n, workers, i, c)
				}
			}
		}
	}
}

func TestForWithOneWorkerRunsInOrderOnTheCaller(t *testing.T) {
	var got []int // appended without a lock: any other goroutine would race
	For(100, 1, func(i int) { got = append(got, i) })
	for i, v := range got {
		if v != i {
			t.Fatalf("call %d got index %d", i, v)
		}
	}
	if len(got) != 100 {
		t.Fatalf("%d calls, want 100", len(got))
	}
}

func TestChunksCoverTheRange(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 129, 5000} {
		for _, size := range []int{0, 1, 128, 10000} {
			for _, workers := range []int{0, 1, 4} {
				calls := make([]atomic.Int32, n)
				var ranges atomic.Int32
				Chunks(n, size, workers, func(lo, hi int) {
					ranges.Add(1)
					if lo >= hi || hi-lo > max(size, 1) && !(lo == 0 && hi == n) {
						t.Errorf("n %d, size %d: chunk [%d, %d)", n, size, lo, hi)
					}
					for i := lo; i < hi; i++ {
						calls[i].Add(1)
					}
				})
				for i := range calls {
					if c := calls[i].Load(); c != 1 {
						t.Fatalf("n %d, size %d, workers %d: index %d covered %d times", n, size, workers, i, c)
					}
				}
				if n == 0 && ranges.Load() != 0 {
					t.Errorf("size %d, workers %d: %d calls for an empty range", size, workers, ranges.Load())
				}
			}
		}
	}
}

func TestOrderedKeepsQueueOrder(t *testing.T) {
	const n = 2000
	var got []int
	err := Ordered(4, func(queue Queue[int]) {
		for i := range n {
			if !queue(func() int {
				if i%7 == 0 { // uneven work, so that results finish out of order
					time.Sleep(time.Microsecond * time.Duration(i%50))
				}
				return i
			}) {
				t.Error("queue refused a unit before any failure")
				return
			}
		}
	}, func(r int) error {
		got = append(got, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("consumed %d results, want %d", len(got), n)
	}
	for i, r := range got {
		if r != i {
			t.Fatalf("result %d is %d", i, r)
		}
	}
}

func TestOrderedStopsAtConsumeError(t *testing.T) {
	errStop := errors.New("stop")
	before := runtime.NumGoroutine()
	const workers, failAt = 2, 10
	var queued, consumed, refused int
	err := Ordered(workers, func(queue Queue[int]) {
		for i := 0; ; i++ {
			if !queue(func() int { return i }) {
				refused++
				return
			}
			queued++
		}
	}, func(r int) error {
		if consumed++; r == failAt {
			return errStop
		}
		return nil
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("error %v, want %v", err, errStop)
	}
	if consumed != failAt+1 || refused != 1 {
		t.Errorf("consumed %d, refused %d; want %d and 1", consumed, refused, failAt+1)
	}
	// The read-ahead bound: the failing unit, the one queue blocked on, and
	// the units waiting in order.
	if limit := failAt + 2 + workers*aheadPerWorker; queued > limit {
		t.Errorf("queued %d units, more than the read-ahead allows (%d)", queued, limit)
	}
	for runtime.NumGoroutine() > before { // goroutines left running fail by the test timeout
		time.Sleep(time.Millisecond)
	}
}

func ExampleFor() {
	squares := make([]int, 5)
	For(len(squares), 0, func(i int) { squares[i] = i * i })
	fmt.Println(squares)
	// Output: [0 1 4 9 16]
}

func ExampleChunks() {
	var sum atomic.Int64
	Chunks(1000, 128, 0, func(lo, hi int) {
		s := 0
		for i := lo; i < hi; i++ {
			s += i
		}
		sum.Add(int64(s))
	})
	fmt.Println(sum.Load())
	// Output: 499500
}

func ExampleOrdered() {
	err := Ordered(0, func(queue Queue[string]) {
		for _, w := range []string{"one", "two", "three"} {
			queue(func() string { return fmt.Sprintf("%s has %d letters", w, len(w)) })
		}
	}, func(line string) error {
		fmt.Println(line)
		return nil
	})
	fmt.Println(err)
	// Output:
	// one has 3 letters
	// two has 3 letters
	// three has 5 letters
	// <nil>
}
