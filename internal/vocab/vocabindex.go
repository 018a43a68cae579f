package vocab

import (
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/termtab"
)

// vocabIndex finds the terms of a Vocabulary by a hash that folds together
// the hashes of their space-separated words, so that a word n-gram is found
// from its words without joining them, and building the index costs one
// insertion per term. A match of the 64-bit hash and the length is taken
// as a match of the term: comparing the bytes too would cost two more cache
// misses per look-up. Words are hashed by Go's maphash with a seed drawn
// per index, so no input can be crafted to collide, and a false match has
// a chance of about 2⁻⁶⁴ per look-up (10⁻¹² over all 20 Newsgroups tests).
//
// Beside the slots, a byte per slot holds 7 bits of its hash (tags, a
// megabyte for 20 Newsgroups' bigrams, which mostly stays in cache): a probe
// reads the slot itself only where the tag matches, so a look-up that
// misses (a quarter of them, and the longest probes) rarely leaves the
// cache, and one that hits reads one slot.
type vocabIndex struct {
	tags  []uint8 // 0: empty slot; else 0x80 | the hash's low 7 bits
	slots []indexSlot
	shift uint
	seed  maphash.Seed
}

func tagOf(h uint64) uint8 { return uint8(h)&0x7f | 0x80 }

type indexSlot struct {
	hash uint64
	id   int32 // term id
	n    int32 // the term's length in bytes (saturated)
}

func lenKey(n int) int32 { return int32(min(n, 1<<31-1)) }

// wordHash is the hash of a word without spaces.
func (x *vocabIndex) wordHash(w string) uint64 {
	return maphash.String(x.seed, w)
}

// fold extends the hash of a term by the hash of one more word; the order
// of the words matters.
func fold(h, w uint64) uint64 { return termtab.Mix64(h*0x9e3779b97f4a7c15 + w) }

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

// build indexes the n terms of tab, hashing them in chunks and filling the
// table in parts, on every core. It reports a term that repeats an earlier
// one (ErrVocabularyTerms); the later copy is not indexed.
func (x *vocabIndex) build(tab *termtab.Packed) error {
	x.seed = maphash.MakeSeed()
	return x.index(tab)
}

// index is build with x's seed, which hashes computed before it keep
// matching.
func (x *vocabIndex) index(tab *termtab.Packed) error {
	n := tab.Len()
	hashes := make([]uint64, n)
	parallel.Chunks(n, buildChunk, 0, func(lo, hi int) {
		for id := lo; id < hi; id++ {
			hashes[id] = x.termHash(tab.Term(int32(id)))
		}
	})
	if _, repeated := x.fill(tab, hashes, min(parallel.Workers(0), max(1, n/buildChunk))); repeated {
		id, of := x.firstRepeat(tab, hashes)
		return fmt.Errorf("%w: term %d %q repeats term %d", ErrVocabularyTerms, id, tab.Term(id), of)
	}
	return nil
}

// firstRepeat returns the smallest id whose term repeats an earlier one's,
// and that one's id, which the index holds in its place; −1, −1 if none.
func (x *vocabIndex) firstRepeat(tab *termtab.Packed, hashes []uint64) (id, of int32) {
	for id := range int32(len(hashes)) {
		if of := x.find(hashes[id], tab.TermLen(id)); of != id && of >= 0 && tab.Term(of) == tab.Term(id) {
			return id, of
		}
	}
	return -1, -1
}

// buildChunk is the fewest terms worth a goroutine of their own.
const buildChunk = 1 << 14

