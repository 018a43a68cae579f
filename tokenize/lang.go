package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// A langDetector is a tokencore.LangDetector: it decides the language of
// a corpus from its letters, as Lang Auto asks the engines to. The zero
// value is ready to use; it is not safe for concurrent use.
type langDetector struct {
	han, other int // letters seen
}

// Add counts the letters of text.
func (d *langDetector) Add(text string) {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiClass[c] == latinRune {
				d.other++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isHan(r):
			d.han++
		case unicode.IsLetter(r):
			d.other++
		}
		i += size
	}
}

// Lang returns Chinese when Han characters make up at least a third of the
// letters seen, else English; never Auto. A Han character carries about as
// much as a short English word, so Chinese text that quotes English names
// and code still counts as Chinese.
func (d *langDetector) Lang() Lang {
	if d.han > 0 && 2*d.han >= d.other {
		return Chinese
	}
	return English
}
