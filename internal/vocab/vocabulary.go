package vocab

import (
	"fmt"
	"strings"
	"sync"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/termtab"
)

// A Vocabulary maps unique terms to column ids 0..Len()-1. The vocabularies
// a Builder finishes (Finish, Counts.Finish) number their terms in sorted
// order (byte order, which is code point order, as Python sorts str), as
// scikit-learn's CountVectorizer does; Pruned.Provisional keeps the order
// one builder first saw them in, which spares training a sort. It is
// safe for concurrent use; only GrowWordsFrom changes it.
type Vocabulary struct {
	tab  termtab.Packed
	ix   vocabIndex
	once sync.Once
	err  error // a repeated term, found by the index build
}

// NewVocabulary returns the vocabulary whose term i is terms[i]. The terms
// must be unique, in any order.
func NewVocabulary(terms []string) (*Vocabulary, error) {
	if len(terms) == 0 {
		return nil, fmt.Errorf("%w: no terms", ErrEmptyVocabulary)
	}
	v := packTerms(terms)
	if err := v.Prepare(); err != nil {
		return nil, err
	}
	return v, nil
}

// NewVocabularyPacked returns the vocabulary whose term i is
// blob[ends[i-1]:ends[i]] (ends[-1] taken as 0), without copying blob. It
// is how a model file is read fast: it checks only that every term lies
// within blob, and leaves finding a repeated term to Prepare, whose index
// build meets it anyway.
func NewVocabularyPacked(blob []byte, ends []int) (*Vocabulary, error) {
	if len(ends) == 0 {
		return nil, fmt.Errorf("%w: no terms", ErrEmptyVocabulary)
	}
	lo := 0
	for i, hi := range ends {
		if hi < lo || hi > len(blob) {
			return nil, fmt.Errorf("%w: term %d ends at %d, outside [%d, %d]", ErrVocabularyTerms, i, hi, lo, len(blob))
		}
		lo = hi
	}
	v := &Vocabulary{}
	v.tab.Bytes, v.tab.Ends = blob[:lo:lo], ends
	return v, nil
}

// Prepare builds the look-up index now; otherwise the first look-up does.
// Calling it on another goroutine overlaps that work with other set-up.
// It reports a term that repeats an earlier one (ErrVocabularyTerms), as
// every later call does; look-ups of that term then find the earlier id.
func (v *Vocabulary) Prepare() error {
	v.once.Do(func() { v.err = v.ix.build(&v.tab) })
	return v.err
}

// find returns the id of term t, or −1.
func (v *Vocabulary) find(t string) int32 {
	return v.ix.find(v.ix.termHash(t), len(t))
}

// packTerms copies terms into one pointer-free block, so that the vocabulary
// pins nothing else and the garbage collector need not scan it.
func packTerms(terms []string) *Vocabulary { return &Vocabulary{tab: packStrings(terms)} }

// packStrings copies terms into one block, back to back.
func packStrings(terms []string) termtab.Packed {
	size := 0
	for _, t := range terms {
		size += len(t)
	}
	tab := termtab.Packed{Bytes: make([]byte, 0, size), Ends: make([]int, len(terms))}
	for i, t := range terms {
		tab.Bytes = append(tab.Bytes, t...)
		tab.Ends[i] = len(tab.Bytes)
	}
	return tab
}

// Len returns the number of terms.
func (v *Vocabulary) Len() int { return v.tab.Len() }

// Term returns the term with id, or "" if id is out of range.
func (v *Vocabulary) Term(id int) string {
	if id < 0 || id >= v.tab.Len() {
		return ""
	}
	return v.tab.Term(int32(id))
}

// Packed returns the terms as NewVocabularyPacked takes them: term i is
// blob[ends[i-1]:ends[i]]. The slices are v's own; do not modify them.
func (v *Vocabulary) Packed() (blob []byte, ends []int) { return v.tab.Bytes, v.tab.Ends }

// Terms returns all terms in id order.
func (v *Vocabulary) Terms() []string { return v.tab.Strings() }

// ID returns the id of term.
func (v *Vocabulary) ID(term string) (int32, bool) {
	_ = v.Prepare() // a repeated term is found under its first id
	id := v.find(term)
	return id, id >= 0
}

// Transform appends one document's row to idx and val: the sorted ids of its
// known terms and their counts. Unknown terms are dropped. It uses no shared
// scratch, so concurrent calls are safe.
func (v *Vocabulary) Transform(idx []int32, val []float64, terms []string) ([]int32, []float64) {
	idx, val, _ = v.TransformWords(idx, val, nil, nil, ngrams.Range{}, terms) // terms are TransformWords' extra terms
	return idx, val
}

// TransformWords is Transform of the n-grams of words with lengths in r
// followed by extra (see Builder.AddWords), without building the
// n-gram strings. hashes is scratch space, returned for reuse.
func (v *Vocabulary) TransformWords(idx []int32, val []float64, hashes []uint64, words []string, r ngrams.Range, extra []string) ([]int32, []float64, []uint64) {
	return v.TransformWordsFrom(idx, val, hashes, words, 0, r, extra)
}

// TransformWordsFrom is TransformWords of a piece of a document: only the
// n-grams that end in words[from:] count, words[:from] being the last words
// of the piece before. The rows of a document's pieces, summed, are the
// row of the whole document.
func (v *Vocabulary) TransformWordsFrom(idx []int32, val []float64, hashes []uint64, words []string, from int, r ngrams.Range, extra []string) ([]int32, []float64, []uint64) {
	return v.transformWords(idx, val, hashes, words, from, r, extra, 0, nil)
}

