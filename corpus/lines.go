package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unsafe"

	"github.com/textnb/textnb/internal/textfile"
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

// blank reports whether a line holds only white space; such lines are skipped.
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// lineProducer reads a TSV or JSONL file. The file is opened now so that a
// missing or unreadable file is reported before any document.
func lineProducer(path string, opt Options, setup lineSetup) (func(emitFunc), error) {
	f, r, fileEnc, err := textfile.Open(path)
	if err != nil {
		return nil, err
	}
	return func(emit emitFunc) {
		defer f.Close()
		lr := textfile.NewLines(r)
		var parse lineParser
		cur := newRawLines(fileEnc)
		for {
			line, owned, err := lr.Next()
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
				first, _ = textfile.DecodeString(first)
				p, header, err := setup(first, opt)
				if err != nil {
					emit(errorUnit(&ParseError{File: path, Line: lr.Num(), Err: err}))
					return
				}
				parse = p
				if header {
					continue
				}
			}
			cur.add(line, owned, lr.Num())
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
	b.add(Document{Source: string(b.scratch), Label: b.labels.Intern(label), Text: text}, enc)
	return nil
}

// tsvSetup reads an optional header. A first line is a header when one of its
// fields is the label or text field name; then every line must have as many
// fields as the header. Without a header, labeled lines are label<TAB>text;
// unlabeled lines are label<TAB>text (labels ignored) if the first line has
// a tab, and otherwise the whole line is the text.
func tsvSetup(first string, opt Options) (lineParser, bool, error) {
	fields := strings.Split(first, "\t")
	li, ti := textfile.Column(fields, opt.labelField()), textfile.Column(fields, opt.textField())
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
			text, enc := textfile.DecodeString(line)
			return "", text, false, enc, nil
		}, false, nil
	}
}

// requireColumns checks that a header names the columns the read needs.
func requireColumns(li, ti int, opt Options) error {
	if ti < 0 {
		return textfile.MissingColumn("text", opt.textField())
	}
	if li < 0 && !opt.Unlabeled {
		return textfile.MissingColumn("label", opt.labelField())
	}
	return nil
}

// tsvColumns parses lines of exactly n tab-separated fields; li < 0 means
// there is no label column.
func tsvColumns(n, li, ti int) lineParser {
	return func(line string) (string, string, bool, Encoding, error) {
		if got := strings.Count(line, "\t") + 1; got != n {
			return "", "", false, 0, textfile.FieldCountError(n, got)
		}
		line, enc := textfile.DecodeString(line)
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
		line, enc := textfile.DecodeString(line)
		label, text, hasLabel, err := parseJSONObject(line, lf, tf, unlabeled)
		return label, text, hasLabel, enc, err
	}, false, nil
}
