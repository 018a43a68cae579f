package tokenize

import "encoding/binary"

// The ASCII fast path marks, one bit per byte, the bytes of a text that
// belong to words (wordMask), and then finds each word as a run of set
// bits, from the bits where runs start and end, 64 bytes at a time
// (Analyzer.asciiTerms). Scanning byte by byte, or eight bytes at a time
// for each word, costs a mispredicted branch or two at every word
// boundary; this costs a few instructions a byte and almost no branches.

// packBits gathers the high bits of the eight bytes of m (each 0x80 or 0)
// into the low eight bits of the result, the first byte's lowest. Each
// byte's bit lands on a bit of its own in the product's top byte, and no
// two partial products share a bit, so nothing carries.
func packBits(m uint64) uint64 { return (m >> 7) * 0x0102040810204080 >> 56 }

// joinBytes marks the ASCII connectors of x (isConnector). A borrow may
// also mark a byte equal to a connector's value with its lowest bit
// flipped right after a marked byte: such a byte is either a word byte
// ('A' after '@'), which is in a word anyway, or has no word byte before
// it, so it joins nothing (wordMask). Bytes ≥ 0x80 are never marked.
func joinBytes(x uint64) uint64 {
	return (eqBytes(x, '.') | eqBytes(x, '\'') | eqBytes(x, '@') | eqBytes(x, '-')) &^ x & highBits
}

// eqBytes marks the bytes of x equal to c, in their high bit (and, through
// a borrow, possibly bytes equal to c^1 right after a marked one).
func eqBytes(x uint64, c byte) uint64 {
	y := x ^ lowBits*uint64(c)
	return (y - lowBits) &^ y
}

// wordMask returns the word bits of text, in dst if it has room: bit i%64
// of word i/64 is set when text[i] is an ASCII word byte ([0-9A-Za-z_]),
// or, with join, a connector between two of them. The bits past the end of
// text are clear.
func wordMask(dst []uint64, text string, join bool) []uint64 {
	n := (len(text) + 63) / 64
	if cap(dst) < 2*n {
		dst = make([]uint64, 2*n)
	}
	w, conn := dst[:n], dst[n:2*n] // word bytes, connectors
	b := view(text)
	full := len(b) / 64
	for k := range full {
		w[k], conn[k] = blockBits((*[64]byte)(b[64*k:]), join)
	}
	if full < n { // a short last block, padded with zeros: neither word bytes nor connectors
		var pad [64]byte
		copy(pad[:], b[64*full:])
		w[full], conn[full] = blockBits(&pad, join)
	}
	if !join {
		return w
	}
	var last uint64 // the top bit of the previous word bits: a word byte?
	for k, wk := range w {
		var next uint64 // the first byte of the next 64: a word byte?
		if k+1 < n {
			next = w[k+1] << 63
		}
		w[k] = wk | conn[k]&(wk<<1|last)&(wk>>1|next)
		last = wk >> 63
	}
	return w
}

// blockBits returns the word byte bits of 64 bytes and, with join, their
// connector bits.
func blockBits(b *[64]byte, join bool) (word, conn uint64) {
	for i := 0; i < 64; i += 8 {
		x := binary.LittleEndian.Uint64(b[i : i+8])
		word |= packBits(wordBytes(x)) << i
		if join {
			conn |= packBits(joinBytes(x)) << i
		}
	}
	return word, conn
}
