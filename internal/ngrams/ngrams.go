// Package ngrams is the range of word n-gram lengths that textnb's
// vectorizers form from a document's words. tokenize.NGramRange has the
// fields of Range and converts to it.
package ngrams

import "strings"

// Range is the range of word n-gram lengths formed from a document's
// words, as scikit-learn's ngram_range: an n-gram is n consecutive words
// joined by single spaces. The zero value means words only (1, 1).
type Range struct{ Min, Max int }

// Bounds returns the range with defaults: Min at least 1, Max at least Min.
func (r Range) Bounds() (lo, hi int) {
	lo = max(r.Min, 1)
	return lo, max(r.Max, lo)
}

// Join returns the n-grams of words, n from lo to hi, that end in
// words[from:], then extra.
func Join(words []string, from, lo, hi int, extra []string) []string {
	var out []string
	for n := lo; n <= hi; n++ {
		for i := max(0, from-n+1); i+n <= len(words); i++ {
			out = append(out, strings.Join(words[i:i+n], " "))
		}
	}
	return append(out, extra...)
}
