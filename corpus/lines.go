package corpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unsafe"
)

// Line files are read sequentially by the producer, which cuts them into
// batches of raw lines; workers decode and parse whole batches.
const (
	batchLines = 256
	batchBytes = 256 << 10
)

// lineParser parses one line (without its newline) of a line file, still
// undecoded, so formats can split before or after decoding. hasLabel reports
// whether the line carried a label (even when reading unlabeled).
type lineParser func(line string) (label, text string, hasLabel bool, enc Encoding, err error)

// lineSetup looks at the first non-blank line, decoded, and returns the
// parser for the data lines and whether that first line was a header.
type lineSetup func(first string, opt Options) (parse lineParser, header bool, err error)

// openLines opens path for reading lines, its text in UTF-8 (see
// textReader).
func openLines(path string) (*os.File, *bufio.Reader, Encoding, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("corpus: %w", err)
	}
	r, enc := textReader(f)
	return f, r, enc, nil
}

// NewTextReader returns a buffered reader of r's bytes as the line readers
// see them: a leading UTF-8 byte order mark skipped, a stream that starts
// with a UTF-16 one transcoded to UTF-8, anything else unchanged (decode
// what it yields with Decode). It serves formats read by other parsers,
// such as encoding/csv.
func NewTextReader(r io.Reader) *bufio.Reader {
	br, _ := textReader(r)
	return br
}

