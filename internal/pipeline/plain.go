package pipeline

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plain returns s as one field of tab-separated output: verbatim, or as a
// Go string literal when it holds a control or line-separating character or
// invalid UTF-8, or starts with a double quote. A file or class name then
// cannot forge a row or a column, and a quoted field is told apart from a
// name that merely looks quoted.
func Plain(s string) string {
	if !needsQuote(s) {
		return s
	}
	return strconv.Quote(s)
}

func needsQuote(s string) bool {
	if strings.HasPrefix(s, `"`) {
		return true
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return true
		}
		i += n
	}
	return false
}
