package vectorize

import (
	"math/bits"
	"math/rand/v2"
	"strings"
)

// vocabIndex finds the terms of a Vocabulary by a hash that folds together
// the hashes of their space-separated words, so that a word n-gram is found
// from its words without joining them, and building the index costs one
// insertion per term. A hash match is confirmed by comparing the bytes.
type vocabIndex struct {
	slots []indexSlot
	shift uint
	seed  uint64
}

type indexSlot struct {
	hash uint64
	id   int32 // term id + 1; 0 marks an empty slot
}

// wordHash is the hash of a word without spaces.
func (x *vocabIndex) wordHash(w string) uint64 {
	h, _ := hashString(x.seed, w)
	return h
}

// fold extends the hash of a term by the hash of one more word; the order
// of the words matters.
func fold(h, w uint64) uint64 { return mix64(h*0x9e3779b97f4a7c15 + w) }

// termHash is the hash of any term: its words' hashes folded in order.
func (x *vocabIndex) termHash(t string) uint64 {
	i := strings.IndexByte(t, ' ')
	if i < 0 {
		return x.wordHash(t)
	}
	h := x.wordHash(t[:i])
	for t = t[i+1:]; ; t = t[i+1:] {
		if i = strings.IndexByte(t, ' '); i < 0 {
			return fold(h, x.wordHash(t))
		}
		h = fold(h, x.wordHash(t[:i]))
	}
}

// build indexes the n terms of tab, which are distinct.
func (x *vocabIndex) build(tab *termTable) {
	n := tab.len()
	x.seed = rand.Uint64() | 1
	size := tableSize(n)
	x.slots, x.shift = make([]indexSlot, size), uint(64-bits.Len(uint(size))+1)
	mask := size - 1
	for id := range n {
		h := x.termHash(tab.term(int32(id)))
		i := int(h >> x.shift)
		for x.slots[i].id != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = indexSlot{hash: h, id: int32(id) + 1}
	}
}

// findTerm returns the id of term t, whose hash is h, or −1.
func (x *vocabIndex) findTerm(tab *termTable, h uint64, t string) int32 {
	mask := len(x.slots) - 1
	for i := int(h >> x.shift); ; i = (i + 1) & mask {
		sl := &x.slots[i]
		if sl.id == 0 {
			return -1
		}
		if sl.hash == h && tab.term(sl.id-1) == t {
			return sl.id - 1
		}
	}
}

// findWords returns the id of the term that joins words with spaces,
// whose hash is h, or −1.
func (x *vocabIndex) findWords(tab *termTable, h uint64, words []string) int32 {
	mask := len(x.slots) - 1
	for i := int(h >> x.shift); ; i = (i + 1) & mask {
		sl := &x.slots[i]
		if sl.id == 0 {
			return -1
		}
		if sl.hash == h && joins(tab.term(sl.id-1), words) {
			return sl.id - 1
		}
	}
}

// joins reports whether t is words joined by single spaces.
func joins(t string, words []string) bool {
	for k, w := range words {
		if k > 0 {
			if t == "" || t[0] != ' ' {
				return false
			}
			t = t[1:]
		}
		if !strings.HasPrefix(t, w) {
			return false
		}
		t = t[len(w):]
	}
	return t == ""
}

// tableSize returns the power of two of slots that holds n entries below
// the tables' 3/4 load.
func tableSize(n int) int {
	size := 1 << 10
	for 3*size < 4*n {
		size *= 2
	}
	return size
}
