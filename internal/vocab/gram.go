package vocab

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"

	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/termtab"
)

// gramTable interns terms as nodes of a trie: a word (a term without
// spaces) by its bytes, and "w1 … wn" as the pair (node of "w1 … wn-1",
// node of wn). Counting word n-grams thus builds no strings and hashes no
// bytes beyond each word's once; a term's string is rebuilt only for the
// few terms that are kept. Node ids are dense, in first-seen order.
type gramTable struct {
	words    termtab.Table
	wordNode []int32 // word id → node
	pairs    pairTable
	link     links // node → isWord|word id, or prefix node<<32 | last word node
}

// links is an append-only array in pages that are never copied: a slice
// appended to a node at a time would be copied whole each time it grows by
// a quarter, some forty bytes copied per node in all.
type links struct {
	pages []*[linkPage]uint64
	n     int
}

const linkPage = 1 << 16

func (l *links) at(i int32) uint64 {
	if uint(i) >= uint(l.n) { // within the last page, past its end, reads 0
		panic("vectorize: link of a node not added")
	}
	return l.pages[uint32(i)/linkPage][uint32(i)%linkPage]
}

func (l *links) add(v uint64) int32 {
	if l.n%linkPage == 0 {
		l.pages = append(l.pages, new([linkPage]uint64))
	}
	l.pages[l.n/linkPage][l.n%linkPage] = v
	l.n++
	return int32(l.n - 1)
}

const isWord = 1 << 63

// word returns the node of a term without spaces, adding it if it is new.
func (g *gramTable) word(s string) int32 {
	id := g.words.Intern(s)
	if int(id) == len(g.wordNode) {
		g.wordNode = append(g.wordNode, g.link.add(isWord|uint64(id)))
	}
	return g.wordNode[id]
}

// extend returns the node of prefix's term, a space and w's term, adding
// it if it is new. A chain's second node is always a word, so every
// string has one node: a w that is itself a chain (from callers that pass
// "words" holding spaces) is extended by word by word.
func (g *gramTable) extend(prefix, w int32) int32 {
	if g.link.at(w)&isWord == 0 {
		var buf [16]int32
		for _, wn := range g.wordNodes(buf[:0], w) {
			prefix = g.pair(prefix, wn)
		}
		return prefix
	}
	return g.pair(prefix, w)
}

// pair returns the node of the pair (prefix, word node w), adding it.
func (g *gramTable) pair(prefix, w int32) int32 {
	key := uint64(prefix)<<32 | uint64(uint32(w))
	node, found := g.pairs.intern(key, int32(g.link.n))
	if !found {
		g.link.add(key)
	}
	return node
}

// wordNodes appends the word nodes of node's term to dst, first to last.
// It loops rather than recurses: a term may hold millions of words.
func (g *gramTable) wordNodes(dst []int32, node int32) []int32 {
	start := len(dst)
	for {
		l := g.link.at(node)
		if l&isWord != 0 {
			dst = append(dst, node)
			break
		}
		dst = append(dst, int32(uint32(l)))
		node = int32(l >> 32)
	}
	slices.Reverse(dst[start:])
	return dst
}

// term returns the node of any term, splitting it at single spaces.
func (g *gramTable) term(s string) int32 {
	i := strings.IndexByte(s, ' ')
	if i < 0 {
		return g.word(s)
	}
	return g.extendTerm(g.word(s[:i]), s[i+1:])
}

// extendTerm returns the node of prefix's term, a space and s.
func (g *gramTable) extendTerm(prefix int32, s string) int32 {
	for {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return g.extend(prefix, g.word(s))
		}
		prefix, s = g.extend(prefix, g.word(s[:i])), s[i+1:]
	}
}

func (g *gramTable) len() int { return g.link.n }

// appendTerm appends the string of node to dst; nodes is scratch space.
func (g *gramTable) appendTerm(dst []byte, nodes []int32, node int32) ([]byte, []int32) {
	nodes = g.wordNodes(nodes[:0], node)
	for i, wn := range nodes {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, g.words.Term(int32(uint32(g.link.at(wn))))...)
	}
	return dst, nodes
}

// termLen returns the length of node's term, walking its chain from the
// last word back.
func (g *gramTable) termLen(node int32) int {
	n := 0
	for {
		l := g.link.at(node)
		if l&isWord != 0 {
			return n + g.words.TermLen(int32(uint32(l)))
		}
		n += 1 + g.words.TermLen(int32(uint32(g.link.at(int32(uint32(l)))))) // a space and the last word
		node = int32(l >> 32)
	}
}

