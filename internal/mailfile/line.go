package mailfile

import "bytes"

// NextLine returns the line of b at i without its line break, and where
// the next one starts.
func NextLine(b []byte, i int) (line []byte, next int) {
	j := bytes.IndexByte(b[i:], '\n')
	if j < 0 {
		return b[i:], len(b)
	}
	line = b[i : i+j]
	return bytes.TrimSuffix(line, []byte("\r")), i + j + 1
}

// FieldName returns the name of the header field that line starts, if it
// starts one: printable ASCII but for the colon, then a colon.
func FieldName(line []byte) (string, bool) {
	for i, c := range line {
		switch {
		case c == ':':
			return string(line[:i]), i > 0
		case c <= ' ' || c > '~':
			return "", false
		}
	}
	return "", false
}