// fill makes the table and places the terms of tab, given their hashes:
// each of parts equal parts of the table, on a goroutine of its own, takes
// the terms whose probes start in it, grouped beforehand by byPart. A term
// whose probe would run past its part's end is spilled, and placed by an
// unbounded probe once the parts are done; linear probing finds it all the
// same. It returns the number of spilled terms and whether a term repeated
// an earlier one and was left out. Equal terms start their probes at the
// same slot, so the later one meets the earlier, in its part or among the
// spilled.
func (x *vocabIndex) fill(tab *termtab.Packed, hashes []uint64, parts int) (spilled int, repeated bool) {
	size := tableSize(len(hashes))
	// Slots are read only where a tag is set, so only the tags need
	// writing first (see termtab.WrittenSlots).
	x.slots, x.shift = make([]indexSlot, size), termtab.ShiftFor(size)
	x.tags = termtab.WrittenSlots[uint8](size)
	log := 64 - x.shift // log2(size): a shift, not a division per term
	ids, at := byPart(hashes, func(h uint64) int { return int(h>>x.shift) * parts >> log }, parts)
	spills := make([][]int32, parts)
	reps := make([]bool, parts)
	parallel.For(parts, parts, func(p int) {
		hi := ((p+1)*size + parts - 1) / parts // part p's slots i have i·parts/size = p
		var spill []int32
		repeated := false // kept apart from reps until the end: the parts share its cache line
		for _, id := range ids[at[p]:at[p+1]] {
			h := hashes[id]
			placed, rep := x.place(tab, id, h, int(h>>x.shift), hi&(size-1))
			repeated = repeated || rep
			if !placed && !rep {
				spill = append(spill, id)
			}
		}
		spills[p], reps[p] = spill, repeated
	})
	for p, ids := range spills {
		for _, id := range ids {
			_, rep := x.place(tab, id, hashes[id], int(hashes[id]>>x.shift), -1)
			repeated = repeated || rep
		}
		spilled += len(ids)
		repeated = repeated || reps[p]
	}
	return spilled, repeated
}

// byPart returns the ids 0…len(hashes)−1 grouped by part(hash), ids
// increasing within a part, and where each part's ids start (parts+1
// offsets): one pass each, so that no goroutine scans all the hashes.
func byPart(hashes []uint64, part func(uint64) int, parts int) (ids []int32, at []int) {
	at = make([]int, parts+1)
	for _, h := range hashes {
		at[part(h)+1]++
	}
	for p := range parts {
		at[p+1] += at[p]
	}
	next := slices.Clone(at[:parts])
	ids = make([]int32, len(hashes))
	for id, h := range hashes {
		p := part(h)
		ids[next[p]] = int32(id)
		next[p]++
	}
	return ids, at
}

// place puts term id, of hash h, in the first empty slot from slot i on,
// unless the probe reaches slot stop first (the next part's first slot, 0
// past the table's end; −1: no stop) or meets an equal term; it reports
// whether it placed it, and whether it met an equal term.
func (x *vocabIndex) place(tab *termtab.Packed, id int32, h uint64, i, stop int) (placed, repeated bool) {
	mask, tag, n := len(x.tags)-1, tagOf(h), lenKey(tab.TermLen(id))
	for ; x.tags[i] != 0; i = (i + 1) & mask {
		if sl := &x.slots[i]; x.tags[i] == tag && sl.hash == h && sl.n == n && tab.Term(sl.id) == tab.Term(id) {
			return false, true
		}
		if (i+1)&mask == stop {
			return false, false
		}
	}
	x.tags[i] = tag
	x.slots[i] = indexSlot{hash: h, id: id, n: n}
	return true, false
}

// find returns the id of the term with hash h and length n, or −1.
func (x *vocabIndex) find(h uint64, n int) int32 {
	mask, key, tag := len(x.tags)-1, lenKey(n), tagOf(h)
	for i := int(h >> x.shift); ; i = (i + 1) & mask {
		switch x.tags[i] {
		case 0:
			return -1
		case tag:
			if sl := &x.slots[i]; sl.hash == h && sl.n == key {
				return sl.id
			}
		}
	}
}

// tableSize returns the power of two of slots that holds n entries below
// 3/8 load. Most look-ups of bigrams miss, and a miss probes up to an empty
// tag: about 7 tags at 3/4 load, each a branch the processor cannot
// predict, against under 2 at 3/8; at 3/16 the slots' cache misses cost
// more than the probes save.
func tableSize(n int) int {
	size := 1 << 10
	for 3*size < 8*n {
		size *= 2
	}
	return size
}
