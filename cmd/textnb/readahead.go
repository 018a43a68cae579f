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

// A batch holds up to aheadDocs documents or aheadBytes of text, and
// aheadBatches of them wait at most: a few megabytes whatever the
// documents' length.
const (
	aheadDocs    = 256
	aheadBytes   = 256 << 10
	aheadBatches = 16
)

// startReadAhead starts reading the corpora at paths, in order.
func startReadAhead(paths []string, opt corpus.Options) *readAhead {
	r := &readAhead{batches: make(chan []corpus.Document, aheadBatches), stopped: make(chan struct{})}
	go func() {
		defer close(r.batches)
		r.err = r.read(paths, opt)
	}()
	return r
}

// read walks the corpora, sending full batches and, at the end or at an
// error, the documents read before it.
func (r *readAhead) read(paths []string, opt corpus.Options) error {
	var batch []corpus.Document
	size := 0
	send := func() error {
		select {
		case r.batches <- batch:
			batch, size = nil, 0
			return nil
		case <-r.stopped:
			return errStopped
		}
	}
	for _, path := range paths {
		err := corpus.Walk(path, opt, func(d corpus.Document) error {
			select {
			case <-r.stopped:
				return errStopped
			default:
			}
			batch, size = append(batch, d), size+len(d.Text)
			if len(batch) == aheadDocs || size >= aheadBytes {
				return send()
			}
			return nil
		})
		if err != nil {
			if len(batch) > 0 && !errors.Is(err, errStopped) {
				_ = send()
			}
			return err
		}
	}
	if len(batch) > 0 {
		return send()
	}
	return nil
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

// stop ends the reading early, dropping what was read, and returns once
// the reading goroutine has.
func (r *readAhead) stop() {
	close(r.stopped)
	for range r.batches {
	}
}
