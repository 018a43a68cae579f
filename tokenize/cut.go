package tokenize

import "unicode/utf8"

// cut is tokencore.Core.Cut.
func cut(text string, size int) int {
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