// TransformWordsCounting is TransformWordsFrom, and adds to *missed the
// occurrences of the terms v lacks, which the row leaves out.
func (v *Vocabulary) TransformWordsCounting(idx []int32, val []float64, hashes []uint64, words []string, from int, r ngrams.Range, extra []string, missed *int) ([]int32, []float64, []uint64) {
	return v.transformWords(idx, val, hashes, words, from, r, extra, 0, missed)
}

// GrowWordsFrom is TransformWordsFrom, but a term the vocabulary lacks is
// added to it (with the next id) while it has fewer than limit terms, so
// that learning a document gives its new terms columns. Unlike every other
// method, it changes v: it is not safe for concurrent use with any.
func (v *Vocabulary) GrowWordsFrom(idx []int32, val []float64, hashes []uint64, words []string, from int, r ngrams.Range, extra []string, limit int) ([]int32, []float64, []uint64) {
	return v.transformWords(idx, val, hashes, words, from, r, extra, max(limit, 0), nil)
}

// transformWords is TransformWordsFrom, adding unknown terms while v has
// fewer than limit, and counting the occurrences of the terms left out in
// *missed if missed is not nil.
func (v *Vocabulary) transformWords(idx []int32, val []float64, hashes []uint64, words []string, from int, r ngrams.Range, extra []string, limit int, missed *int) ([]int32, []float64, []uint64) {
	_ = v.Prepare() // as in ID
	lo, hi := r.Bounds()
	start := len(idx)
	miss := 0
	if missed != nil {
		defer func() { *missed += miss }()
	}
	hashes = hashes[:0]
	for _, w := range words {
		if strings.IndexByte(w, ' ') >= 0 { // a "word" that is several: join the n-grams
			for _, t := range ngrams.Join(words, from, lo, hi, extra) {
				if id := v.lookup(t, v.ix.termHash(t), limit); id >= 0 {
					idx = append(idx, id)
				} else {
					miss++
				}
			}
			idx, val = sparse.CountRuns(idx, val, start)
			return idx, val, hashes
		}
		hashes = append(hashes, v.ix.wordHash(w))
	}
	for i, h := range hashes {
		size := len(words[i])
		for n := 1; n <= hi && i+n <= len(hashes); n++ {
			if n > 1 {
				h = fold(h, hashes[i+n-1])
				size += 1 + len(words[i+n-1])
			}
			if n < lo || i+n <= from {
				continue
			}
			id := v.ix.find(h, size)
			if id < 0 && v.Len() < limit {
				id = v.insert(strings.Join(words[i:i+n], " "), h)
			}
			if id >= 0 {
				idx = append(idx, id)
			} else {
				miss++
			}
		}
	}
	for _, t := range extra {
		if id := v.lookup(t, v.ix.termHash(t), limit); id >= 0 {
			idx = append(idx, id)
		} else {
			miss++
		}
	}
	idx, val = sparse.CountRuns(idx, val, start)
	return idx, val, hashes
}

// lookup returns the id of term t of hash h, adding t if v lacks it and
// has fewer than limit terms; −1 if it has none.
func (v *Vocabulary) lookup(t string, h uint64, limit int) int32 {
	id := v.ix.find(h, len(t))
	if id < 0 && v.Len() < limit {
		id = v.insert(t, h)
	}
	return id
}

// insert appends term t, of hash h, which v lacks, and returns its id. The
// index is built anew, twice the size, when it fills: amortized O(1).
func (v *Vocabulary) insert(t string, h uint64) int32 {
	v.tab.Bytes = append(v.tab.Bytes, t...)
	v.tab.Ends = append(v.tab.Ends, len(v.tab.Bytes))
	id := int32(v.tab.Len() - 1)
	if 3*len(v.ix.tags) < 8*v.tab.Len() {
		_ = v.ix.index(&v.tab) // the same seed; every term is distinct: no error
		return id
	}
	v.ix.place(&v.tab, id, h, int(h>>v.ix.shift), -1)
	return id
}

// Select returns the vocabulary of the terms with ids keep, which must be
// strictly increasing, so that new id i is old id keep[i], as
// sparse.CSR.SelectColumns numbers the columns it keeps.
func (v *Vocabulary) Select(keep []int32) (*Vocabulary, error) {
	if err := checkIncreasing(keep, v.Len()); err != nil {
		return nil, err
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%w: no terms selected", ErrEmptyVocabulary)
	}
	terms := make([]string, len(keep))
	for i, id := range keep {
		terms[i] = v.Term(int(id))
	}
	return packTerms(terms), nil
}

// MergeVocabularies returns the sorted union of a and b, whose terms may
// come in any order but must be unique within each (as Prepare checks), and,
// for each, the map from its old ids to the union's ids. When a and b are
// sorted the maps are increasing, so sparse.CSR.RemapColumns keeps rows sorted
// without re-sorting them.
func MergeVocabularies(a, b *Vocabulary) (u *Vocabulary, fromA, fromB []int32) {
	all := append(a.Terms(), b.Terms()...)
	from := make([]int32, len(all)) // a's old ids, then b's
	var order []string
	for _, p := range sortByTerm(all) {
		if n := len(order); n == 0 || order[n-1] != all[p] {
			order = append(order, all[p])
		}
		from[p] = int32(len(order) - 1)
	}
	return packTerms(order), from[:a.Len()], from[a.Len():]
}

// checkIncreasing reports whether ids are strictly increasing and in [0, n).
func checkIncreasing(ids []int32, n int) error {
	prev := int32(-1)
	for i, id := range ids {
		if id <= prev || int(id) >= n {
			return fmt.Errorf("%w: id %d at %d is out of order or not below %d", sparse.ErrShape, id, i, n)
		}
		prev = id
	}
	return nil
}
