package vocab

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/termtab"
)

// Config prunes a learned vocabulary like scikit-learn's
// CountVectorizer. The zero value keeps every term and counts occurrences.
type Config struct {
	// MinDF drops terms found in fewer documents; 0 means 1.
	MinDF int
	// MaxDF drops terms found in more than MaxDF × documents; it is a
	// fraction in (0, 1] and 0 means 1.0.
	MaxDF float64
	// MaxFeatures keeps only the terms with the largest total count (ties
	// go to the term sorting first); 0 keeps all.
	MaxFeatures int
	// Binary records presence (1) instead of counts. As in scikit-learn it
	// applies before MaxFeatures, which then ranks terms by document
	// frequency.
	Binary bool
}

// limits reports whether MaxFeatures drops some of n kept terms.
func (c Config) limits(n int) bool { return c.MaxFeatures > 0 && n > c.MaxFeatures }

func (c Config) validate() error {
	if c.MinDF < 0 || c.MaxFeatures < 0 || !(c.MaxDF >= 0 && c.MaxDF <= 1) {
		return fmt.Errorf("%w: min_df %d, max_df %g, max_features %d (want min_df ≥ 0, 0 ≤ max_df ≤ 1, max_features ≥ 0)",
			ErrConfig, c.MinDF, c.MaxDF, c.MaxFeatures)
	}
	return nil
}

// A Builder collects documents into sparse rows under provisional
// column ids (first-seen order). It keeps only the rows and the term→id map,
// never the documents' term slices. The zero value is ready to use; a
// builder is not safe for concurrent use: run one per worker over a
// contiguous shard of documents and pass them, in document order, to
// Finish.
type Builder struct {
	g     gramTable
	cur   []int32 // per node: its count in the document being added, else 0
	nodes []int32 // scratch: the word nodes of the document being added
	rows  rowStore
	open  []uint64 // the page the open row goes in
	// id names the builder's current term tables (0: not named yet), so
	// that a WordCoder can tell its map to them from one to tables since
	// emptied (by Consume or by assigning a zero Builder).
	id uint64
}

// rowStore holds rows of (node<<32 | count) entries in pages that are never
// copied and never split a row: a doubling slice would copy everything at
// each growth and leave up to half its capacity unused.
type rowStore struct {
	pages [][]uint64
	rows  []rowRef // the rows in memory, after the spilled ones
	spill *spilled // nil: every row is in memory
}

type rowRef struct{ page, lo, hi int32 }

const rowPage = 1 << 16

func (s *rowStore) row(r int) []uint64 {
	ref := s.rows[r-s.spilledRows()]
	return s.pages[ref.page][ref.lo:ref.hi]
}

// tablesIDs numbers term tables across all builders.
var tablesIDs atomic.Uint64

