package tokenize

// A Worker analyzes text as its Analyzer does, for one goroutine at a
// time. It keeps its own scratch space and, with stemming, the term of
// every word it has seen (up to a bound), in a table no other goroutine
// touches, in front of the cache its Analyzer shares: a repeated word then
// costs one probe of that table instead of a look-up in shared memory, and
// only words new to the worker reach the shared cache. It remembers up to
// 65,536 words (about 5 MB). A goroutine that analyzes many documents
// should keep a Worker; the Analyzer's own methods borrow one from a pool,
// which the garbage collector empties, whose workers remember fewer words.
type Worker struct {
	a  *Analyzer
	st state
}

// NewWorker returns a Worker for a.
func (a *Analyzer) NewWorker() *Worker {
	return &Worker{a: a, st: state{seen: seenWords{limit: maxSeen}}}
}

// Terms is Analyzer.Terms.
func (w *Worker) Terms(dst []string, text string) []string {
	a, st := w.a, &w.st
	start := len(dst)
	dst = a.unigrams(dst, st, text)
	dst = a.ngrams(dst, start, st)
	st.reset()
	return dst
}

// Words appends to words the terms that word n-grams are formed from, in
// order, and to extra the character n-grams of the Han runs: Terms is the
// WordNGrams of words followed by extra. A vectorizer that forms n-grams
// itself (internal/vocab's Builder.AddWords) is spared building their
// strings. Words are views of text (or of lowercased copies of its
// stretches) or, with stemming, shared cached strings; the extra terms of
// one call share one allocation.
func (w *Worker) Words(words, extra []string, text string) ([]string, []string) {
	a, st := w.a, &w.st
	words = a.unigrams(words, st, text)
	for _, run := range st.runs {
		a.charGrams(&st.grams, st, run)
	}
	extra = st.grams.appendTo(extra)
	st.reset()
	return words, extra
}
