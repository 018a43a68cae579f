package tokenize

import (
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/kljensen/snowball/english"
)

// A TokenFilter rewrites one term. It may change term in place or return
// another slice; an empty result drops the term. An Analyzer runs its
// filters about once per distinct word and caches the result, so filters
// may be slow and may allocate.
type TokenFilter interface {
	Filter(term []byte) []byte
}

// LowerCase maps letters to lower case, in place when the lower-case form
// is not longer.
type LowerCase struct{}

// Filter lowercases term.
func (LowerCase) Filter(term []byte) []byte {
	for i, c := range term {
		if c >= utf8.RuneSelf {
			return lowerUnicode(term, i)
		}
		if 'A' <= c && c <= 'Z' {
			term[i] = c + 'a' - 'A'
		}
	}
	return term
}

// lowerUnicode lowercases term[i:] rune by rune. It writes in place until a
// lower-case rune would overwrite bytes not yet read, then copies.
func lowerUnicode(term []byte, i int) []byte {
	out, inPlace := term[:i], true
	for r := i; r < len(term); {
		c, size := utf8.DecodeRune(term[r:])
		if c == utf8.RuneError && size == 1 {
			c = rune(term[r]) // keep a stray byte as it is
		} else {
			c = unicode.ToLower(c)
		}
		r += size
		if inPlace && len(out)+utf8.RuneLen(c) > r {
			out, inPlace = append(make([]byte, 0, len(term)+utf8.UTFMax), out...), false
		}
		if c < utf8.RuneSelf {
			out = append(out, byte(c))
		} else {
			out = utf8.AppendRune(out, c)
		}
	}
	return out
}

// MinLength drops terms shorter than N runes.
type MinLength struct{ N int }

// Filter drops term if it is too short.
func (f MinLength) Filter(term []byte) []byte {
	if len(term) < f.N || utf8.RuneCount(term) < f.N {
		return nil
	}
	return term
}

// StopFilter drops the terms it reports as stop words.
type StopFilter func(word string) bool

// Filter drops term if it is a stop word.
func (f StopFilter) Filter(term []byte) []byte {
	if f(string(term)) {
		return nil
	}
	return term
}

// Stemmer applies the Snowball English stemmer. Snowball lowercases its
// output, so a term with an upper-case letter (left by Config.KeepCase) is
// kept as it is rather than silently lowercased. Snowball's own stop words
// are not stemmed.
type Stemmer struct{}

// Filter stems term.
func (Stemmer) Filter(term []byte) []byte {
	if ownStem(term) || hasUpper(term) { // ownStem's last-byte test rejects most words at once
		return term
	}
	return append(term[:0], english.Stem(string(term), false)...)
}

// ownStem reports an ASCII word that ends in a digit and starts with
// neither an apostrophe nor a space or control byte: Snowball's rules all
// look at a word's last letters (its Y marks are undone, and only curly or
// leading apostrophes and surrounding spaces would be rewritten), so such a
// word is its own stem, and numbers, part numbers and version strings (a
// sixth of 20 Newsgroups' distinct words) skip the stemmer's 2–3 µs.
func ownStem(term []byte) bool {
	n := len(term)
	if n == 0 || term[n-1] < '0' || term[n-1] > '9' || term[0] == '\'' || term[0] <= ' ' {
		return false
	}
	return firstNonASCII(unsafe.String(&term[0], n)) == n
}

func hasUpper(term []byte) bool {
	for i := 0; i < len(term); {
		c := term[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(term[i:])
		if unicode.IsUpper(r) || unicode.IsTitle(r) {
			return true
		}
		i += size
	}
	return false
}
