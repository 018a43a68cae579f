package vectorize

import (
	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/tokenize"
)

// VocabConfig prunes a learned vocabulary like scikit-learn's
// CountVectorizer. The zero value keeps every term and counts occurrences.
type VocabConfig struct {
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

// A VocabBuilder collects documents into sparse rows under provisional
// column ids. It keeps only the rows and the term→id map, never the
// documents' term slices. The zero value is ready to use. A builder is not
// safe for concurrent use: run one per worker over a contiguous shard of
// documents and pass them, in document order, to FinishVocab.
type VocabBuilder vocab.Builder

func (b *VocabBuilder) impl() *vocab.Builder { return (*vocab.Builder)(b) }

// Add appends one document given as its terms. Repeated terms are summed.
func (b *VocabBuilder) Add(terms []string) { b.impl().Add(terms) }

// AddWords appends one document given as its words, from which it counts
// the n-grams of the lengths in r (n consecutive words joined by single
// spaces; the zero range means words only), and extra terms counted as
// they are.
// It counts the same terms as Add of the joined n-grams and extra, without
// building the n-gram strings.
func (b *VocabBuilder) AddWords(words []string, r tokenize.NGramRange, extra []string) {
	b.impl().AddWords(words, ngrams.Range(r), extra)
}

// FinishVocab merges the shards, in document order, into one vocabulary
// whose ids follow sorted term order, prunes it by cfg and returns it with
// the document-term matrix. The shards are only read, so FinishVocab may
// be called again with another configuration.
func FinishVocab(cfg VocabConfig, shards ...*VocabBuilder) (*Vocabulary, *CSR, error) {
	bs := make([]*vocab.Builder, len(shards))
	for i, b := range shards {
		bs[i] = b.impl()
	}
	v, X, err := vocab.Finish(vocab.Config(cfg), bs...)
	return (*Vocabulary)(v), (*CSR)(X), err
}
