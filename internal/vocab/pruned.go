package vocab

import (
	"math/bits"
	"slices"
	"sort"
	"sync"

	"github.com/textnb/textnb/internal/termtab"
)

// Pruned is a merged vocabulary pruned by a Config, before any matrix
// is built: the kept terms under provisional ids (0 to Len()−1, in an order
// of the builders' choosing), their document frequencies, and every
// document's row over them. A caller that only needs to weight and sum the
// rows (as naive Bayes training does) reads them with Row and skips
// building, sorting and re-reading a document-term matrix. It may keep the
// provisional ids (Provisional) and skip sorting the terms too, or sort
// them (Vocabulary) on another goroutine meanwhile.
//
// Row, DF, Provisional and Vocabulary are safe for concurrent use. The
// builders must not change until the last call.
type Pruned struct {
	u      *union
	shards []*Builder
	keep   []int32 // provisional id → union id
	kept   rankSet // union id → provisional id
	df     []int64 // per provisional id
	starts []int   // per shard: its first row
	binary bool
	// sorted: the terms in final order and the provisional → final map,
	// made on the first call of Vocabulary
	sorted func() (*Vocabulary, []int32)
	terms  termtab.Packed // by provisional id if PruneConsume spelled them, else no Ends
}

// Prune applies cfg to the merged vocabulary without building the matrix.
// The shards are only read.
func (c *Counts) Prune(cfg Config) (*Pruned, error) { return c.prune(cfg, false) }

// PruneConsume is Prune for the last use of the builders: it copies the
// kept terms and frees the builders' term tables, most of their memory, at
// once; c is empty afterwards. The builders' rows stay until the Pruned is
// dropped.
func (c *Counts) PruneConsume(cfg Config) (*Pruned, error) { return c.prune(cfg, true) }

func (c *Counts) prune(cfg Config, consume bool) (*Pruned, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	u := c.u
	keep, err := u.kept(cfg)
	if err != nil {
		return nil, err
	}
	keep = u.limit(keep, cfg) // provisional ids follow union ids
	p := &Pruned{u: u, shards: c.shards, binary: cfg.Binary, keep: keep, kept: newRankSet(len(u.df), keep)}
	p.df = make([]int64, len(keep))
	for i, g := range keep {
		p.df[i] = u.df[g]
	}
	row := 0
	for _, b := range c.shards {
		p.starts = append(p.starts, row)
		row += b.Rows()
	}
	if consume {
		// The kept terms are all that is needed of the tables.
		p.terms = u.packedTermsOf(keep)
		releaseTables(p.shards, u)
		u.df, u.tf = nil, nil // p.df has what is needed
		c.u, c.shards = &union{}, nil
	}
	p.sorted = sync.OnceValues(p.sortTerms)
	return p, nil
}

// sortTerms puts the kept terms in sorted order, which the union's ids may
// follow already.
func (p *Pruned) sortTerms() (*Vocabulary, []int32) {
	if p.u.sorted { // provisional ids follow term order
		return p.Provisional(), positions(p.Len())
	}
	var terms []string
	if p.terms.Ends != nil {
		terms = p.terms.Strings()
	} else {
		terms = p.u.termsOf(p.keep)
	}
	final := make([]int32, len(terms))
	for i, q := range sortByTerm(terms) {
		final[q] = int32(i)
	}
	sorted := make([]string, len(terms))
	for q, f := range final {
		sorted[f] = terms[q]
	}
	return packTerms(sorted), final
}

// Len returns the number of kept terms.
func (p *Pruned) Len() int { return len(p.keep) }

// Rows returns the number of documents.
func (p *Pruned) Rows() int { return p.u.rows }

// DF returns the document frequency of each kept term, by provisional id.
// The caller must not modify it.
func (p *Pruned) DF() []int64 { return p.df }

// Row appends document i's kept terms (provisional ids, distinct, in no
// particular order) and their counts (1 if cfg.Binary) to idx and val.
func (p *Pruned) Row(i int, idx []int32, val []float64) ([]int32, []float64) {
	k := sort.SearchInts(p.starts, i+1) - 1
	return p.appendRow(k, p.shards[k].rows.row(i-p.starts[k]), idx, val)
}

// RowCap returns how many entries Row may append for document i: its
// distinct terms, kept or not.
func (p *Pruned) RowCap(i int) int {
	k := sort.SearchInts(p.starts, i+1) - 1
	return len(p.shards[k].rows.row(i - p.starts[k]))
}

// appendRow appends shard k's row of (node<<32 | count) entries.
func (p *Pruned) appendRow(k int, row []uint64, idx []int32, val []float64) ([]int32, []float64) {
	local, kept, binary := p.u.local[k], p.kept, p.binary
	ni, nv := len(idx), len(val)
	idx, val = slices.Grow(idx, len(row))[:ni+len(row)], slices.Grow(val, len(row))[:nv+len(row)]
	for _, e := range row {
		g := int32(e >> 32)
		if local != nil {
			g = local[g]
		}
		id, in := kept.rankOf(g)
		c := float64(uint32(e))
		if binary {
			c = 1
		}
		idx[ni], val[nv] = id, c
		ni, nv = ni+in, nv+in // without a branch: whether a term is kept is not predictable
	}
	return idx[:ni], val[:nv]
}

// Provisional returns the kept terms as a Vocabulary under their
// provisional ids, the ids Row gives: in the order the builder first saw
// them when there is one builder, in sorted order when several were
// merged. A caller that keeps those ids needs neither a sort nor a remap of
// what it computed from the rows. Each call builds a new Vocabulary; where
// pruning spelled the terms (PruneConsume), each shares that one copy,
// which no Vocabulary modifies.
func (p *Pruned) Provisional() *Vocabulary {
	if p.terms.Ends != nil {
		return &Vocabulary{tab: p.terms}
	}
	return &Vocabulary{tab: p.u.packedTermsOf(p.keep)}
}

// Vocabulary returns the kept terms in sorted order, the ids a Vocabulary
// gives them, and final, which maps each provisional id to that id. It
// sorts once; later calls return the same result.
func (p *Pruned) Vocabulary() (v *Vocabulary, final []int32) { return p.sorted() }

// rankSet maps the members of a set of ids below n to their ranks, from a
// bitmap and the ranks at each word: about 1.5 bits per id, so that it
// stays in cache where a table of n int32s would not.
type rankSet struct {
	bits  []uint64
	ranks []int32 // members below each word
}

// newRankSet returns the set of members, which are increasing and below n.
func newRankSet(n int, members []int32) rankSet {
	s := rankSet{bits: make([]uint64, (n+63)/64), ranks: make([]int32, (n+63)/64)}
	for _, m := range members {
		s.bits[m/64] |= 1 << (m % 64)
	}
	r := int32(0)
	for w, b := range s.bits {
		s.ranks[w] = r
		r += int32(bits.OnesCount64(b))
	}
	return s
}

// rankOf returns the number of members below id, and 1 if id is a member,
// else 0.
func (s rankSet) rankOf(id int32) (int32, int) {
	w, b := uint32(id)/64, uint32(id)%64
	word := s.bits[w]
	return s.ranks[w] + int32(bits.OnesCount64(word&(1<<b-1))), int(word >> b & 1)
}
