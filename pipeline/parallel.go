package pipeline

import (
	"runtime"
	"sync"
)

// batchSize is the number of documents a worker takes at a time: large
// enough to amortize channel traffic, small enough to keep memory flat.
const batchSize = 64

// ordered runs work on batches of items on several goroutines and hands the
// results to emit in submission order, so output never depends on timing.
type ordered[T, R any] struct {
	work  func(items []T) R
	emit  func(R)
	in    chan orderedBatch[T, R]
	queue chan chan R
	batch []T
	wg    sync.WaitGroup
	done  chan struct{}
}

type orderedBatch[T, R any] struct {
	items []T
	res   chan R
}

func newOrdered[T, R any](work func([]T) R, emit func(R)) *ordered[T, R] {
	w := runtime.GOMAXPROCS(0)
	o := &ordered[T, R]{
		work:  work,
		emit:  emit,
		in:    make(chan orderedBatch[T, R], 2*w),
		queue: make(chan chan R, 4*w),
		done:  make(chan struct{}),
	}
	for range w {
		o.wg.Add(1)
		go func() {
			defer o.wg.Done()
			for b := range o.in {
				b.res <- o.work(b.items)
			}
		}()
	}
	go func() {
		defer close(o.done)
		for rc := range o.queue {
			o.emit(<-rc)
		}
	}()
	return o
}

// Add queues one item.
func (o *ordered[T, R]) Add(item T) {
	o.batch = append(o.batch, item)
	if len(o.batch) == batchSize {
		o.flush()
	}
}

func (o *ordered[T, R]) flush() {
	if len(o.batch) == 0 {
		return
	}
	rc := make(chan R, 1)
	o.queue <- rc
	o.in <- orderedBatch[T, R]{items: o.batch, res: rc}
	o.batch = make([]T, 0, batchSize)
}

// Close processes what is queued and waits until every result is emitted.
func (o *ordered[T, R]) Close() {
	o.flush()
	close(o.in)
	close(o.queue)
	o.wg.Wait()
	<-o.done
}

// freeList keeps values for reuse by several goroutines. Unlike a
// sync.Pool it lets go of them exactly when its owner drops it, not a
// collection or two later, which matters when they are large.
type freeList[T any] struct {
	mu    sync.Mutex
	items []T
}

func (f *freeList[T]) get() (v T, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.items); n > 0 {
		v, f.items = f.items[n-1], f.items[:n-1]
		return v, true
	}
	return v, false
}

func (f *freeList[T]) put(v T) {
	f.mu.Lock()
	f.items = append(f.items, v)
	f.mu.Unlock()
}
