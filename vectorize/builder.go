package vectorize

import (
	"iter"

	"github.com/textnb/textnb/internal/vocab"
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

// FitVocab learns a vocabulary from docs, each document given as its
// terms (repeated terms are summed), in one pass that keeps only the rows
// and the term→id map, never the documents' term slices. It prunes the
// terms by cfg and returns the Vocabulary, numbered in sorted term order,
// with the document-term matrix: scikit-learn's
// CountVectorizer.fit_transform.
func FitVocab(cfg VocabConfig, docs iter.Seq[[]string]) (*Vocabulary, *CSR, error) {
	var b vocab.Builder
	for terms := range docs {
		b.Add(terms)
	}
	v, X, err := vocab.Finish(vocab.Config(cfg), &b)
	return (*Vocabulary)(v), (*CSR)(X), err
}