// textReader returns a buffered reader of r with a leading UTF-8 byte order
// mark skipped, or, after a UTF-16 one, of r transcoded to UTF-8; enc is
// UTF16LE or UTF16BE then, else UTF8 (and each line is decoded apart).
func textReader(r io.Reader) (br *bufio.Reader, enc Encoding) {
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

// lineReader yields physical lines of any length, counting them.
type lineReader struct {
	r   *bufio.Reader
	num int // number of the line last returned
}

// longBlock is the size of the blocks a line longer than the reader's
// buffer is gathered in before it is copied out at its exact size.
const longBlock = 1 << 20

// next returns the next line without its "\n" or "\r\n", and io.EOF after
// the last line. A line that fits the reader's buffer is a view of it,
// valid until the following call (owned is false); a longer one has memory
// of its own, of its size, which the caller may keep: a line of any length
// is read in at most twice its size, and nothing of it is kept for the
// next.
func (lr *lineReader) next() (line []byte, owned bool, err error) {
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
func (lr *lineReader) long(first []byte) ([]byte, error) {
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
	lr  lineReader
	enc Encoding
}

// NewLineReader returns a LineReader of r.
func NewLineReader(r io.Reader) *LineReader {
	br, enc := textReader(r)
	return &LineReader{lr: lineReader{r: br}, enc: enc}
}

// Next returns the next line without its line ending ("\n" or "\r\n"),
// decoded, with its number from 1 and its encoding; blank lines are lines
// too. It returns io.EOF after the last line, or the stream's error.
func (r *LineReader) Next() (text string, num int, enc Encoding, err error) {
	line, owned, err := r.lr.next()
	if err != nil {
		return "", 0, 0, err
	}
	if owned { // nobody else has it: decode it in place
		text, enc = decodeString(unsafe.String(unsafe.SliceData(line), len(line)))
	} else {
		text, enc = Decode(line)
	}
	if r.enc != UTF8 {
		enc = r.enc
	}
	return text, r.lr.num, enc, nil
}

// blank reports whether a line holds only white space; such lines are skipped.
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// lineProducer reads a TSV or JSONL file. The file is opened now so that a
// missing or unreadable file is reported before any document.
func lineProducer(path string, opt Options, setup lineSetup) (func(emitFunc), error) {
	f, r, fileEnc, err := openLines(path)
	if err != nil {
		return nil, err
	}
	return func(emit emitFunc) {
		defer f.Close()
		lr := &lineReader{r: r}
		var parse lineParser
		cur := newRawLines(fileEnc)
		for {
			line, owned, err := lr.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				emit(errorUnit(fmt.Errorf("corpus: reading %s: %w", path, err)))
				return
			}
			if blank(line) {
				continue
			}
			if parse == nil {
				first := unsafe.String(unsafe.SliceData(line), len(line)) // the setup keeps nothing of it
				if !owned {
					first = string(line)
				}
				first, _ = decodeString(first)
				p, header, err := setup(first, opt)
				if err != nil {
					emit(errorUnit(&ParseError{File: path, Line: lr.num, Err: err}))
					return
				}
				parse = p
				if header {
					continue
				}
			}
			cur.add(line, owned, lr.num)
			if len(cur.nums) >= batchLines || cur.size >= batchBytes {
				if !emit(cur.unit(path, opt.Unlabeled, parse)) {
					return
				}
				cur = newRawLines(fileEnc)
			}
		}
		if len(cur.nums) > 0 {
			emit(cur.unit(path, opt.Unlabeled, parse))
		}
	}, nil
}

// rawLines is a batch of undecoded lines, each in a string of its own: a
// document's text then never keeps its neighbours' text alive.
type rawLines struct {
	lines []string
	nums  []int    // physical line numbers
	size  int      // bytes in lines
	enc   Encoding // the file's, if it was transcoded from UTF-16
}

func newRawLines(enc Encoding) rawLines {
	return rawLines{lines: make([]string, 0, batchLines), nums: make([]int, 0, batchLines), enc: enc}
}

// add appends a line, taking it over if the caller owns it.
func (rl *rawLines) add(line []byte, owned bool, num int) {
	s := unsafe.String(unsafe.SliceData(line), len(line))
	if !owned {
		s = string(line)
	}
	rl.lines = append(rl.lines, s)
	rl.nums = append(rl.nums, num)
	rl.size += len(line)
}

// unit returns the work of parsing the batch.
func (rl rawLines) unit(path string, unlabeled bool, parse lineParser) func() batch {
	return func() batch {
		b := batch{docs: make([]Document, 0, len(rl.nums)), encs: make([]Encoding, 0, len(rl.nums))}
		for i, line := range rl.lines {
			label, text, hasLabel, enc, err := parse(line)
			if rl.enc != UTF8 {
				enc = rl.enc
			}
			if err == nil {
				err = b.addLine(path, rl.nums[i], unlabeled, label, text, hasLabel, enc)
			}
			if err != nil {
				b.err = &ParseError{File: path, Line: rl.nums[i], Err: err}
				return b
			}
		}
		return b
	}
}

// addLine applies the labeled/unlabeled rules to a parsed line and adds it.
func (b *batch) addLine(path string, num int, unlabeled bool, label, text string, hasLabel bool, enc Encoding) error {
	if unlabeled {
		b.labelsIgnored = b.labelsIgnored || hasLabel
		label = ""
	} else if label == "" {
		return ErrEmptyLabel
	}
	b.scratch = strconv.AppendInt(append(append(b.scratch[:0], path...), ':'), int64(num), 10)
	b.add(Document{Source: string(b.scratch), Label: b.labels.intern(label), Text: text}, enc)
	return nil
}

// tsvSetup reads an optional header. A first line is a header when one of its
// fields is the label or text field name; then every line must have as many
// fields as the header. Without a header, labeled lines are label<TAB>text;
// unlabeled lines are label<TAB>text (labels ignored) if the first line has
// a tab, and otherwise the whole line is the text.
func tsvSetup(first string, opt Options) (lineParser, bool, error) {
	fields := strings.Split(first, "\t")
	li, ti := column(fields, opt.labelField()), column(fields, opt.textField())
	switch {
	case li >= 0 || ti >= 0:
		if err := requireColumns(li, ti, opt); err != nil {
			return nil, true, err
		}
		return tsvColumns(len(fields), li, ti), true, nil
	case !opt.Unlabeled || strings.Contains(first, "\t"):
		return tsvColumns(2, 0, 1), false, nil
	default:
		return func(line string) (string, string, bool, Encoding, error) {
			text, enc := decodeString(line)
			return "", text, false, enc, nil
		}, false, nil
	}
}

// requireColumns checks that a header names the columns the read needs.
func requireColumns(li, ti int, opt Options) error {
	if ti < 0 {
		return missingColumn("text", opt.textField())
	}
	if li < 0 && !opt.Unlabeled {
		return missingColumn("label", opt.labelField())
	}
	return nil
}

// missingColumn reports a header without the column of the given role.
func missingColumn(role, name string) error {
	return fmt.Errorf("%w: header has no %s column %q", ErrMissingField, role, name)
}

// column returns the index of the field named name, or -1.
func column(fields []string, name string) int {
	for i, f := range fields {
		if strings.TrimSpace(f) == name {
			return i
		}
	}
	return -1
}

// tsvColumns parses lines of exactly n tab-separated fields; li < 0 means
// there is no label column.
func tsvColumns(n, li, ti int) lineParser {
	return func(line string) (string, string, bool, Encoding, error) {
		if got := strings.Count(line, "\t") + 1; got != n {
			return "", "", false, 0, fieldCountError(n, got)
		}
		line, enc := decodeString(line)
		var label, text string
		for i := 0; i <= max(li, ti); i++ {
			f, rest, _ := strings.Cut(line, "\t")
			line = rest
			switch i {
			case li:
				label = f
			case ti:
				text = f
			}
		}
		if n > 2 {
			// Do not keep the other columns alive through the text; the
			// label is interned.
			text = strings.Clone(text)
		}
		return label, text, li >= 0, enc, nil
	}
}

// jsonlSetup returns the JSONL parser; JSONL has no header.
func jsonlSetup(first string, opt Options) (lineParser, bool, error) {
	if opt.multi {
		return jsonlMultiSetup(first, opt)
	}
	lf, tf, unlabeled := opt.labelField(), opt.textField(), opt.Unlabeled
	return func(line string) (string, string, bool, Encoding, error) {
		line, enc := decodeString(line)
		label, text, hasLabel, err := parseJSONObject(line, lf, tf, unlabeled)
		return label, text, hasLabel, enc, err
	}, false, nil
}
