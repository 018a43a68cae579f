// Package vectorize turns documents, given as term lists produced upstream,
// into sparse count vectors and weights them.
//
// It offers two vectorizers with scikit-learn semantics:
//
//   - a learned vocabulary (CountVectorizer): VocabBuilder collects rows in a
//     single streaming pass, several builders may run in parallel over
//     contiguous shards, and FinishVocab (or MergeVocab, then
//     VocabCounts.Finish or Consume) prunes by document frequency and total
//     count and renumbers the columns in sorted term order. Given a
//     document's words (AddWords, Vocabulary.TransformWords) it forms the
//     word n-grams itself: the builder keys an n-gram by the pair (node of
//     its first n−1 words, node of its last word) and the vocabulary by
//     folded word hashes, so no n-gram string is built except for the terms
//     kept;
//   - the hashing trick (HashingVectorizer): Hashing maps a term to the
//     column |murmurhash3_32(term)| mod Features without any shared state.
//
// Weighting follows scikit-learn's TfidfTransformer (TFIDF) or Rennie et al.
// 2003 (Rennie). Postings is the column-wise view (row ids per column, with
// roaring bitmaps for frequent columns) for document frequencies,
// class-conditional counts and chi² feature selection (Chi2, SelectTopK).
//
// All matrices are CSR values (see CSR). Functions that produce a row append
// to the caller's buffers, so a loop over documents allocates nothing once
// the buffers have grown.
package vectorize

import "errors"

// Sentinel errors; test with errors.Is.
var (
	// ErrEmptyVocabulary reports a vocabulary with no terms left, either
	// because the documents held none or because pruning removed them all.
	ErrEmptyVocabulary = errors.New("vectorize: empty vocabulary")
	// ErrConfig reports an invalid configuration value.
	ErrConfig = errors.New("vectorize: invalid configuration")
	// ErrVocabularyTerms reports a vocabulary term outside the bytes given
	// or repeating another.
	ErrVocabularyTerms = errors.New("vectorize: vocabulary term out of bounds or repeated")
	// ErrNotFitted reports a weighting used before Fit (or without IDF).
	ErrNotFitted = errors.New("vectorize: transform used before fit")
	// ErrLabels reports class labels that do not fit the matrix or the
	// number of classes.
	ErrLabels = errors.New("vectorize: invalid class labels")
	// ErrNegative reports negative values where counts are required.
	ErrNegative = errors.New("vectorize: negative value")
)
