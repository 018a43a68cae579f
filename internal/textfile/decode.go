package textfile

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// Encoding is the character encoding a text was decoded from.
type Encoding uint8

// Encodings recognized by Decode.
const (
	UTF8    Encoding = iota // UTF-8, with any byte order mark stripped
	GB18030                 // GB18030 (a superset of GBK and GB2312)
	Latin1                  // ISO-8859-1: the fallback, which never fails
	UTF16LE                 // UTF-16, little-endian, with a byte order mark
	UTF16BE                 // UTF-16, big-endian, with a byte order mark
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "UTF-8"
	case GB18030:
		return "GB18030"
	case Latin1:
		return "ISO-8859-1"
	case UTF16LE:
		return "UTF-16LE"
	case UTF16BE:
		return "UTF-16BE"
	}
	return "Encoding(" + strconv.Itoa(int(e)) + ")"
}

const bom = "\ufeff"

// gbReplacement is U+FFFD encoded in GB18030: such input decodes to U+FFFD
// legitimately, so it must not count as a decoding failure.
var gbReplacement = []byte{0x84, 0x31, 0xa4, 0x37}

// Decode returns b as UTF-8 text. Valid UTF-8 is kept (a leading byte order
// mark is stripped); b that starts with a UTF-16 byte order mark is decoded
// as UTF-16 (unpaired surrogates and an odd last byte become U+FFFD);
// otherwise b is decoded as GB18030 if that decodes without errors into text
// whose letters are more than 30% Han, and as Latin-1 (ISO-8859-1) if not.
// The result never aliases b.
func Decode(b []byte) (string, Encoding) {
	if utf8.Valid(b) {
		return string(bytes.TrimPrefix(b, []byte(bom))), UTF8
	}
	return decodeInvalid(b)
}

// DecodeString is Decode for text that is already a string: valid UTF-8 is
// returned without copying, and other bytes are decoded from s itself.
// Given a view of a buffer nobody writes again (a file's bytes), it thus
// decodes the buffer in place.
func DecodeString(s string) (string, Encoding) {
	if utf8.ValidString(s) {
		return strings.TrimPrefix(s, bom), UTF8
	}
	return decodeInvalid(unsafe.Slice(unsafe.StringData(s), len(s))) // only read
}

// decodeInvalid decodes b, which is not valid UTF-8, into new memory; it
// never writes b.
func decodeInvalid(b []byte) (string, Encoding) {
	if enc, ok := utf16BOM(b); ok {
		return decodeUTF16(b, enc), enc
	}
	if s, ok := decodeGB18030(b); ok {
		return s, GB18030
	}
	return decodeLatin1(b), Latin1
}

func decodeGB18030(b []byte) (string, bool) {
	out, err := simplifiedchinese.GB18030.NewDecoder().Bytes(b)
	if err != nil {
		return "", false
	}
	// The decoder writes U+FFFD for invalid input instead of failing.
	if bytes.Count(out, []byte("\ufffd")) != bytes.Count(b, gbReplacement) {
		return "", false
	}
	var letters, han int
	for _, r := range string(out) {
		if unicode.IsLetter(r) {
			letters++
			if unicode.Is(unicode.Han, r) {
				han++
			}
		}
	}
	if han*10 <= letters*3 {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), true // out is the decoder's own
}

func decodeLatin1(b []byte) string {
	high := 0
	for _, c := range b {
		if c >= utf8.RuneSelf {
			high++
		}
	}
	var sb strings.Builder
	sb.Grow(len(b) + high)
	for _, c := range b {
		if c < utf8.RuneSelf {
			sb.WriteByte(c)
		} else {
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}