// terms returns the strings of nodes, packed in one new block of exactly
// their size. Parts of nodes are spelled on every core, each into its own
// stretch of the block, whose offsets a first pass measures.
func (g *gramTable) terms(nodes []int32) termtab.Packed {
	parts := max(1, min(parallel.Workers(0), len(nodes)/termsPart))
	first := func(p int) int { return p * len(nodes) / parts } // part p's first node
	part := func(p int) []int32 { return nodes[first(p):first(p+1)] }
	at := make([]int, parts+1) // where each part's stretch starts
	parallel.For(parts, 0, func(p int) {
		size := 0 // summed apart from at, whose cache line the parts share
		for _, n := range part(p) {
			size += g.termLen(n)
		}
		at[p+1] = size
	})
	for p := range parts {
		at[p+1] += at[p]
	}
	t := termtab.Packed{Bytes: make([]byte, at[parts]), Ends: make([]int, len(nodes))}
	parallel.For(parts, 0, func(p int) {
		var scratch []int32
		dst, i := t.Bytes[at[p]:at[p]:at[p+1]], first(p)
		for _, n := range part(p) {
			dst, scratch = g.appendTerm(dst, scratch, n)
			t.Ends[i] = at[p] + len(dst)
			i++
		}
		if len(dst) != at[p+1]-at[p] { // beyond the stretch, append would have moved dst off the block
			panic("vectorize: terms spelled to other lengths than measured")
		}
	})
	return t
}

// termsPart is the fewest terms worth a goroutine of their own.
const termsPart = 1 << 14

// pairTable maps 64-bit keys to nodes by open addressing (linear probing).
// Its slots hold no pointers, so the garbage collector never scans them.
// Beside the slots, a byte per slot holds 7 bits of its hash (tags): a
// probe reads a slot only where its tag matches. The trie's table of every
// (prefix, word) pair, every n-gram with n ≥ 2, outgrows the caches many
// times over, while its tags (a thirteenth of its size) mostly stay in
// them; most bigrams are new, and their probes then end on an empty tag
// without reading a slot, which insert only writes.
type pairTable struct {
	tags  []uint8 // 0: empty slot; else 0x80 | the hash's low 7 bits
	slots []pairSlot
	shift uint
	n     int
	seed  uint64
	ended bool // released by EndInput: interning would hand out nodes again
}

// pairSlot is 12 bytes, not the 16 of a uint64 key and an int32.
type pairSlot struct {
	hi, lo uint32 // the key
	node   int32
}

func (sl *pairSlot) key() uint64 { return uint64(sl.hi)<<32 | uint64(sl.lo) }

// intern returns the node of key and true, or adds key with node next and
// returns next and false.
func (t *pairTable) intern(key uint64, next int32) (node int32, found bool) {
	if t.slots == nil {
		if t.ended {
			panic("vocab: a document added after Builder.EndInput")
		}
		t.tags, t.slots, t.shift, t.seed = make([]uint8, 1<<10), make([]pairSlot, 1<<10), termtab.ShiftFor(1<<10), rand.Uint64()
	}
	i, tag, found := t.probe(key)
	if found {
		return t.slots[i].node, true
	}
	t.insert(i, tag, key, next)
	return next, false
}

// probe returns the slot of key, or the empty slot where key belongs, with
// the tag of key.
func (t *pairTable) probe(key uint64) (i int, tag uint8, found bool) {
	h := termtab.Mix64(key ^ t.seed)
	mask := len(t.tags) - 1
	tag = tagOf(h)
	hi, lo := uint32(key>>32), uint32(key)
	for i = int(h >> t.shift); ; i = (i + 1) & mask {
		switch t.tags[i] {
		case 0:
			return i, tag, false
		case tag:
			if sl := &t.slots[i]; sl.lo == lo && sl.hi == hi {
				return i, tag, true
			}
		}
	}
}

// insert fills the empty slot i that probe returned for key, with its tag.
func (t *pairTable) insert(i int, tag uint8, key uint64, node int32) {
	t.tags[i] = tag
	t.slots[i] = pairSlot{hi: uint32(key >> 32), lo: uint32(key), node: node}
	if t.n++; 4*t.n > 3*len(t.slots) {
		t.grow()
	}
}

// grow doubles the table. A tag does not depend on the table's size, and
// reading the old slots in order writes the new ones almost in order too.
// The new slots are only written, so unlike the tags they need not be
// cleared first (see termtab.WrittenSlots).
func (t *pairTable) grow() {
	tags, slots := t.tags, t.slots
	size := 2 * len(slots)
	t.shift--
	t.tags, t.slots = termtab.WrittenSlots[uint8](size), make([]pairSlot, size)
	for j, tag := range tags {
		if tag == 0 {
			continue
		}
		i := freeSlot(t.tags, int(termtab.Mix64(slots[j].key()^t.seed)>>t.shift))
		t.tags[i], t.slots[i] = tag, slots[j]
	}
	if len(slots) >= bigPairTable {
		// The collection that the new table's allocation set off counted
		// the old one as live, and set the next at 1.35× (the CLI) or 2×
		// that: collect now, so that the heap's goal follows what is
		// really live instead of growing by the old table's share.
		runtime.GC()
	}
}

// bigPairTable is the number of slots (13 bytes each) from which growing a
// pairTable collects the old one at once.
const bigPairTable = 1 << 23

// freeSlot returns the first slot from i on, wrapping around, whose tag is
// 0 (empty).
func freeSlot(tags []uint8, i int) int {
	for mask := len(tags) - 1; tags[i] != 0; i = (i + 1) & mask {
	}
	return i
}
