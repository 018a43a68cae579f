// Package tokencore lends the engines built on tokenize (pipeline, shard,
// internal/serve) the parts of its machinery that its users do not need: a
// Worker per goroutine, which remembers the words it has seen, the words
// that word n-grams are formed from, where to cut a long text, and the
// language detector that resolves Lang Auto.
//
// tokenize registers a Core when it is initialized. Since this package
// cannot import tokenize, Core's type parameters stand for
// *tokenize.Analyzer and tokenize.Lang; a package that imports tokenize
// gets its Core with Get.
package tokencore

// A Worker analyzes text as its Analyzer does, for one goroutine at a
// time. It keeps its own scratch space and, with stemming, the term of
// every word it has seen (up to 65,536 words, about 5 MB), in a table no
// other goroutine touches, in front of the cache its Analyzer shares: a
// repeated word then costs one probe of that table instead of a look-up in
// shared memory. A goroutine that analyzes many documents keeps one; the
// Analyzer's own methods borrow one from a pool, which the garbage
// collector empties, whose workers remember fewer words.
type Worker interface {
	// Terms is Analyzer.Terms.
	Terms(dst []string, text string) []string
	// Words appends to words the terms that word n-grams are formed from,
	// in order, and to extra the character n-grams of the Han runs: Terms
	// is the word n-grams of words followed by extra. A vectorizer that
	// forms n-grams itself (internal/vocab's Builder.AddWords) is spared
	// building their strings. Words are views of text (or of lowercased
	// copies of its stretches) or, with stemming, shared cached strings;
	// the extra terms of one call share one allocation.
	Words(words, extra []string, text string) ([]string, []string)
}

// A LangDetector decides the language of a corpus from its letters: feed
// it a sample of documents with Add, then ask Lang. Lang returns Chinese
// when Han characters make up at least a third of the letters seen, else
// English; never Auto. A Han character carries about as much as a short
// English word, so Chinese text that quotes English names and code still
// counts as Chinese. A detector is not safe for concurrent use.
type LangDetector[L any] interface {
	Add(text string)
	Lang() L
}

// Core is what tokenize lends; A is its *Analyzer and L its Lang.
type Core[A, L any] struct {
	// NewWorker returns a Worker for a.
	NewWorker func(a A) Worker
	// Cut returns where to end the first piece of text when a long
	// document is analyzed in pieces: the words of text are those of
	// text[:i] followed by those of text[i:], and so are its Han runs and
	// their character n-grams, for any Config. The piece ends just before
	// a separator that no token spans and that NFKC does not join to what
	// comes before it (white space, most ASCII punctuation, '。', '，' and
	// the like): the last such one at or before size bytes, if there is
	// one in the second half, else the first after. Cut returns len(text)
	// if text is no longer than size or has no such separator after the
	// first byte.
	Cut func(text string, size int) int
	// NewLangDetector returns a detector that has seen no text.
	NewLangDetector func() LangDetector[L]
}

var core any

// Register records tokenize's Core; tokenize calls it once, when it is
// initialized.
func Register[A, L any](c Core[A, L]) { core = c }

// Get returns the Core tokenize registered. It panics if A and L are not
// *tokenize.Analyzer and tokenize.Lang.
func Get[A, L any]() Core[A, L] { return core.(Core[A, L]) }
