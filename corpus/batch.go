package corpus

import (
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/textfile"
)

// batch is the result of one unit of work: documents in order, or an error.
type batch struct {
	docs          []Document
	encs          []Encoding // encs[i] is what docs[i].Text was decoded from
	labelsIgnored bool
	err           error
	labels        textfile.Interner // the batch's labels, one copy each
	scratch       []byte            // builds Sources
	// mbox names a large mbox file whose messages, of class mboxLabel,
	// the reader streams itself (see walkMbox) after docs
	mbox, mboxLabel string
}

// add appends a document with its encoding.
func (b *batch) add(d Document, enc Encoding) {
	b.docs = append(b.docs, d)
	b.encs = append(b.encs, enc)
}

// emitFunc queues a unit of work; it reports false once the read has
// stopped, after which the producer should return.
type emitFunc = parallel.Queue[batch]

// errorUnit is a unit of work that only reports err, in order.
func errorUnit(err error) func() batch {
	return func() batch { return batch{err: err} }
}
