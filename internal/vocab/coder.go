package vocab

import (
	"math/rand/v2"
	"slices"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/termtab"
)

// A WordCoder prepares documents for a Builder on another goroutine:
// it numbers their words in a table of its own and lists each document's
// distinct unigrams and bigrams with their counts (CodedDoc). The builder,
// which must run on one goroutine, then only maps the coder's numbers to
// its own (an array look-up once a word is known) and counts each distinct
// unigram and bigram once, instead of hashing every word of every
// document: the hashing and de-duplication happen on the coders'
// goroutines, in parallel. Longer n-grams the builder forms from the
// document's words.
//
// A coder serves one goroutine at a time, and a CodedDoc refers to its
// coder until the builder has added it. The builder keeps its map from the
// coder's numbers to its own inside the coder, touching nothing that Code
// writes, and spells a term new to it from the CodedDoc's view of the
// coder's terms, which Code only appends to; so a coder may code the next
// documents while the builder adds the last ones. The map serves one
// builder: a coder whose documents go to several builders in turn starts it
// afresh at each switch. The zero value is ready to use.
type WordCoder struct {
	terms termtab.Table
	// builder maps the coder's term ids to the builder's nodes, plus one,
	// negated for a term that holds a space (a chain of word nodes, which
	// may be the same term as a bigram of others); 0: not known yet. Only
	// Builder.AddCoded reads or writes it.
	builder []int32
	owner   uint64 // the tables id of the builder whose nodes builder holds
	// scratch of coding a document: per term id, 1 + its position in the
	// document's distinct terms, else 0 (pos), and 1 + its index among the
	// extra terms not yet placed, else 0 (xpos); the words' positions, the
	// terms' counts, the extra terms not yet placed and their counts, the
	// unigrams, and the table that finds repeated bigrams (pair of
	// positions → gram)
	pos, xpos, at, counts []int32
	xids, xcounts         []int32
	uni                   []codedGram
	seen                  gramIndex
	lo, hi                int  // the document's n-gram range
	indexed               bool // seen has been started for the document
}

// Len returns the number of distinct terms the coder has numbered; a
// caller may drop a coder that has grown too large and start a new one.
func (c *WordCoder) Len() int { return c.terms.Len() }

// A CodedDoc is one document coded by a WordCoder. The zero value is ready
// to be filled by WordCoder.Code; it can be reused once added.
type CodedDoc struct {
	coder *WordCoder
	ids   []int32        // the document's distinct terms: their ids in the coder
	tab   termtab.Packed // the coder's terms as of coding, to spell the ids
	grams []codedGram
	// words holds the positions in ids of the words, in order, when
	// n-grams from longLo to longHi words (n ≥ 3) are to be counted: the
	// builder forms those from the words, in memory linear in them.
	words          []int32
	longLo, longHi int
}

// codedGram is a distinct unigram or bigram: positions a and b into d.ids,
// b < 0 for a unigram.
type codedGram struct {
	a, b, count int32
}

// Len returns the number of n-gram entries (a long n-gram counts once per
// occurrence), 0 for a document without terms.
func (d *CodedDoc) Len() int {
	n := len(d.grams)
	for m := d.longLo; m <= d.longHi && m > 0; m++ {
		n += max(0, len(d.words)-m+1)
	}
	return n
}

// Code fills d with the n-grams of words with lengths in r and the extra
// terms, as Builder.AddWords would count them.
func (c *WordCoder) Code(d *CodedDoc, words []string, r ngrams.Range, extra []string) {
	c.Start(d, r)
	c.Piece(d, words, 0, extra)
	c.Finish(d)
}

// Start begins coding into d a document given in pieces, in order: Piece
// adds each piece and Finish completes d, which then is what Code of the
// whole document would make of it, to the order of its terms. Memory
// grows with the document's distinct terms and bigrams and with the
// largest piece, not with the document (except that n-grams of three words
// or more keep a position per word).
func (c *WordCoder) Start(d *CodedDoc, r ngrams.Range) {
	d.empty(maxScratch) // the last document, unless Release dropped it
	d.coder = c
	c.lo, c.hi = r.Bounds()
	c.counts = capped(c.counts, maxScratch)
	c.xids, c.xcounts = capped(c.xids, maxScratch), capped(c.xcounts, maxScratch)
	c.indexed = false
}

