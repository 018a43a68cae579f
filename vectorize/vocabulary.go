package vectorize

import "github.com/textnb/textnb/internal/vocab"

// A Vocabulary maps unique terms to column ids 0..Len()-1. FitVocab
// numbers them in sorted order (byte order, which is code point order, as
// Python sorts str), as scikit-learn's CountVectorizer does. A Vocabulary
// is immutable and safe for concurrent use.
type Vocabulary vocab.Vocabulary

func (v *Vocabulary) impl() *vocab.Vocabulary { return (*vocab.Vocabulary)(v) }

// Len returns the number of terms.
func (v *Vocabulary) Len() int { return v.impl().Len() }

// Term returns the term with id, or "" if id is out of range.
func (v *Vocabulary) Term(id int) string { return v.impl().Term(id) }

// Terms returns all terms in id order.
func (v *Vocabulary) Terms() []string { return v.impl().Terms() }

// ID returns the id of term.
func (v *Vocabulary) ID(term string) (int32, bool) { return v.impl().ID(term) }

// Transform appends one document's row to idx and val: the sorted ids of its
// known terms and their counts. Unknown terms are dropped. It uses no shared
// scratch, so concurrent calls are safe.
func (v *Vocabulary) Transform(idx []int32, val []float64, terms []string) ([]int32, []float64) {
	return v.impl().Transform(idx, val, terms)
}
