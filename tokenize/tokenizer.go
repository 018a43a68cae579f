package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// Script is the kind of a token; it picks the filter chain.
type Script uint8

// The scripts a Tokenizer tells apart.
const (
	// Latin words hold Latin letters, digits, marks and underscores.
	Latin Script = iota
	// Han tokens are runs of Han characters, not yet segmented.
	Han
	// Other words hold letters of any other script (kana, Hangul, Cyrillic,
	// Arabic, …), possibly mixed with Latin letters and digits.
	Other
)

var scriptNames = [...]string{"latin", "han", "other"}

func (s Script) String() string { return enumName(scriptNames[:], uint8(s)) }

// Token is a span of text found by a Tokenizer.
type Token struct {
	Start, End int // byte offsets: the token is text[Start:End]
	Script     Script
}

// A Tokenizer splits text into tokens and appends them to dst.
type Tokenizer interface {
	Tokenize(dst []Token, text string) []Token
}

// ScriptTokenizer splits text into words of letters, digits, marks and
// underscores, then cuts runs of Han characters out of words, since Chinese
// needs its own treatment. A connector (. ' ’ @ -) between two word
// characters joins them, unless SplitCompounds is set: then it splits text
// like scikit-learn's \b\w+\b. Everything else separates tokens, including
// invalid UTF-8 bytes.
type ScriptTokenizer struct {
	SplitCompounds bool
}

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

// Tokenize appends the tokens of text to dst. Text should be in NFKC form
// (an Analyzer normalizes it first).
func (t ScriptTokenizer) Tokenize(dst []Token, text string) []Token {
	join := !t.SplitCompounds
	for tok, ok := nextToken(text, 0, join); ok; tok, ok = nextToken(text, tok.End, join) {
		dst = append(dst, tok)
	}
	return dst
}

// nextToken returns the first token of text at or after i, if any; join
// says whether connectors join words.
func nextToken(text string, i int, join bool) (Token, bool) {
	for i < len(text) {
		class, size := decode(text, i)
		switch class {
		case sepRune:
			i += size
		case hanRune:
			return Token{Start: i, End: scanHan(text, i+size), Script: Han}, true
		default:
			j, script := scanWord(text, i, join)
			return Token{Start: i, End: j, Script: script}, true
		}
	}
	return Token{}, false
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
func scanWord(text string, i int, join bool) (int, Script) {
	script := Latin
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
			script = Other
		}
		i += size
	}
	return i, script
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
