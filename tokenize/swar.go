package tokenize

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// The ASCII fast path classifies eight bytes at a time ("SWAR"): inRange,
// wordBytes, upperBytes and joinBytes return a word with 0x80 in every byte
// of the eight that has the property, 0 in the others. Bytes are in
// little-endian order: the first byte with the property is at
// TrailingZeros64/8 (firstUpper, firstNonASCII), and packBits makes the
// marks one bit per byte, in order (blockBits).
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

// view returns the bytes of s, which must not be written.
func view(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// inRange marks the bytes of h, whose high bits are clear, from lo to hi.
// No sum carries into the next byte: h + 0x80 − lo and h + 0x7f − hi are
// at most 0xff per byte.
func inRange(h uint64, lo, hi byte) uint64 {
	return (h + lowBits*uint64(0x80-lo)) &^ (h + lowBits*uint64(0x7f-hi)) & highBits
}

// wordBytes marks the ASCII word bytes of x, [0-9A-Za-z_] (the bytes that
// asciiClass does not class as separators). Setting bit 0x20 maps exactly
// the letters onto a–z. It spells out inRange three times: three calls
// would not fit the inliner's budget, and blockBits calls it for every
// eight bytes of text.
func wordBytes(x uint64) uint64 {
	h := x &^ highBits
	g := h | lowBits*0x20
	digit := (h + lowBits*(0x80-'0')) &^ (h + lowBits*(0x7f-'9'))
	letter := (g + lowBits*(0x80-'a')) &^ (g + lowBits*(0x7f-'z'))
	under := (h + lowBits*(0x80-'_')) &^ (h + lowBits*(0x7f-'_'))
	return (digit | letter | under) &^ x & highBits
}

// upperBytes marks the ASCII upper-case letters of x.
func upperBytes(x uint64) uint64 { return inRange(x&^highBits, 'A', 'Z') &^ x }

// lowerInto writes s with its ASCII upper-case letters lowered to b, which
// has len(s) bytes.
func lowerInto(b []byte, s string) {
	v, i := view(s), 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(v[i:])
		binary.LittleEndian.PutUint64(b[i:], x|upperBytes(x)>>2) // 0x80>>2 is 'a'−'A'
	}
	for ; i < len(s); i++ {
		b[i] = lowerTable[s[i]]
	}
}

// firstUpper returns the index of the first ASCII upper-case letter of s,
// or len(s).
func firstUpper(s string) int {
	v, i := view(s), 0
	for ; i+8 <= len(s); i += 8 {
		if m := upperBytes(binary.LittleEndian.Uint64(v[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s) && !isUpper(s[i]); i++ {
	}
	return i
}

// firstNonASCII returns the index of the first byte of s that is not
// ASCII, or len(s).
func firstNonASCII(s string) int {
	v, i := view(s), 0
	for ; i+8 <= len(s); i += 8 {
		if m := binary.LittleEndian.Uint64(v[i:]) & highBits; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s) && s[i] < utf8.RuneSelf; i++ {
	}
	return i
}
