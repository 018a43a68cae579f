package corpus

import (
	"strings"

	"github.com/textnb/textnb/internal/parallel"
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

// emitFunc queues a unit of work; it reports false once the read has
// stopped, after which the producer should return.
type emitFunc = parallel.Queue[batch]

// errorUnit is a unit of work that only reports err, in order.
func errorUnit(err error) func() batch {
	return func() batch { return batch{err: err} }
}