// Piece adds the n-grams that end in words[from:] and the extra terms of
// a piece of the document: words[:from] are the last words of the piece
// before (at least one, if there was one, for n-grams beyond unigrams).
func (c *WordCoder) Piece(d *CodedDoc, words []string, from int, extra []string) {
	at := capped(c.at, maxScratch) // positions in d.ids of the words
	for _, w := range words {
		at = append(at, c.place(d, c.intern(w)))
	}
	c.at = at
	if n := len(d.ids) - len(c.counts); n > 0 {
		c.counts = append(c.counts, make([]int32, n)...)
	}
	if c.lo == 1 {
		for _, k := range at[from:] {
			c.counts[k]++
		}
	}
	// The extra terms come after every word in d.ids, as in Code: they
	// are placed when the last word is known, by Finish.
	for _, t := range extra {
		id := c.intern(t)
		if int(id) >= len(c.xpos) {
			c.xpos = append(c.xpos, make([]int32, int(id)+1-len(c.xpos))...)
		}
		if c.xpos[id] == 0 {
			c.xids, c.xcounts = append(c.xids, id), append(c.xcounts, 0)
			c.xpos[id] = int32(len(c.xids))
		}
		c.xcounts[c.xpos[id]-1]++
	}
	if c.lo <= 2 && c.hi >= 2 {
		c.bigrams(d, at, max(from, 1))
	}
	if c.hi >= 3 {
		d.words, d.longLo, d.longHi = append(d.words, at[from:]...), max(c.lo, 3), c.hi
	}
}

// Finish completes d: its unigrams in order of first occurrence, words
// before extra terms, then its bigrams in order of first occurrence.
func (c *WordCoder) Finish(d *CodedDoc) {
	for i, id := range c.xids {
		c.xpos[id] = 0
		k := c.place(d, id)
		if n := len(d.ids) - len(c.counts); n > 0 {
			c.counts = append(c.counts, make([]int32, n)...)
		}
		c.counts[k] += c.xcounts[i]
	}
	uni := capped(c.uni, maxScratch)
	for k, n := range c.counts {
		if n > 0 {
			uni = append(uni, codedGram{a: int32(k), b: -1, count: n})
		}
	}
	d.grams = slices.Insert(d.grams, 0, uni...) // before the bigrams, in the room append left if it can
	c.uni = uni
	c.seen.release()
	for _, id := range d.ids {
		c.pos[id] = 0
	}
	d.tab = c.terms.Packed
}

// maxScratch bounds the per-document scratch a WordCoder or a CodedDoc
// keeps.
const maxScratch = 1 << 20

// keptDocBuffer bounds the capacity of each buffer that Release lets a
// CodedDoc keep: enough for a document of thousands of words.
const keptDocBuffer = 1 << 12

// Release drops what d no longer needs once added: its references to the
// coder and the coder's terms, which would otherwise keep a dropped coder's
// table alive while d waits for reuse, and any buffer a long document grew,
// so that a caller keeping many CodedDocs for reuse holds memory for
// documents of usual length only. d is then empty: Code must fill it before
// it is added again. A CodedDoc never refers to the text it was coded from.
func (d *CodedDoc) Release() { d.empty(keptDocBuffer) }

// empty clears d and keeps the buffers of at most limit elements for reuse.
func (d *CodedDoc) empty(limit int) {
	*d = CodedDoc{ids: capped(d.ids, limit), grams: capped(d.grams, limit), words: capped(d.words, limit)}
}

// capped empties s for reuse, unless a long document grew it beyond limit
// elements: reused buffers live as long as the coder or the coded document.
func capped[T any](s []T, limit int) []T {
	if cap(s) > limit {
		return nil
	}
	return s[:0]
}

// intern returns the id of t, numbering it if it is new.
func (c *WordCoder) intern(t string) int32 {
	id := c.terms.Intern(t)
	if int(id) == len(c.pos) { // a new term: ids are dense
		c.pos = append(c.pos, 0)
	}
	return id
}

// place returns where term id is in d's distinct terms, adding it.
func (c *WordCoder) place(d *CodedDoc, id int32) int32 {
	if c.pos[id] == 0 {
		d.ids = append(d.ids, id)
		c.pos[id] = int32(len(d.ids))
	}
	return c.pos[id] - 1
}

// bigrams adds the bigrams (at[i-1], at[i]) for i from first on to
// d.grams, counting repeats, new ones in order of first occurrence.
func (c *WordCoder) bigrams(d *CodedDoc, at []int32, first int) {
	if first >= len(at) {
		return
	}
	if n := len(at) - first; !c.indexed {
		c.seen.start(n)
		c.indexed = true
	} else {
		c.seen.reserve(d.grams, n)
	}
	for i := first; i < len(at); i++ {
		a, b := at[i-1], at[i]
		if g, found := c.seen.intern(d.grams, a, b); found {
			d.grams[g].count++
			continue
		}
		d.grams = append(d.grams, codedGram{a: a, b: b, count: 1})
	}
}

// gramIndex finds a document's bigrams among those listed so far: a
// hash table of chains through the list, whose bucket heads carry the
// document's number, so that starting a document clears nothing. A
// document uses a prefix of the heads, two buckets per bigram or more (32
// KiB for a document of usual length, which stays in cache), so most of its
// bigrams are new and find their bucket empty: a multiply, one load, and
// rarely a comparison.
type gramIndex struct {
	heads []uint64 // per bucket: the document's number << 32 | its last gram
	next  []int32  // per gram: the bucket's previous gram, or −1
	doc   uint32   // the document's number, from 1
	size  int      // buckets the document uses: heads[:size]
	shift uint
	seed  uint64
}

