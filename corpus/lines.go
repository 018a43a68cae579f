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

// openLines opens path with a leading byte order mark skipped.
func openLines(path string) (*os.File, *bufio.Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("corpus: %w", err)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	if b, err := r.Peek(len(bom)); err == nil && string(b) == bom {
		_, _ = r.Discard(len(bom))
	}
	return f, r, nil
}

// lineReader yields physical lines of any length, counting them.
type lineReader struct {
	r    *bufio.Reader
	long []byte // accumulates lines longer than r's buffer
	num  int    // number of the line last returned
}

// next returns the next line without its "\n" or "\r\n"; the slice is valid
// until the following call. It returns io.EOF after the last line.
func (lr *lineReader) next() ([]byte, error) {
	lr.long = lr.long[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			lr.long = append(lr.long, chunk...)
			continue
		}
		if len(lr.long) > 0 {
			lr.long = append(lr.long, chunk...)
			chunk = lr.long
		}
		if err != nil && (!errors.Is(err, io.EOF) || len(chunk) == 0) {
			return nil, err
		}
		lr.num++
		chunk = bytes.TrimSuffix(chunk, []byte("\n"))
		return bytes.TrimSuffix(chunk, []byte("\r")), nil
	}
}

// blank reports whether a line holds only white space; such lines are skipped.
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// lineProducer reads a TSV or JSONL file. The file is opened now so that a
// missing or unreadable file is reported before any document.
func lineProducer(path string, opt Options, setup lineSetup) (func(emitFunc), error) {
	f, r, err := openLines(path)
	if err != nil {
		return nil, err
	}
	return func(emit emitFunc) {
		defer f.Close()
		lr := &lineReader{r: r}
		var parse lineParser
		cur := newRawLines()
		for {
			line, err := lr.next()
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
				first, _ := decodeString(string(line))
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
			cur.add(line, lr.num)
			if len(cur.nums) >= batchLines || cur.size >= batchBytes {
				if !emit(cur.unit(path, opt.Unlabeled, parse)) {
					return
				}
				cur = newRawLines()
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
	nums  []int // physical line numbers
	size  int   // bytes in lines
}

func newRawLines() rawLines {
	return rawLines{lines: make([]string, 0, batchLines), nums: make([]int, 0, batchLines)}
}

func (rl *rawLines) add(line []byte, num int) {
	rl.lines = append(rl.lines, string(line))
	rl.nums = append(rl.nums, num)
	rl.size += len(line)
}

// unit returns the work of parsing the batch.
func (rl rawLines) unit(path string, unlabeled bool, parse lineParser) func() batch {
	return func() batch {
		b := batch{docs: make([]Document, 0, len(rl.nums)), encs: make([]Encoding, 0, len(rl.nums))}
		for i, line := range rl.lines {
			label, text, hasLabel, enc, err := parse(line)
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
