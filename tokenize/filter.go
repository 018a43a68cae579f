package tokenize

import (
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// rules are the length and stop word rules of a script.
type rules struct {
	minLen int                 // in runes
	stop   func(w string) bool // nil for none; for Han it also drops character n-grams
}

// keeps reports whether the rules keep w, a word after lowercasing that is
// runes long: every path to a term goes through it. It inlines into the
// ASCII fast path, where bytes are runes.
func (r *rules) keeps(w string, runes int) bool {
	return runes >= r.minLen && (r.stop == nil || !r.stop(w))
}

// admits reports whether the rules of script s keep w.
func (a *Analyzer) admits(w string, s script) bool {
	r := &a.rules[s]
	runes := len(w) // decides unless w is at least minLen bytes but fewer than one of 4 bytes a rune
	if runes >= r.minLen && runes < 4*r.minLen {
		runes = utf8.RuneCountInString(w)
	}
	return r.keeps(w, runes)
}

// stopped reports whether w is a stop word of script s.
func (a *Analyzer) stopped(w string, s script) bool {
	stop := a.rules[s].stop
	return stop != nil && stop(w)
}

// stem returns the Snowball English stem of w. Snowball lowercases its
// output, so a word with an upper-case letter (left by Config.KeepCase) is
// kept as it is rather than silently lowercased. Snowball's own stop words
// are not stemmed.
func stem(w string) string {
	if ownStem(w) || hasUpper(w) { // ownStem's last-byte test rejects most words at once
		return w
	}
	return english.Stem(w, false)
}

// ownStem reports an ASCII word that ends in a digit and starts with
// neither an apostrophe nor a space or control byte: Snowball's rules all
// look at a word's last letters (its Y marks are undone, and only curly or
// leading apostrophes and surrounding spaces would be rewritten), so such a
// word is its own stem, and numbers, part numbers and version strings (a
// sixth of 20 Newsgroups' distinct words) skip the stemmer's 2–3 µs.
func ownStem(w string) bool {
	n := len(w)
	if n == 0 || w[n-1] < '0' || w[n-1] > '9' || w[0] == '\'' || w[0] <= ' ' {
		return false
	}
	return firstNonASCII(w) == n
}

func hasUpper(w string) bool {
	for i := 0; i < len(w); {
		c := w[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(w[i:])
		if unicode.IsUpper(r) || unicode.IsTitle(r) {
			return true
		}
		i += size
	}
	return false
}
