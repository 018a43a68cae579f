package textfile

import (
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF-16 byte order marks.
const (
	bomLE = "\xff\xfe"
	bomBE = "\xfe\xff"
)

// utf16BOM reports whether b starts with a UTF-16 byte order mark, and
// which. Neither mark is valid UTF-8, GB18030 or likely Latin-1 text.
func utf16BOM(b []byte) (enc Encoding, ok bool) {
	switch {
	case len(b) < 2:
		return 0, false
	case string(b[:2]) == bomLE:
		return UTF16LE, true
	case string(b[:2]) == bomBE:
		return UTF16BE, true
	}
	return 0, false
}

// appendUTF16 appends to dst the UTF-8 of the UTF-16 code units in src
// (little- or big-endian) and returns it with the number of bytes of src
// used. Unless final, it leaves an odd last byte and a high surrogate that
// may pair with the next unit unused; when final, those and every unpaired
// surrogate become U+FFFD.
func appendUTF16(dst, src []byte, bigEndian, final bool) ([]byte, int) {
	unit := func(i int) rune {
		if bigEndian {
			return rune(src[i])<<8 | rune(src[i+1])
		}
		return rune(src[i]) | rune(src[i+1])<<8
	}
	i := 0
	for ; i+1 < len(src); i += 2 {
		r := unit(i)
		switch {
		case r < utf8.RuneSelf:
			dst = append(dst, byte(r))
			continue
		case utf16.IsSurrogate(r) && r < 0xdc00: // high: pairs with a low one
			if i+3 >= len(src) {
				if !final {
					return dst, i
				}
				r = utf8.RuneError
				break
			}
			if p := utf16.DecodeRune(r, unit(i+2)); p != utf8.RuneError {
				r = p
				i += 2
			} else {
				r = utf8.RuneError
			}
		case utf16.IsSurrogate(r):
			r = utf8.RuneError
		}
		dst = utf8.AppendRune(dst, r)
	}
	if i < len(src) && final { // an odd last byte
		dst = utf8.AppendRune(dst, utf8.RuneError)
		i++
	}
	return dst, i
}

// decodeUTF16 decodes b, which starts with the byte order mark of enc.
func decodeUTF16(b []byte, enc Encoding) string {
	out, _ := appendUTF16(make([]byte, 0, len(b)+len(b)/2), b[2:], enc == UTF16BE, true)
	return string(out)
}

// utf16Reader transcodes a UTF-16 stream, its byte order mark already
// read, to UTF-8.
type utf16Reader struct {
	r         io.Reader
	bigEndian bool
	in        []byte // read, not yet decoded: at most 3 bytes between reads
	buf, out  []byte // out: what of buf is decoded, not yet returned
	err       error
}

func newUTF16Reader(r io.Reader, enc Encoding) *utf16Reader {
	return &utf16Reader{r: r, bigEndian: enc == UTF16BE, in: make([]byte, 0, 32<<10)}
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		n, err := u.r.Read(u.in[len(u.in):cap(u.in)])
		u.in = u.in[:len(u.in)+n]
		u.err = err
		var used int
		u.buf, used = appendUTF16(u.buf[:0], u.in, u.bigEndian, err != nil)
		u.in, u.out = u.in[:copy(u.in, u.in[used:])], u.buf
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}
