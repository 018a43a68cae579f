package main

import (
	"errors"

	"github.com/textnb/textnb/corpus"
)

// readAhead reads labeled corpora on a goroutine of its own, in batches,
// so that eval reads and decodes the documents while the model loads,
// which uses one core for part of that time.
type readAhead struct {
	batches chan []corpus.Document
	stopped chan struct{}
	err     error // the corpora's error, set before batches closes
}

// errStopped ends a read-ahead whose documents are no longer wanted.
var errStopped = errors.New("read-ahead stopped")

// readAheadBatches bounds the documents read ahead of the model: 16
// batches of 256.
const readAheadBatches = 16

// startReadAhead starts reading the corpora at paths, in order.
func startReadAhead(paths []string, opt corpus.Options) *readAhead {
	r := &readAhead{batches: make(chan []corpus.Document, readAheadBatches), stopped: make(chan struct{})}
	go func() {
		defer close(r.batches)
		batch := make([]corpus.Document, 0, 256)
		send := func() error {
			select {
			case r.batches <- batch:
				batch = make([]corpus.Document, 0, 256)
				return nil
			case <-r.stopped:
				return errStopped
			}
		}
		for _, path := range paths {
			err := corpus.Walk(path, opt, func(d corpus.Document) error {
				if batch = append(batch, d); len(batch) == cap(batch) {
					return send()
				}
				return nil
			})
			if err != nil {
				r.err = err
				return
			}
		}
		if len(batch) > 0 {
			r.err = send()
		}
	}()
	return r
}

// each calls fn on every document read, in order, and returns the
// corpora's error.
func (r *readAhead) each(fn func(corpus.Document)) error {
	for b := range r.batches {
		for _, d := range b {
			fn(d)
		}
	}
	return r.err
}

// stop lets the reading goroutine end early; its documents are dropped.
func (r *readAhead) stop() { close(r.stopped) }
