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
	labels        interner // the batch's labels, one copy each
	scratch       []byte   // builds Sources
}

// add appends a document with its encoding.
func (b *batch) add(d Document, enc Encoding) {
	b.docs = append(b.docs, d)
	b.encs = append(b.encs, enc)
}

// interner keeps one copy of each label. Labels are often substrings of a
// line or record: a caller keeping only labels must not keep every line
// alive. The zero value is ready to use.
type interner map[string]string

// intern returns the shared copy of label.
func (in *interner) intern(label string) string {
	if label == "" {
		return ""
	}
	if l, ok := (*in)[label]; ok {
		return l
	}
	if *in == nil {
		*in = make(interner)
	}
	l := strings.Clone(label)
	(*in)[l] = l
	return l
}

// emitFunc queues a unit of work; it reports false once the read has
// stopped, after which the producer should return.
type emitFunc = parallel.Queue[batch]

// errorUnit is a unit of work that only reports err, in order.
func errorUnit(err error) func() batch {
	return func() batch { return batch{err: err} }
}
