package tokenize

import "unicode/utf8"

// Cut returns where to end the first piece of text when a long document is
// analyzed in pieces: the words of text are those of text[:i] followed by
// those of text[i:], and so are its Han runs and their character n-grams,
// for any Config. The piece ends just before a separator that no token
// spans and that NFKC does not join to what comes before it (white space,
// most ASCII punctuation, '。', '，' and the like): the last such one at or
// before size bytes, if there is one in the second half, else the first
// after. Cut returns len(text) if text is no longer than size or has no
// such separator after the first byte.
func Cut(text string, size int) int {
	if len(text) <= size {
		return len(text)
	}
	for i := size; i > size/2; i-- {
		if cutsBefore(text, i) {
			return i
		}
	}
	for i := size + 1; i < len(text); i++ {
		if cutsBefore(text, i) {
			return i
		}
	}
	return len(text)
}

// cutsBefore reports whether a piece may end before text[i]: at an ASCII
// break (isBreak), or at a separator rune that NFKC leaves a separator
// (skippable) and that no connector rule reads ('’' may join words).
func cutsBefore(text string, i int) bool {
	c := text[i]
	if c < utf8.RuneSelf {
		return isBreak(c)
	}
	if !utf8.RuneStart(c) {
		return false
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	if r == utf8.RuneError && size == 1 || r == '’' || classify(r) != sepRune {
		return false
	}
	skipOnce.Do(buildSkip)
	return skippable(r, text[i:])
}
