package tokenize

import "github.com/textnb/textnb/internal/tokencore"

// The engines reach a Worker, Cut and the language detector through
// tokencore.
func init() {
	tokencore.Register(tokencore.Core[*Analyzer, Lang]{
		NewWorker:       func(a *Analyzer) tokencore.Worker { return a.newWorker() },
		Cut:             cut,
		NewLangDetector: func() tokencore.LangDetector[Lang] { return new(langDetector) },
	})
}

// A worker is a tokencore.Worker: it analyzes text as its Analyzer does,
// for one goroutine at a time, with scratch space and, with stemming, a
// memory of words of its own (see tokencore.Worker).
type worker struct {
	a  *Analyzer
	st state
}

// newWorker returns a worker for a.
func (a *Analyzer) newWorker() *worker {
	return &worker{a: a, st: state{seen: seenWords{limit: maxSeen}}}
}

// Terms is Analyzer.Terms.
func (w *worker) Terms(dst []string, text string) []string {
	a, st := w.a, &w.st
	start := len(dst)
	dst = a.unigrams(dst, st, text)
	dst = a.ngrams(dst, start, st)
	st.reset()
	return dst
}

// Words is tokencore.Worker.Words.
func (w *worker) Words(words, extra []string, text string) ([]string, []string) {
	a, st := w.a, &w.st
	words = a.unigrams(words, st, text)
	for _, run := range st.runs {
		a.charGrams(&st.grams, st, run)
	}
	extra = st.grams.appendTo(extra)
	st.reset()
	return words, extra
}
