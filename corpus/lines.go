package corpus

import (
	"bufio"
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

// row is a parsed line of a line file; hasLabel reports whether it
// carried a label (even when reading unlabeled), nullID an id that is
// JSON null, which names the row by its Source.
type row struct {
	label, text, id  string
	fields           []Field
	hasLabel, nullID bool
	enc              Encoding
}

// lineParser parses one line (without its newline) of a line file, still
// undecoded, so formats can split before or after decoding.
type lineParser func(line string) (row, error)

// lineSetup looks at the first non-blank line, decoded, and returns the
// parser for the data lines and whether that first line was a header.
type lineSetup func(first string, opt Options) (parse lineParser, header bool, err error)

// blank reports whether a line holds only white space; such lines are skipped.
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// streamProducer reads the line file r, named name, of the given format,
// and closes c when done. Errors it returns (a CSV header's) come before
// any document.
func streamProducer(c io.Closer, r *bufio.Reader, fileEnc Encoding, name string, format Format, opt Options) (func(emitFunc), error) {
	var setup lineSetup
	switch format {
	case FormatCSV:
		return csvProducer(c, r, fileEnc, name, opt)
	case FormatTSV:
		setup = tsvSetup
	case FormatJSONL:
		setup = jsonlSetup
	case FormatLines:
		if !opt.Unlabeled || opt.rowFields() {
			c.Close()
			return nil, fmt.Errorf("%w: %s: lines are unlabeled documents without fields", ErrUnsupported, name)
		}
		setup = linesSetup
	default:
		c.Close()
		return nil, fmt.Errorf("%w: %s: format %v", ErrUnsupported, name, format)
	}
	return lineProducer(c, r, fileEnc, name, format == FormatLines, opt, setup), nil
}

// lineProducer reads a TSV, JSONL or lines file, skipping blank lines
// unless told to keep them.
func lineProducer(c io.Closer, r *bufio.Reader, fileEnc Encoding, path string, blanks bool, opt Options, setup lineSetup) func(emitFunc) {
	return func(emit emitFunc) {
		defer c.Close()
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
			if !blanks && blank(line) {
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
	}
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
			r, err := parse(line)
			if rl.enc != UTF8 {
				r.enc = rl.enc
			}
			if err == nil {
				err = b.addLine(path, rl.nums[i], unlabeled, &r)
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
func (b *batch) addLine(path string, num int, unlabeled bool, r *row) error {
	label := r.label
	if unlabeled {
		b.labelsIgnored = b.labelsIgnored || r.hasLabel
		label = ""
	} else if label == "" {
		return ErrEmptyLabel
	}
	b.scratch = strconv.AppendInt(append(append(b.scratch[:0], path...), ':'), int64(num), 10)
	d := Document{Source: string(b.scratch), Label: b.labels.Intern(label), Text: r.text, ID: r.id, Line: num, Fields: r.fields}
	if r.nullID {
		d.ID = d.Source
	}
	b.add(d, r.enc)
	return nil
}

// tsvSetup reads an optional header. A first line is a header when one of its
// fields is the label, text or id field name; then every line must have as
// many fields as the header. Without a header, labeled lines are
// label<TAB>text; unlabeled lines are label<TAB>text (labels ignored) if
// the first line has a tab, and otherwise the whole line is the text.
func tsvSetup(first string, opt Options) (lineParser, bool, error) {
	fields := strings.Split(first, "\t")
	li, ti := textfile.Column(fields, opt.labelField()), textfile.Column(fields, opt.textField())
	switch {
	case li >= 0 || ti >= 0 || opt.IDField != "" && textfile.Column(fields, opt.IDField) >= 0:
		if err := requireColumns(li, ti, opt); err != nil {
			return nil, true, err
		}
		if !opt.rowFields() {
			return tsvColumns(len(fields), li, ti), true, nil
		}
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		kc, err := keptColumnsOf(fields, opt)
		if err != nil {
			return nil, true, err
		}
		return tsvKept(len(fields), li, ti, kc), true, nil
	case opt.rowFields():
		return nil, false, errNoHeader
	case !opt.Unlabeled || strings.Contains(first, "\t"):
		return tsvColumns(2, 0, 1), false, nil
	default:
		return func(line string) (r row, _ error) {
			r.text, r.enc = textfile.DecodeString(line)
			return r, nil
		}, false, nil
	}
}

// errNoHeader: a TSV file without a header has no named columns to keep.
var errNoHeader = fmt.Errorf("%w: no header line naming the columns (the id and kept fields need one)", ErrMissingField)

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
	return func(line string) (r row, _ error) {
		if got := strings.Count(line, "\t") + 1; got != n {
			return r, textfile.FieldCountError(n, got)
		}
		line, r.enc = textfile.DecodeString(line)
		for i := 0; i <= max(li, ti); i++ {
			f, rest, _ := strings.Cut(line, "\t")
			line = rest
			switch i {
			case li:
				r.label = f
			case ti:
				r.text = f
			}
		}
		if n > 2 {
			// Do not keep the other columns alive through the text; the
			// label is interned.
			r.text = strings.Clone(r.text)
		}
		r.hasLabel = li >= 0
		return r, nil
	}
}

// keptColumns are the id and kept columns of a header.
type keptColumns struct {
	id     int // -1 for none
	fields []int
	names  []string // the header's names, trimmed
}

// keptColumnsOf finds the columns opt asks for in a header of trimmed names.
func keptColumnsOf(names []string, opt Options) (keptColumns, error) {
	kc := keptColumns{id: -1, names: names}
	if opt.IDField != "" {
		if kc.id = textfile.Column(names, opt.IDField); kc.id < 0 {
			return kc, textfile.MissingColumn("id", opt.IDField)
		}
	}
	if opt.keepAll() {
		for i := range names {
			kc.fields = append(kc.fields, i)
		}
		return kc, nil
	}
	for _, name := range opt.Fields {
		i := textfile.Column(names, name)
		if i < 0 {
			return kc, textfile.MissingColumn("", name)
		}
		kc.fields = append(kc.fields, i)
	}
	return kc, nil
}

// set sets r's id and fields from the fields of a row, decoded.
func (kc keptColumns) set(r *row, f []string) {
	if kc.id >= 0 {
		r.id = f[kc.id]
	}
	if len(kc.fields) > 0 {
		r.fields = make([]Field, len(kc.fields))
		for k, i := range kc.fields {
			r.fields[k] = Field{Name: kc.names[i], Value: f[i]}
		}
	}
}

// tsvKept is tsvColumns with an id and kept fields. The text is not copied
// out of its line: the id and fields keep it anyway.
func tsvKept(n, li, ti int, kc keptColumns) lineParser {
	return func(line string) (r row, _ error) {
		if got := strings.Count(line, "\t") + 1; got != n {
			return r, textfile.FieldCountError(n, got)
		}
		line, r.enc = textfile.DecodeString(line)
		f := strings.Split(line, "\t")
		if li >= 0 {
			r.label, r.hasLabel = f[li], true
		}
		r.text = f[ti]
		kc.set(&r, f)
		return r, nil
	}
}

// linesSetup reads every line as the text of a document.
func linesSetup(string, Options) (lineParser, bool, error) {
	return func(line string) (r row, _ error) {
		r.text, r.enc = textfile.DecodeString(line)
		return r, nil
	}, false, nil
}

// jsonlSetup returns the JSONL parser; JSONL has no header.
func jsonlSetup(first string, opt Options) (lineParser, bool, error) {
	if opt.multi {
		return jsonlMultiSetup(first, opt)
	}
	if opt.rowFields() {
		return jsonlKept(opt), false, nil
	}
	lf, tf, unlabeled := opt.labelField(), opt.textField(), opt.Unlabeled
	return func(line string) (r row, err error) {
		line, r.enc = textfile.DecodeString(line)
		r.label, r.text, r.hasLabel, err = parseJSONObject(line, lf, tf, unlabeled)
		return r, err
	}, false, nil
}
