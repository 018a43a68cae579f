package parallel

import "sync"

// Queue queues one unit of work for Ordered. It reports false once the
// pipeline has stopped, after which the producer should return.
type Queue[R any] func(run func() R) bool

// aheadPerWorker bounds the read-ahead of Ordered: at most
// workers×aheadPerWorker units are queued or running beyond the one being
// consumed, which bounds memory whatever the producer's pace.
const aheadPerWorker = 4

// Ordered runs produce on its own goroutine, runs each unit it queues on
// one of workers goroutines (≤ 0: GOMAXPROCS), and passes the results to
// consume, on the caller's goroutine, in the order the units were queued.
// When consume fails, queuing reports false and Ordered returns consume's
// error once every goroutine it started has exited.
func Ordered[R any](workers int, produce func(queue Queue[R]), consume func(R) error) error {
	type task struct {
		run func() R
		out chan R // buffered, so a worker never blocks on a stopped consumer
	}
	workers = Workers(workers)
	order := make(chan *task, workers*aheadPerWorker)
	jobs := make(chan *task)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(order)
		defer close(jobs)
		produce(func(run func() R) bool {
			select { // a stop already seen must refuse, whichever case select picks below
			case <-done:
				return false
			default:
			}
			t := &task{run: run, out: make(chan R, 1)}
			select {
			case order <- t:
			case <-done:
				return false
			}
			select {
			case jobs <- t:
				return true
			case <-done:
				return false
			}
		})
	})
	for range workers {
		wg.Go(func() {
			for t := range jobs {
				r := t.run()
				t.run = nil // what the unit read (a document's text) need not outlive it
				t.out <- r
			}
		})
	}
	var err error
	for t := range order {
		if err = consume(<-t.out); err != nil {
			break
		}
	}
	close(done)
	wg.Wait()
	return err
}
