package termtab

import (
	"hash/maphash"
	"math/bits"
	"math/rand/v2"
	"slices"
	"unsafe"
)

// Table interns terms as dense ids 0, 1, 2… in first-seen order. It is
// an open-addressing (linear probing) hash table whose memory holds no
// pointers, so the garbage collector never scans it. A slot holds a short
// term's bytes inline and a long term's offset, so a lookup costs one cache
// miss for a short term and two for a long one; a Go map costs about as
// much for the lookup but twice as much memory, all of it scanned by the
// garbage collector. The hash is seeded, so crafted terms cannot pile into
// one probe run: Go's maphash (AES-based where the processor has it) for a
// term longer than 8 bytes, murmur3's finalizer of the slot key, seed and
// length for a shorter one, most words, which costs a few instructions
// instead of a call. The seeds are random, but ids do not depend on them.
type Table struct {
	Packed
	slots   []slot
	shift   uint // 64 − log2(len(slots)): the slot of hash h is h >> shift
	seed    maphash.Seed
	mixSeed uint64
}

// Packed holds terms back to back in one pointer-free block, which is
// only ever appended to, so views of it stay valid.
type Packed struct {
	Bytes []byte // all terms, concatenated
	Ends  []int  // Ends[id] is where term id ends in Bytes
}

type slot struct {
	// tag is 0 for an empty slot, else the hash's top 23 bits, bit 8 set
	// and min(len, 255) in the low byte.
	tag uint32
	id  int32
	// key identifies a term of at most 8 bytes together with its length
	// (see hash); for a longer term it holds the term's offset in bytes
	// (low 40 bits: a terabyte of terms) and the hash's low 24 bits, which
	// the tag's hash bits (shared with the slot number) do not cover.
	key uint64
}

const (
	tagHashBits = 23
	maxInline   = 8
	offBits     = 40
)

func makeTag(h uint64, n int) uint32 {
	return uint32(h>>32)&^0x1ff | 0x100 | uint32(min(n, 255))
}

// Intern returns the id of s, adding s if it is new.
func (t *Table) Intern(s string) int32 {
	if t.slots == nil {
		t.slots, t.shift, t.seed, t.mixSeed = make([]slot, 1<<10), ShiftFor(1<<10), maphash.MakeSeed(), rand.Uint64()
	}
	sl, tag, key, found := t.probe(s)
	if found {
		return sl.id
	}
	return t.insert(sl, tag, key, s)
}

// probe returns the slot of s, or the empty slot where s belongs, with the
// tag and key s has or would have.
func (t *Table) probe(s string) (sl *slot, tag uint32, key uint64, found bool) {
	h, key := t.hash(s)
	tag = makeTag(h, len(s))
	mask := len(t.slots) - 1
	for i := int(h >> t.shift); ; i = (i + 1) & mask {
		sl = &t.slots[i]
		if sl.tag == 0 {
			return sl, tag, key, false
		}
		if sl.tag == tag && t.match(sl, key, s) {
			return sl, tag, key, true
		}
	}
}

// ShiftFor returns the shift that maps a 64-bit hash to a slot of a table
// of size slots (a power of two): the slot of h is h >> shift.
func ShiftFor(size int) uint { return uint(64 - bits.Len(uint(size)) + 1) }

// match compares s with the term of a slot whose tag (hash bits and length
// up to 255) already agrees.
func (t *Table) match(sl *slot, key uint64, s string) bool {
	if len(s) <= maxInline {
		return sl.key == key
	}
	if sl.key>>offBits != key>>offBits {
		return false
	}
	start := int(sl.key & (1<<offBits - 1))
	end := start + len(s)
	return end <= len(t.Bytes) && string(t.Bytes[start:end]) == s && (len(s) < 255 || t.Ends[sl.id] == end)
}

func (t *Table) insert(sl *slot, tag uint32, key uint64, s string) int32 {
	id := int32(len(t.Ends))
	if len(s) > maxInline {
		key |= uint64(len(t.Bytes))
	}
	t.Bytes = append(reserve(t.Bytes, len(s)), s...)
	t.Ends = append(reserve(t.Ends, 1), len(t.Bytes))
	*sl = slot{tag: tag, id: id, key: key}
	if 4*len(t.Ends) > 3*len(t.slots) {
		t.grow()
	}
	return id
}

// grow doubles the table. While the slot number fits in the tag's hash bits
// no hash is recomputed, and reading the old slots in order writes the new
// ones almost in order too.
func (t *Table) grow() {
	t.double(64-t.shift+1 <= tagHashBits)
}

// double moves the slots into a table of twice the size, placing each by
// linear probing from its hash: the tag's hash bits if fromTag, else the
// term's hash recomputed.
func (t *Table) double(fromTag bool) {
	t.shift--
	slots := WrittenSlots[slot](2 * len(t.slots))
	mask := len(slots) - 1
	for _, sl := range t.slots {
		if sl.tag == 0 {
			continue
		}
		h := uint64(sl.tag) << 32
		if !fromTag {
			h, _ = t.hash(t.Term(sl.id))
		}
		i := int(h >> t.shift)
		for slots[i].tag != 0 {
			i = (i + 1) & mask
		}
		slots[i] = sl
	}
	t.slots = slots
}

// WrittenSlots returns n zero slots whose memory has been written. A large
// allocation comes from the OS untouched, and a table probes (reads) a slot
// before it fills it: every page would fault twice, the second time, a
// copy-on-write of the zero page, with a TLB flush on every core. Writing
// the zeros first faults each page once.
func WrittenSlots[S any](n int) []S {
	s := make([]S, n)
	clear(s)
	return s
}

// Len returns the number of terms.
func (t *Packed) Len() int { return len(t.Ends) }

// Term returns term id as a view of the bytes.
func (t *Packed) Term(id int32) string {
	start := 0
	if id > 0 {
		start = t.Ends[id-1]
	}
	if start == t.Ends[id] {
		return ""
	}
	return unsafe.String(&t.Bytes[start], t.Ends[id]-start)
}

// TermLen returns the length of term id.
func (t *Packed) TermLen(id int32) int {
	if id == 0 {
		return t.Ends[0]
	}
	return t.Ends[id] - t.Ends[id-1]
}

// Strings returns all terms in id order.
func (t *Packed) Strings() []string {
	out := make([]string, len(t.Ends))
	for id := range out {
		out[id] = t.Term(int32(id))
	}
	return out
}

// hash returns the hash of s and its slot key (see slot): for at most 8
// bytes a word that with len(s) determines s, found by overlapping loads
// rather than byte loops; for more, the hash's low bits, to which insert
// adds the offset.
func (t *Table) hash(s string) (h, key uint64) {
	switch n := len(s); {
	case n > maxInline:
		h = maphash.String(t.seed, s)
		return h, h << offBits
	case n >= 8:
		key = le64(s, 0)
	case n >= 4:
		key = uint64(le32(s, 0)) | uint64(le32(s, n-4))<<32
	case n > 0:
		key = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return Mix64(key ^ t.mixSeed + uint64(len(s))), key
}

func le64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// Mix64 is murmur3's 64-bit finalizer.
func Mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// reserve returns s with room for n more elements. It doubles the capacity
// when it must grow: append grows large slices by only 1.25×, which would
// copy a big table's slices far more often and feed the garbage collector.
func reserve[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	return slices.Grow(s, max(n, cap(s)))
}
