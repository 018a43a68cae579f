// Package vocab is the learned-vocabulary vectorizer behind package
// vectorize (scikit-learn's CountVectorizer), with the entry points that
// only textnb's own packages need: a Builder collects documents under
// provisional term ids, Merge unites builders run over contiguous shards,
// and a Counts value finishes the vocabulary (Finish, Consume) or prunes it
// without building a matrix (Prune, PruneConsume, giving a Pruned), or
// spells its statistics (TermStats), which merge across corpora.
// A WordCoder codes documents into CodedDoc values on worker goroutines,
// and Builder.AddCoded adds them in order.
//
// vectorize.Vocabulary is defined on Vocabulary, vectorize.FitVocab runs a
// Builder, and vectorize.VocabConfig has the fields of Config, so that
// values convert both ways at no cost.
//
// Functions that produce a row append to the caller's buffers. Scratch
// space passed in (as TransformWords' hashes) is returned for reuse.
package vocab

import "errors"

// Sentinel errors, which package vectorize exports under the same names.
var (
	// ErrEmptyVocabulary reports a vocabulary with no terms left, either
	// because the documents held none or because pruning removed them all.
	ErrEmptyVocabulary = errors.New("vectorize: empty vocabulary")
	// ErrConfig reports an invalid configuration value.
	ErrConfig = errors.New("vectorize: invalid configuration")
	// ErrVocabularyTerms reports a vocabulary term outside the bytes given
	// or repeating another.
	ErrVocabularyTerms = errors.New("vectorize: vocabulary term out of bounds or repeated")
)
