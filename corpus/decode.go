package corpus

import "github.com/textnb/textnb/internal/textfile"

// Decode returns the bytes of a document as text, decoded as the corpus
// readers decode a file: UTF-8 (a byte order mark stripped), UTF-16 by its
// byte order mark, else GB18030 for mostly Han text, else Latin-1.
func Decode(b []byte) string {
	s, _ := textfile.Decode(b)
	return s
}
