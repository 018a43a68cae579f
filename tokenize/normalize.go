package tokenize

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normalize applies NFKC, which folds full-width and compatibility forms
// ('ＡＢＣ１２３' → 'ABC123', 'ﬁ' → 'fi'), unless NFKC would not change the
// tokens. Invalid UTF-8 bytes pass through unchanged and later act as
// separators. The Analyzer calls it on the text from an ASCII break
// (isBreak), which nothing before it composes with, or the document's
// start, to just before a break that begins 64 ASCII bytes (resumeAt), or
// the document's end.
//
// A first pass checks each rune against a table, which is much faster than
// norm's own check and lets Chinese text keep its full-width punctuation
// (a separator either way) without a copy.
func normalize(text string) string {
	skipOnce.Do(buildSkip)
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !skippable(r, text[i:]) {
			return norm.NFKC.String(text)
		}
		i += size
	}
	return text
}

var (
	skipOnce sync.Once
	skipBMP  [1 << 16 / 64]uint64 // bit r: NFKC need not touch rune r
)

// skippable reports whether NFKC can leave r, at the start of s, alone.
func skippable(r rune, s string) bool {
	if r < 1<<16 {
		return skipBMP[r>>6]&(1<<(r&63)) != 0
	}
	p := norm.NFKC.PropertiesString(s)
	return p.BoundaryBefore() && len(p.Decomposition()) == 0
}

// buildSkip marks the BMP runes that NFKC keeps in any context (they do not
// combine with the rune before them and have no decomposition), and the
// separators that NFKC maps to separators only, such as '，' → ','
// (but not '․' → '.', a connector).
// Invalid bytes (decoded as RuneError) are separators before and after.
func buildSkip() {
	for r := rune(0); r < 1<<16; r++ {
		if skipRune(r) {
			skipBMP[r>>6] |= 1 << (r & 63)
		}
	}
}

func skipRune(r rune) bool {
	if r == utf8.RuneError || r < utf8.RuneSelf {
		return true
	}
	s := string(r)
	p := norm.NFKC.PropertiesString(s)
	if !p.BoundaryBefore() {
		return false
	}
	if len(p.Decomposition()) == 0 {
		return true
	}
	if classify(r) != sepRune {
		return false
	}
	for _, c := range norm.NFKC.String(s) {
		if classify(c) != sepRune || c < utf8.RuneSelf && isConnector[c] || c == '’' {
			return false // NFKC would make a word or a connector of it
		}
	}
	return true
}
