package corpus

import (
	"strings"
	"sync"
)

// batch is the result of one unit of work: documents in order, or an error.
type batch struct {
	docs          []Document
	encs          []Encoding // encs[i] is what docs[i].Text was decoded from
	labelsIgnored bool
	err           error
	labels        map[string]string // interned labels, see intern
	scratch       []byte            // builds Sources
}

// add appends a document with its encoding.
func (b *batch) add(d Document, enc Encoding) {
	b.docs = append(b.docs, d)
	b.encs = append(b.encs, enc)
}

// intern returns a copy of label shared by the batch's documents. Labels are
// often substrings of a line: a caller keeping only labels must not keep
// every line alive.
func (b *batch) intern(label string) string {
	if label == "" {
		return ""
	}
	if l, ok := b.labels[label]; ok {
		return l
	}
	if b.labels == nil {
		b.labels = make(map[string]string)
	}
	l := strings.Clone(label)
	b.labels[l] = l
	return l
}

// emitFunc queues a unit of work; it reports false once the pipeline has
// stopped, after which the producer should return.
type emitFunc func(run func() batch) bool

type task struct {
	run func() batch
	out chan batch // buffered, so a worker never blocks on a stopped consumer
}

// aheadPerWorker bounds the read-ahead: at most workers×aheadPerWorker units
// are queued or in flight beyond the one being consumed.
const aheadPerWorker = 4

// pipeline runs produce on its own goroutine, runs each unit it emits on one
// of workers goroutines, and passes the results to consume in emission order.
// It returns consume's first error, after every goroutine has exited.
func pipeline(workers int, produce func(emit emitFunc), consume func(batch) error) error {
	order := make(chan *task, workers*aheadPerWorker)
	jobs := make(chan *task)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(order)
		defer close(jobs)
		produce(func(run func() batch) bool {
			t := &task{run: run, out: make(chan batch, 1)}
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
				t.out <- t.run()
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

// errorUnit is a unit of work that only reports err, in order.
func errorUnit(err error) func() batch {
	return func() batch { return batch{err: err} }
}
