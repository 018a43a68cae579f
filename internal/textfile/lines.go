package textfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"
)

// Open opens path for reading lines, its text in UTF-8 (see NewReader).
func Open(path string) (*os.File, *bufio.Reader, Encoding, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("corpus: %w", err)
	}
	r, enc := NewReader(f)
	return f, r, enc, nil
}

// NewReader returns a buffered reader of r with a leading UTF-8 byte order
// mark skipped, or, after a UTF-16 one, of r transcoded to UTF-8; enc is
// UTF16LE or UTF16BE then, else UTF8 (and each line is decoded apart, with
// DecodeString). It serves formats read by other parsers, such as
// encoding/csv, too.
func NewReader(r io.Reader) (br *bufio.Reader, enc Encoding) {
	br = bufio.NewReaderSize(r, 64<<10)
	b, _ := br.Peek(1)
	if len(b) == 1 && b[0] >= 0xef { // only then wait for more, as a stream may send a short first line and wait
		b, _ = br.Peek(len(bom)) // what there is, if less
	}
	if string(b) == bom {
		_, _ = br.Discard(len(bom))
		return br, UTF8
	}
	if enc, ok := utf16BOM(b); ok {
		_, _ = br.Discard(len(bomLE))
		return bufio.NewReaderSize(newUTF16Reader(br, enc), 64<<10), enc
	}
	return br, UTF8
}

// Lines yields the physical lines of a reader, of any length, counting
// them.
type Lines struct {
	r   *bufio.Reader
	num int // number of the line last returned
}

// longBlock is the size of the blocks a line longer than the reader's
// buffer is gathered in before it is copied out at its exact size.
const longBlock = 1 << 20

// NewLines returns the lines of r.
func NewLines(r *bufio.Reader) *Lines { return &Lines{r: r} }

// Num returns the number of the line last returned, from 1.
func (lr *Lines) Num() int { return lr.num }

// Next returns the next line without its "\n" or "\r\n", and io.EOF after
// the last line. A line that fits the reader's buffer is a view of it,
// valid until the following call (owned is false); a longer one has memory
// of its own, of its size, which the caller may keep: a line of any length
// is read in at most twice its size, and nothing of it is kept for the
// next.
func (lr *Lines) Next() (line []byte, owned bool, err error) {
	line, err = lr.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		line, err = lr.long(line)
		owned = true
	}
	if err != nil && (!errors.Is(err, io.EOF) || len(line) == 0) {
		return nil, false, err
	}
	lr.num++
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), owned, nil
}

// long reads the rest of a line whose start, first, fills the buffer.
func (lr *Lines) long(first []byte) ([]byte, error) {
	blocks := [][]byte{append(make([]byte, 0, longBlock), first...)}
	size := len(first)
	for {
		chunk, err := lr.r.ReadSlice('\n')
		size += len(chunk)
		last := &blocks[len(blocks)-1]
		if n := copy((*last)[len(*last):cap(*last)], chunk); n < len(chunk) {
			*last = (*last)[:cap(*last)]
			blocks = append(blocks, append(make([]byte, 0, max(longBlock, len(chunk)-n)), chunk[n:]...))
		} else {
			*last = (*last)[:len(*last)+n]
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			line := make([]byte, 0, size)
			for i, b := range blocks {
				line, blocks[i] = append(line, b...), nil
			}
			return line, err
		}
	}
}

// A LineReader reads a stream of text one line at a time, as textnb's
// predict reads its standard input: lines of any length, each decoded as
// Decode decodes it, after a UTF-8 byte order mark is skipped or a stream
// that starts with a UTF-16 one is transcoded. It keeps no line once the
// next is read.
type LineReader struct {
	lr  Lines
	enc Encoding
}

// NewLineReader returns a LineReader of r.
func NewLineReader(r io.Reader) *LineReader {
	br, enc := NewReader(r)
	return &LineReader{lr: Lines{r: br}, enc: enc}
}

// Next returns the next line without its line ending ("\n" or "\r\n"),
// decoded, with its number from 1 and its encoding; blank lines are lines
// too. It returns io.EOF after the last line, or the stream's error.
func (r *LineReader) Next() (text string, num int, enc Encoding, err error) {
	line, owned, err := r.lr.Next()
	if err != nil {
		return "", 0, 0, err
	}
	if owned { // nobody else has it: decode it in place
		text, enc = DecodeString(unsafe.String(unsafe.SliceData(line), len(line)))
	} else {
		text, enc = Decode(line)
	}
	if r.enc != UTF8 {
		enc = r.enc
	}
	return text, r.lr.num, enc, nil
}