// tablesID returns the id of b's current term tables.
func (b *Builder) tablesID() uint64 {
	if b.id == 0 {
		b.id = tablesIDs.Add(1)
	}
	return b.id
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder {
	return &Builder{}
}

// Add appends one document given as its terms. Repeated terms are summed;
// provisional rows are left unsorted because Finish renumbers and
// sorts them anyway.
func (b *Builder) Add(terms []string) {
	start := b.begin(len(terms))
	for _, t := range terms {
		b.count(b.g.term(t))
	}
	b.end(start)
}

// AddWords appends one document given as its words, from which it counts
// the n-grams of the lengths in r, and extra terms counted as they are.
// It counts the same terms as Add of the joined n-grams and extra, without
// building the n-gram strings.
func (b *Builder) AddWords(words []string, r ngrams.Range, extra []string) {
	lo, hi := r.Bounds()
	start := b.begin(len(words)*(hi-lo+1) + len(extra))
	b.nodes = b.nodes[:0]
	for _, w := range words {
		b.nodes = append(b.nodes, b.g.term(w))
	}
	for i, node := range b.nodes {
		for n := 1; n <= hi && i+n <= len(b.nodes); n++ {
			if n > 1 {
				node = b.g.extend(node, b.nodes[i+n-1])
			}
			if n >= lo {
				b.count(node)
			}
		}
	}
	for _, t := range extra {
		b.count(b.g.term(t))
	}
	b.end(start)
}

// begin opens a row of up to n entries and returns where it starts.
// It reserves n, the most the row can hold, so that the row never outgrows
// its page (appending past it would copy the page); a page that is left for
// a new one may then be mostly empty, and is trimmed.
func (b *Builder) begin(n int) int {
	p := b.rows.pages
	if len(p) == 0 || cap(p[len(p)-1])-len(p[len(p)-1]) < n {
		if k := len(p) - 1; k >= 0 && 4*len(p[k]) < 3*cap(p[k]) {
			p[k] = slices.Clone(p[k])
		}
		b.rows.pages = append(p, make([]uint64, 0, max(rowPage, n)))
	}
	b.open = b.rows.pages[len(b.rows.pages)-1]
	return len(b.open)
}

func (b *Builder) count(node int32) { b.countN(node, 1) }

// countN adds n occurrences of node to the open row.
func (b *Builder) countN(node, n int32) {
	if int(node) >= len(b.cur) {
		b.grow()
	}
	if b.cur[node] == 0 {
		b.open = append(b.open, uint64(node)<<32)
	}
	b.cur[node] += n
}

// grow extends the per-node arrays to every node of the table.
func (b *Builder) grow() {
	n := b.g.len()
	b.cur = append(b.cur, make([]int32, n-len(b.cur))...)
}

// end closes the row that begin opened at start.
func (b *Builder) end(start int) {
	row := b.open[start:]
	for k, e := range row {
		node := int32(e >> 32)
		row[k] |= uint64(uint32(b.cur[node]))
		b.cur[node] = 0
	}
	b.close(start)
}

// close records the row that begin opened at start, its entries complete.
func (b *Builder) close(start int) {
	b.rows.pages[len(b.rows.pages)-1] = b.open
	b.rows.rows = append(b.rows.rows, rowRef{int32(len(b.rows.pages) - 1), int32(start), int32(len(b.open))})
	if b.rows.spill != nil && len(b.rows.pages)*rowPage*8 > b.rows.spill.limit {
		b.spillRows()
	}
}

// EndInput frees what only adding documents needs, the table of the
// word pairs seen, which may be a tenth of the builder's memory; b takes
// no documents afterwards, and adding one panics.
func (b *Builder) EndInput() { b.g.pairs = pairTable{ended: true} }

// Rows returns the number of documents added.
func (b *Builder) Rows() int { return b.rows.spilledRows() + len(b.rows.rows) }

// Len returns the number of distinct terms seen. It counts them: O(entries).
func (b *Builder) Len() int {
	df, _ := b.termCounts(true, false)
	n := 0
	for _, d := range df {
		if d > 0 {
			n++
		}
	}
	return n
}

// termCounts returns, as asked, each provisional term's document
// frequency and its total count (nil when not asked for).
func (b *Builder) termCounts(withDF, withTotals bool) (df, tf []int64) {
	if withDF {
		df = make([]int64, b.g.len())
	}
	if withTotals {
		tf = make([]int64, b.g.len())
	}
	b.spilledCounts(df, tf)
	for _, page := range b.rows.pages {
		for _, e := range page {
			if withDF {
				df[e>>32]++
			}
			if withTotals {
				tf[e>>32] += int64(uint32(e))
			}
		}
	}
	return df, tf
}

// Counts is the merge of several builders' documents (in shard order)
// before pruning: the distinct terms with their document frequencies and
// total counts. Finish may be called several times, with different
// configurations; the shards must not change meanwhile.
type Counts struct {
	u      *union
	shards []*Builder
}

// Merge merges the shards, which it only reads, in document order.
func Merge(shards ...*Builder) (*Counts, error) {
	if i := slices.Index(shards, nil); i >= 0 {
		return nil, fmt.Errorf("%w: shard %d is nil", ErrConfig, i)
	}
	return &Counts{u: unite(shards), shards: slices.Clone(shards)}, nil
}

// Len returns the number of distinct terms.
func (c *Counts) Len() int { return c.u.distinct }

// Rows returns the number of documents.
func (c *Counts) Rows() int { return c.u.rows }

// Entries returns the number of non-zero entries of the documents' rows:
// the sum of the terms' document frequencies.
func (c *Counts) Entries() int64 {
	var n int64
	for _, v := range c.u.df {
		n += v
	}
	return n
}

// MinDFFor returns the smallest MinDF (at least 1) that leaves at most
// maxCols columns given MaxFeatures maxFeatures (0: unlimited); maxCols ≤ 0
// means no limit.
func (c *Counts) MinDFFor(maxCols, maxFeatures int) int {
	return MinDFFor(c.u.df, c.u.rows, maxCols, maxFeatures)
}

// MinDFFor is Counts.MinDFFor for terms of document frequencies df
// (those of 0 are not terms) in rows documents. It takes memory in
// proportion to df, not to rows (merged TermStats may count far more
// documents than terms).
func MinDFFor(df []int64, rows, maxCols, maxFeatures int) int {
	if maxCols <= 0 || (maxFeatures > 0 && maxFeatures <= maxCols) {
		return 1
	}
	terms, top := 0, int64(0)
	for _, d := range df {
		if d > 0 {
			terms, top = terms+1, max(top, d)
		}
	}
	if terms <= maxCols {
		return 1
	}
	// The cut is just above the (maxCols+1)th largest frequency, found
	// with a histogram of the frequencies if it is no longer than df, else
	// by sorting them.
	if top > int64(len(df)) {
		ds := make([]int64, 0, terms)
		for _, d := range df {
			if d > 0 {
				ds = append(ds, d)
			}
		}
		slices.Sort(ds)
		return int(ds[len(ds)-1-maxCols]) + 1
	}
	hist := make([]int, top+1)
	for _, d := range df {
		hist[d]++
	}
	kept := 0
	for m := int(top); m >= 1; m-- {
		if kept+hist[m] > maxCols {
			return m + 1
		}
		kept += hist[m]
	}
	return 1
}

// Finish merges the shards, in document order, into one vocabulary
// whose ids follow sorted term order, prunes it by cfg and returns it with
// the document-term matrix. The shards are only read.
func Finish(cfg Config, shards ...*Builder) (*Vocabulary, *sparse.CSR, error) {
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	c, err := Merge(shards...)
	if err != nil {
		return nil, nil, err
	}
	return c.Finish(cfg)
}

// Finish prunes the merged vocabulary by cfg and returns it, with ids in
// sorted term order, and the document-term matrix.
func (c *Counts) Finish(cfg Config) (*Vocabulary, *sparse.CSR, error) {
	return c.finish(cfg, false)
}

// Consume is Finish for the last use of the builders: it empties them
// (and c) as it goes, freeing their term tables before it builds the
// matrix, so that memory peaks lower.
func (c *Counts) Consume(cfg Config) (*Vocabulary, *sparse.CSR, error) {
	return c.finish(cfg, true)
}

func (c *Counts) finish(cfg Config, consume bool) (*Vocabulary, *sparse.CSR, error) {
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	if err := rowsInMemory(c.shards); err != nil {
		return nil, nil, err
	}
	u := c.u
	keep, err := u.kept(cfg)
	if err != nil {
		return nil, nil, err
	}
	keep = u.limit(keep, cfg)
	terms := u.termsOf(keep)
	if consume {
		releaseTables(c.shards, u)
	}
	if !u.sorted { // union ids do not follow term order
		pos := sortByTerm(terms)
		keep, terms = permute(keep, pos), permute(terms, pos)
	}
	final := make([]int32, len(u.df))
	for g := range final {
		final[g] = -1
	}
	for i, g := range keep {
		final[g] = int32(i)
	}
	if consume {
		*u = union{rows: u.rows, local: u.local}
	}
	X := u.matrix(c.shards, final, len(keep), cfg.Binary)
	if consume {
		for _, b := range c.shards {
			b.rows, b.open = rowStore{}, nil
		}
		c.u, c.shards = &union{}, nil
	}
	return packTerms(terms), X, nil
}

// releaseTables drops the shards' term tables, which only the terms of
// the kept ids need, and collects them: they are most of the memory, and
// what is built next (the matrix, or the class sums) would otherwise add
// to it instead of reusing it.
func releaseTables(shards []*Builder, u *union) {
	for _, b := range shards {
		b.g, b.cur, b.nodes, b.id = gramTable{}, nil, nil, 0
	}
	u.terms, u.one = nil, nil
	runtime.GC()
}

// union is the union of the shards' terms. With one shard its ids are the
// provisional ids; with several they follow sorted term order.
type union struct {
	rows     int
	distinct int       // union ids with df > 0 (others are only n-gram prefixes)
	terms    []string  // per union id, views of the blocks the shards' terms were spelled into; nil with one shard
	one      *Builder  // the one shard
	sorted   bool      // union ids follow term order
	df, tf   []int64   // per union id
	local    [][]int32 // per shard: provisional id → union id; nil: the same
}

// termsOf returns the terms of union ids.
func (u *union) termsOf(ids []int32) []string {
	if u.terms == nil {
		t := u.one.g.terms(ids)
		return t.Strings()
	}
	out := make([]string, len(ids))
	for i, g := range ids {
		out[i] = u.terms[g]
	}
	return out
}

// packedTermsOf returns the terms of union ids in one new block.
func (u *union) packedTermsOf(ids []int32) termtab.Packed {
	if u.terms == nil {
		return u.one.g.terms(ids) // spelled straight into the block
	}
	return packStrings(u.termsOf(ids))
}

func unite(shards []*Builder) *union {
	u := &union{local: make([][]int32, len(shards))}
	for _, s := range shards {
		u.rows += s.Rows()
	}
	if len(shards) == 1 {
		u.one = shards[0]
		u.df, _ = shards[0].termCounts(true, false) // totals only if MaxFeatures asks
	} else {
		sh := make([]shardTerms, len(shards))
		parallel.For(len(shards), 0, func(k int) { sh[k].load(shards[k]) })
		u.merge(sh)
	}
	for _, d := range u.df {
		if d > 0 {
			u.distinct++
		}
	}
	return u
}

// shardTerms is one shard's terms in sorted order, for merging.
type shardTerms struct {
	nodes  int       // the shard's provisional ids
	keys   []sortKey // in term order
	terms  []string  // in term order
	df, tf []int64   // in term order
	union  []int32   // in term order: the union id
	pos    int       // merge position
}

// load takes the shard's terms: its nodes found in documents, not those
// that are only the prefixes of longer n-grams.
func (s *shardTerms) load(b *Builder) {
	df, tf := b.termCounts(true, true)
	s.nodes = len(df)
	var ids []int32
	for id, d := range df {
		if d > 0 {
			ids = append(ids, int32(id))
		}
	}
	packed := b.g.terms(ids)
	spelled := packed.Strings()
	s.keys = sortKeys(spelled) // ids of the keys: positions in spelled
	s.terms = make([]string, len(ids))
	s.df, s.tf = make([]int64, len(ids)), make([]int64, len(ids))
	for i, k := range s.keys {
		id := ids[k.id]
		s.terms[i], s.df[i], s.tf[i] = spelled[k.id], df[id], tf[id]
		s.keys[i].id = id // the node, which merge reads
	}
	s.union = make([]int32, len(ids))
}

// compare orders the next terms of two shards; a shard with no terms left
// sorts last.
func (s *shardTerms) compare(t *shardTerms) int {
	switch {
	case s.pos == len(s.keys):
		return 1
	case t.pos == len(t.keys):
		return -1
	}
	if c, tie := comparePrefix(&s.keys[s.pos], &t.keys[t.pos]); !tie {
		return c
	}
	return strings.Compare(s.terms[s.pos], t.terms[t.pos])
}

// merge walks the sorted shards together, giving equal terms one union id.
func (u *union) merge(sh []shardTerms) {
	total := 0
	for k := range sh {
		total += len(sh[k].keys)
	}
	u.sorted = true
	u.terms = make([]string, 0, total)
	u.df, u.tf = make([]int64, 0, total), make([]int64, 0, total)
	same := make([]int, 0, len(sh)) // the shards whose next term is the smallest
	for len(sh) > 0 {
		same = append(same[:0], 0)
		for k := 1; k < len(sh); k++ {
			switch c := sh[k].compare(&sh[same[0]]); {
			case c < 0:
				same = append(same[:0], k)
			case c == 0:
				same = append(same, k)
			}
		}
		if b := &sh[same[0]]; b.pos == len(b.keys) {
			break
		}
		g := int32(len(u.terms))
		var df, tf int64
		for _, k := range same {
			s := &sh[k]
			s.union[s.pos] = g
			df += s.df[s.pos]
			tf += s.tf[s.pos]
			s.pos++
		}
		u.terms = append(u.terms, sh[same[0]].terms[sh[same[0]].pos-1])
		u.df = append(u.df, df)
		u.tf = append(u.tf, tf)
	}
	parallel.For(len(sh), 0, func(k int) {
		u.local[k] = make([]int32, sh[k].nodes)
		for i := range u.local[k] {
			u.local[k][i] = -1 // a prefix, in no row
		}
		for i, key := range sh[k].keys {
			u.local[k][key.id] = sh[k].union[i]
		}
	})
}

// kept returns the union ids whose document frequency cfg keeps
// (MaxFeatures aside), increasing.
func (u *union) kept(cfg Config) ([]int32, error) {
	if u.distinct == 0 {
		return nil, fmt.Errorf("%w: no terms in %d documents", ErrEmptyVocabulary, u.rows)
	}
	maxDF := cfg.MaxDF
	if maxDF == 0 {
		maxDF = 1
	}
	minCount := max(cfg.MinDF, 1)
	maxCount := maxDF * float64(u.rows)
	if maxCount < float64(minCount) {
		return nil, fmt.Errorf("%w: max_df %g is %g of %d documents, fewer than min_df %d",
			ErrConfig, maxDF, maxCount, u.rows, minCount)
	}
	// For an integer df, df ≤ maxCount is df ≤ ⌊maxCount⌋ ≥ minCount
	// (checked above), so minCount ≤ df ≤ ⌊maxCount⌋ is one unsigned
	// comparison, and the loops below take no branch on df.
	lo, span := int64(minCount), uint64(int64(math.Floor(maxCount))-int64(minCount))
	kept := func(df int64) bool { return uint64(df-lo) <= span }
	n := 0
	for _, df := range u.df {
		if kept(df) {
			n++
		}
	}
	if n == 0 {
		return nil, u.nothingKept(minCount, maxDF, maxCount)
	}
	keep, k := make([]int32, n+1), 0 // keep[n] takes the ids after the last kept one
	for g, df := range u.df {
		keep[k] = int32(g)
		if kept(df) {
			k++
		}
	}
	return keep[:n:n], nil
}

// nothingKept explains why no term has a document frequency from minCount
// to maxCount.
func (u *union) nothingKept(minCount int, maxDF, maxCount float64) error {
	rare, common := 0, 0
	for _, df := range u.df {
		switch {
		case df == 0: // an n-gram prefix, not a term
		case df < int64(minCount):
			rare++
		default:
			common++
		}
	}
	return fmt.Errorf("%w: after pruning %d terms of %d documents none remain: %d in fewer than min_df %d documents, %d in more than max_df %g (%g documents)",
		ErrEmptyVocabulary, u.distinct, u.rows, rare, minCount, common, maxDF, maxCount)
}

// limit applies MaxFeatures to the kept union ids, which increase: it
// keeps the cfg.MaxFeatures with the largest totals (document frequencies
// with Binary), ties going to the earlier term in sorted order, and returns
// them increasing. Only the terms tied at the cut are spelled and sorted.
// scikit-learn uses numpy's unstable argsort here; term order makes the
// choice deterministic.
func (u *union) limit(keep []int32, cfg Config) []int32 {
	if !cfg.limits(len(keep)) {
		return keep
	}
	total := u.df
	if !cfg.Binary {
		if u.tf == nil {
			_, u.tf = u.one.termCounts(false, true) // unite counted the df
		}
		total = u.tf
	}
	return Largest(keep, total, cfg.MaxFeatures, func(tied []int32) []int32 {
		if u.sorted {
			return tied
		}
		return permute(tied, sortByTerm(u.termsOf(tied))) // union ids do not follow term order
	})
}

// Largest returns the n of ids (increasing, more than n of them) with the
// largest total[id], increasing. Of the ids tied at the cut it takes the
// first after orderTies has put them in order (orderTies may reorder its
// argument in place).
func Largest(ids []int32, total []int64, n int, orderTies func(tied []int32) []int32) []int32 {
	totals := make([]int64, len(ids))
	for i, g := range ids {
		totals[i] = total[g]
	}
	slices.Sort(totals)
	cut := totals[len(totals)-n] // the n-th largest
	var out, tied []int32
	for _, g := range ids {
		switch t := total[g]; {
		case t > cut:
			out = append(out, g)
		case t == cut:
			tied = append(tied, g)
		}
	}
	out = append(out, orderTies(tied)[:n-len(out)]...)
	slices.Sort(out)
	return out
}

func positions(n int) []int32 {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	return pos
}

// permute returns s[pos[0]], s[pos[1]], ….
func permute[T any](s []T, pos []int32) []T {
	out := make([]T, len(pos))
	for i, p := range pos {
		out[i] = s[p]
	}
	return out
}

// matrix renumbers the shards' rows into one CSR matrix, sorting each row.
func (u *union) matrix(shards []*Builder, final []int32, cols int, binary bool) *sparse.CSR {
	tasks := rowTasks(shards)
	maps := make([][]int32, len(shards))
	parallel.For(len(shards), 0, func(k int) {
		if u.local[k] == nil {
			maps[k] = final
			return
		}
		m := make([]int32, len(u.local[k]))
		for id, g := range u.local[k] {
			m[id] = -1
			if g >= 0 {
				m[id] = final[g]
			}
		}
		maps[k] = m
	})
	all := cols == len(final)
	parallel.For(len(tasks), 0, func(i int) { tasks[i].count(shards[tasks[i].shard], maps[tasks[i].shard], all) })
	X := &sparse.CSR{Rows: u.rows, Cols: cols, Indptr: make([]int, u.rows+1)}
	nnz, row := 0, 0
	for i := range tasks {
		tasks[i].off, tasks[i].row = nnz, row
		nnz += tasks[i].nnz
		row += tasks[i].hi - tasks[i].lo
	}
	X.Indices = make([]int32, nnz)
	X.Data = make([]float64, nnz)
	parallel.For(len(tasks), 0, func(i int) { tasks[i].fill(X, shards[tasks[i].shard], maps[tasks[i].shard], binary) })
	return X
}

// rowTask is a contiguous range of one shard's rows.
type rowTask struct {
	shard, lo, hi int
	nnz           int // kept entries
	off, row      int // where they go in the output
}

func rowTasks(shards []*Builder) []rowTask {
	per := max(1, parallel.Workers(0)*4/max(1, len(shards)))
	var tasks []rowTask
	for k, s := range shards {
		n := s.Rows()
		step := max(1, (n+per-1)/per)
		for lo := 0; lo < n; lo += step {
			tasks = append(tasks, rowTask{shard: k, lo: lo, hi: min(n, lo+step)})
		}
	}
	return tasks
}

func (t *rowTask) count(b *Builder, m []int32, all bool) {
	for r := t.lo; r < t.hi; r++ {
		row := b.rows.row(r)
		if all {
			t.nnz += len(row)
			continue
		}
		for _, e := range row {
			if m[e>>32] >= 0 {
				t.nnz++
			}
		}
	}
}

// fill writes the task's rows, packing (column, count) into one uint64 so
// that a plain integer sort orders each row.
func (t *rowTask) fill(X *sparse.CSR, b *Builder, m []int32, binary bool) {
	var keys, tmp []uint64
	off := t.off
	for r := t.lo; r < t.hi; r++ {
		keys = keys[:0]
		for _, e := range b.rows.row(r) {
			if c := m[e>>32]; c >= 0 {
				keys = append(keys, uint64(c)<<32|e&(1<<32-1))
			}
		}
		tmp = slices.Grow(tmp[:0], len(keys))[:len(keys)]
		sparse.RadixSort8(keys, tmp, 32) // the columns are distinct: ignore the counts
		for _, k := range keys {
			X.Indices[off] = int32(k >> 32)
			X.Data[off] = float64(uint32(k))
			if binary {
				X.Data[off] = 1
			}
			off++
		}
		X.Indptr[t.row+r-t.lo+1] = off
	}
}
