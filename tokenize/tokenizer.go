package tokenize

import (
	"unicode"
	"unicode/utf8"

	"github.com/textnb/textnb/internal/enum"
)

// script is the kind of a token; it picks the length and stop word rules.
type script uint8

// The scripts tokens are told apart by.
const (
	// scriptLatin words hold Latin letters, digits, marks and underscores.
	scriptLatin script = iota
	// scriptHan tokens are runs of Han characters, not yet segmented.
	scriptHan
	// scriptOther words hold letters of any other script (kana, Hangul,
	// Cyrillic, Arabic, …), possibly mixed with Latin letters and digits.
	scriptOther
)

var scriptNames = [...]string{"latin", "han", "other"}

func (s script) String() string { return enum.String(scriptNames[:], int(s)) }

// token is a span of text: a word, or a run of Han characters.
type token struct {
	Start, End int // byte offsets: the token is text[Start:End]
	Script     script
}

// Text is split into words of letters, digits, marks and underscores, then
// runs of Han characters are cut out of words, since Chinese needs its own
// treatment. A connector (. ' ’ @ -) between two word characters joins
// them, unless Config.SplitCompounds is set: then text is split like
// scikit-learn's \b\w+\b. Everything else separates tokens, including
// invalid UTF-8 bytes.

// rune classes, from the point of view of word building.
const (
	sepRune     = iota // separates tokens
	latinRune          // Latin letter
	neutralRune        // digit, mark or underscore: joins any word
	otherRune          // letter of another script (not Han)
	hanRune
)

// asciiClass classifies the ASCII bytes: \w is [A-Za-z0-9_].
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = neutralRune
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = latinRune, latinRune
	}
	t['_'] = neutralRune
	return t
}()

func classify(r rune) uint8 {
	switch {
	case r < utf8.RuneSelf:
		return asciiClass[r]
	case isHan(r):
		return hanRune
	case unicode.IsLetter(r):
		if unicode.Is(unicode.Latin, r) {
			return latinRune
		}
		return otherRune
	case unicode.IsNumber(r), unicode.IsMark(r):
		return neutralRune
	}
	return sepRune // includes utf8.RuneError from invalid bytes
}

// isHan checks the main CJK block before the full table.
func isHan(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x2E80 && unicode.Is(unicode.Han, r))
}

// decode returns the class and size of the rune at text[i].
func decode(text string, i int) (class uint8, size int) {
	if c := text[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	return classify(r), size
}

// nextToken returns the first token of text at or after i, if any; join
// says whether connectors join words.
func nextToken(text string, i int, join bool) (token, bool) {
	for i < len(text) {
		class, size := decode(text, i)
		switch class {
		case sepRune:
			i += size
		case hanRune:
			return token{Start: i, End: scanHan(text, i+size), Script: scriptHan}, true
		default:
			j, s := scanWord(text, i, join)
			return token{Start: i, End: j, Script: s}, true
		}
	}
	return token{}, false
}

// scanHan returns the end of the Han run that continues at i.
func scanHan(text string, i int) int {
	for i < len(text) {
		class, size := decode(text, i)
		if class != hanRune {
			break
		}
		i += size
	}
	return i
}

// scanWord returns the end and script of the word that starts at i.
func scanWord(text string, i int, join bool) (int, script) {
	s := scriptLatin
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf { // fast path: most words are ASCII
			if asciiClass[c] == sepRune {
				if join && isConnector[c] && wordAt(text, i+1) {
					i++
					continue
				}
				break
			}
			i++
			continue
		}
		class, size := decode(text, i)
		if join && class == sepRune && text[i:i+size] == "’" && wordAt(text, i+size) {
			i += size
			continue
		}
		if class == sepRune || class == hanRune {
			break
		}
		if class == otherRune {
			s = scriptOther
		}
		i += size
	}
	return i, s
}

// isConnector marks the ASCII characters that join two word characters
// into one word: e-mail addresses, host names, numbers, contractions.
var isConnector = [utf8.RuneSelf]bool{'.': true, '\'': true, '@': true, '-': true}

// wordAt reports whether a word character (not Han) starts at text[i].
func wordAt(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	class, _ := decode(text, i)
	return class != sepRune && class != hanRune
}