// A document gets at least minBuckets buckets. Up to maxBuckets are kept
// for the next documents; the heads of a document that needed more are
// dropped when the coder starts its next document that needs no more.
const (
	minBuckets = 1 << 12
	maxBuckets = 1 << 16
)

// start readies the index for a document of n bigrams.
func (x *gramIndex) start(n int) {
	size := minBuckets
	for size < 2*n {
		size *= 2
	}
	if len(x.heads) > maxBuckets && size <= maxBuckets {
		x.heads = nil // a huge document's
	}
	if x.doc++; len(x.heads) < size || x.doc == 0 { // a new table, or its numbers wrapped around
		x.heads, x.doc = termtab.WrittenSlots[uint64](size), 1 // read before written
		x.seed = rand.Uint64()
	}
	x.shift, x.size = termtab.ShiftFor(size), size // heads[:size]; older documents' heads beyond
	x.next = capped(x.next, maxScratch)
}

// reserve readies the index for n more bigrams after grams, the
// document's so far, for a document given in pieces: if they would
// outnumber the buckets, it starts afresh with at least a bucket per
// bigram, not two, and lists grams again.
func (x *gramIndex) reserve(grams []codedGram, n int) {
	if len(grams)+n <= x.size {
		return
	}
	next := x.next[:0]
	x.start((len(grams) + n + 1) / 2)
	x.next = next
	for _, g := range grams {
		x.add(x.bucket(g.a, g.b))
	}
}

// release drops the buckets and chains of a document that needed more
// than maxScratch of them.
func (x *gramIndex) release() {
	if len(x.heads) > maxScratch || cap(x.next) > maxScratch {
		*x = gramIndex{}
	}
}

// bucket returns the bucket of the bigram (a, b).
func (x *gramIndex) bucket(a, b int32) uint64 {
	return ((uint64(uint32(a))<<32 | uint64(uint32(b))) ^ x.seed) * 0x9e3779b97f4a7c15 >> x.shift
}

// intern returns the index in grams (the document's grams so far) of the
// bigram (a, b) and true, or lists it as the next gram and returns that
// index and false.
func (x *gramIndex) intern(grams []codedGram, a, b int32) (int32, bool) {
	h := x.bucket(a, b)
	if head := x.heads[h]; uint32(head>>32) == x.doc {
		for g := int32(uint32(head)); g >= 0; g = x.next[g] {
			if grams[g].a == a && grams[g].b == b {
				return g, true
			}
		}
	}
	return x.add(h), false
}

// add lists the next gram, in bucket h.
func (x *gramIndex) add(h uint64) int32 {
	prev := int32(-1)
	if head := x.heads[h]; uint32(head>>32) == x.doc {
		prev = int32(uint32(head))
	}
	g := int32(len(x.next))
	x.next = append(x.next, prev)
	x.heads[h] = uint64(x.doc)<<32 | uint64(uint32(g))
	return g
}

// AddCoded appends one document that a WordCoder coded. It counts the same
// terms as AddWords of the same words, n-gram range and extra terms.
func (b *Builder) AddCoded(d *CodedDoc) {
	c := d.coder
	if id := b.tablesID(); c.owner != id { // the map belongs to other tables
		c.owner, c.builder = id, c.builder[:0]
	}
	start := b.begin(d.Len())
	b.nodes = b.nodes[:0]
	spaced := false
	if n := d.tab.Len(); n > len(c.builder) { // room for every term d can name
		c.builder = append(c.builder, make([]int32, n-len(c.builder))...)
	}
	for _, id := range d.ids {
		v := c.builder[id]
		if v == 0 {
			node := b.g.term(d.tab.Term(id))
			if v = node + 1; b.g.link.at(node)&isWord == 0 {
				v = -v
			}
			c.builder[id] = v
		}
		spaced = spaced || v < 0
		b.nodes = append(b.nodes, max(v, -v)-1)
	}
	if !spaced && d.longHi == 0 {
		// Distinct coder terms have distinct nodes, so the grams are
		// distinct terms: no need to merge repeats. No term holds a space,
		// so a bigram is a pair of word nodes: extend's check is not needed.
		for _, gm := range d.grams {
			node := b.nodes[gm.a]
			if gm.b >= 0 {
				node = b.g.pair(node, b.nodes[gm.b])
			}
			b.open = append(b.open, uint64(node)<<32|uint64(uint32(gm.count)))
		}
		b.close(start)
		return
	}
	for _, gm := range d.grams {
		node := b.nodes[gm.a]
		if gm.b >= 0 {
			node = b.g.extend(node, b.nodes[gm.b])
		}
		b.countN(node, gm.count)
	}
	for i, k := range d.words {
		node := b.nodes[k]
		for n := 2; n <= d.longHi && i+n <= len(d.words); n++ {
			node = b.g.extend(node, b.nodes[d.words[i+n-1]])
			if n >= d.longLo {
				b.count(node)
			}
		}
	}
	b.end(start)
}
