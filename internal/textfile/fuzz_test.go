package textfile

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecode checks that any bytes decode to valid UTF-8, that valid UTF-8
// comes back unchanged but for a leading byte order mark, and that
// DecodeString agrees with Decode.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "plain text", bom + "marked", "caf\xe9", "\xc4\xe3\xba\xc3\xca\xc0\xbd\xe7", "\x84\x31\xa4\x37", "\xff\xfeh\x00i\x00", "\xfe\xff\x00h\x00i", "\xe4\xbd\xa0\xe5\xa5\xbd"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, enc := Decode(b)
		if !utf8.ValidString(s) {
			t.Fatalf("Decode(%q) = %q (%v), not UTF-8", b, s, enc)
		}
		if utf8.Valid(b) && !strings.HasPrefix(string(b), bom) && (enc != UTF8 || s != string(b)) {
			t.Fatalf("Decode(%q) = %q (%v), want it unchanged", b, s, enc)
		}
		if s2, enc2 := DecodeString(string(b)); s2 != s || enc2 != enc {
			t.Fatalf("DecodeString(%q) = %q (%v), Decode %q (%v)", b, s2, enc2, s, enc)
		}
	})
}
