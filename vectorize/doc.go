// Package vectorize turns documents, given as term lists produced upstream,
// into sparse count vectors and weights them, with scikit-learn's
// semantics.
//
// It offers:
//
//   - a learned vocabulary (CountVectorizer): FitVocab learns it from
//     documents, given as terms, in one streaming pass, prunes the terms by
//     VocabConfig and returns the Vocabulary, numbered in sorted term
//     order, with the document-term matrix. Vocabulary.Transform maps later
//     documents to rows;
//   - the hashing trick (HashingVectorizer): Hashing maps a term to the
//     column |murmurhash3_32(term)| mod Features without any shared state;
//   - weighting: TFIDF is scikit-learn's TfidfTransformer, Rennie the
//     transform of Rennie et al. 2003; NormalizeRow scales a row.
//
// Conventions: matrices are CSR values. Functions that produce a row take
// the caller's buffers first and return them appended to (idx, val), so a
// loop over documents allocates nothing once the buffers have grown.
// Column ids are int32, strictly increasing within a row. Vocabulary,
// Hashing and fitted weightings are safe for concurrent use. Errors wrap
// the sentinels below; test them with errors.Is.
//
// The machinery behind these types, and the entry points only textnb's own
// packages need (builders run in parallel over shards of a corpus, word
// n-grams formed without their strings, fast paths with scratch space in
// their signatures, weights fitted from document frequencies and pruning
// without a matrix, spilling rows to disk, chi² selection), live in
// internal packages.
package vectorize

import (
	"errors"

	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/vocab"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrEmptyVocabulary reports a vocabulary with no terms left, either
	// because the documents held none or because pruning removed them all.
	ErrEmptyVocabulary = vocab.ErrEmptyVocabulary
	// ErrConfig reports an invalid configuration value.
	ErrConfig = vocab.ErrConfig
	// ErrVocabularyTerms reports a vocabulary term repeating another, or
	// outside the bytes given.
	ErrVocabularyTerms = vocab.ErrVocabularyTerms
	// ErrShape reports matrices or vectors whose dimensions do not agree.
	ErrShape = sparse.ErrShape
	// ErrSpill reports rows that could not be written to, or read back
	// from, the temporary file a training run spills them to.
	ErrSpill = vocab.ErrSpill
	// ErrNotFitted reports a weighting used before Fit (or without IDF).
	ErrNotFitted = errors.New("vectorize: transform used before fit")
)
