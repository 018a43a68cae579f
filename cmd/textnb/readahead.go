package main

import (
	"errors"

	"github.com/textnb/textnb/corpus"
)

// readAhead reads a labeled corpus on a goroutine of its own, in batches,
// so that eval reads and decodes the documents while the model loads,
// which uses one core for part of that time.
type readAhead struct {
	batches chan []corpus.Document
	stopped chan struct{}
	err     error // the corpus's error, set before batches closes
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

// startReadAhead starts reading the corpus at path.
func startReadAhead(path string, opt corpus.Options) *readAhead {
	r := &readAhead{batches: make(chan []corpus.Document, aheadBatches), stopped: make(chan struct{})}
	go func() {
		defer close(r.batches)
		r.err = r.read(path, opt)
	}()
	return r
}

// read walks the corpus, sending full batches and, at the end or at an
// error, the documents read before it.
func (r *readAhead) read(path string, opt corpus.Options) error {
	batch := make([]corpus.Document, 0, aheadDocs)
	size := 0
	send := func() error {
		select {
		case r.batches <- batch:
			batch, size = make([]corpus.Document, 0, aheadDocs), 0
			return nil
		case <-r.stopped:
			return errStopped
		}
	}
	_, err := corpus.Walk(path, opt, func(d corpus.Document) error {
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
	if len(batch) > 0 && !errors.Is(err, errStopped) {
		if serr := send(); err == nil {
			err = serr
		}
	}
	return err
}

// each calls fn on every document read, in order, and returns the
// corpus's error.
func (r *readAhead) each(fn func(corpus.Document)) error {
	for b := range r.batches {
		for _, d := range b {
			fn(d)
		}
	}
	return r.err
}

// stop ends the reading early, dropping what was read, and returns once
// the reading goroutine has. Call it once.
func (r *readAhead) stop() {
	close(r.stopped)
	for range r.batches {
	}
}
