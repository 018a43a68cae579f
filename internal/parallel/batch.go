package parallel

import "sync"

// batchSize is the number of documents a worker takes at a time: large
// enough to amortize channel traffic, small enough to keep memory flat.
const batchSize = 64

// Batcher runs work on batches of items on several goroutines and hands
// the results to emit, on a goroutine of its own, in submission order, so
// output never depends on timing. It lets a caller that is itself called
// once per item (as corpus.Walk calls back) feed Ordered.
type Batcher[T, R any] struct {
	batches chan []T
	batch   []T
	done    chan struct{}
}

// NewBatcher starts a Batcher that runs work and hands its results to emit.
func NewBatcher[T, R any](work func([]T) R, emit func(R)) *Batcher[T, R] {
	o := &Batcher[T, R]{batches: make(chan []T), done: make(chan struct{})}
	go func() {
		defer close(o.done)
		_ = Ordered(0, func(queue Queue[R]) {
			for items := range o.batches {
				queue(func() R { return work(items) }) // never refused: emit cannot fail
			}
		}, func(r R) error {
			emit(r)
			return nil
		})
	}()
	return o
}

// Add queues one item.
func (o *Batcher[T, R]) Add(item T) {
	o.batch = append(o.batch, item)
	if len(o.batch) == batchSize {
		o.flush()
	}
}

func (o *Batcher[T, R]) flush() {
	if len(o.batch) > 0 {
		o.batches <- o.batch
		o.batch = make([]T, 0, batchSize)
	}
}

// Close processes what is queued and waits until every result is emitted.
func (o *Batcher[T, R]) Close() {
	o.flush()
	close(o.batches)
	<-o.done
}

// FreeList keeps values for reuse by several goroutines. Unlike a
// sync.Pool it lets go of them exactly when its owner drops it, not a
// collection or two later, which matters when they are large.
type FreeList[T any] struct {
	mu    sync.Mutex
	items []T
}

// Get takes a value kept, if there is one.
func (f *FreeList[T]) Get() (v T, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.items); n > 0 {
		v, f.items = f.items[n-1], f.items[:n-1]
		return v, true
	}
	return v, false
}

// Put keeps v for a later Get.
func (f *FreeList[T]) Put(v T) {
	f.mu.Lock()
	f.items = append(f.items, v)
	f.mu.Unlock()
}
