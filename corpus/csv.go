package corpus

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// csvRecord is the raw label and text of one CSV record.
type csvRecord struct {
	label, text string
	line        int  // first line of the record
	wide        bool // more columns than label and text
}

// csvProducer reads a CSV file with a required header. Records are parsed
// sequentially (quoted fields may span lines); workers decode the label and
// text fields, each on its own.
func csvProducer(path string, opt Options) (func(emitFunc), error) {
	f, r, err := openLines(path)
	if err != nil {
		return nil, err
	}
	return func(emit emitFunc) {
		defer f.Close()
		cr := csv.NewReader(r)
		cr.ReuseRecord = true
		li, ti, err := csvHeader(cr, path, opt)
		if err != nil {
			if !errors.Is(err, io.EOF) { // an empty file is an empty corpus
				emit(errorUnit(err))
			}
			return
		}
		var cur []csvRecord
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if len(cur) > 0 && !emit(csvUnit(cur, path, opt.Unlabeled, li >= 0)) {
					return
				}
				emit(errorUnit(csvError(err, path, cr.FieldsPerRecord, len(rec))))
				return
			}
			line, _ := cr.FieldPos(0)
			rc := csvRecord{text: rec[ti], line: line, wide: len(rec) > 2}
			if li >= 0 {
				rc.label = rec[li]
			}
			if cur = append(cur, rc); len(cur) >= batchLines {
				if !emit(csvUnit(cur, path, opt.Unlabeled, li >= 0)) {
					return
				}
				cur = nil
			}
		}
		if len(cur) > 0 {
			emit(csvUnit(cur, path, opt.Unlabeled, li >= 0))
		}
	}, nil
}

// csvHeader reads the header record and finds the label (-1 if absent and
// unlabeled) and text columns.
func csvHeader(cr *csv.Reader, path string, opt Options) (li, ti int, err error) {
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return 0, 0, err
		}
		return 0, 0, csvError(err, path, 0, len(header))
	}
	li, ti = column(header, opt.labelField()), column(header, opt.textField())
	if err := requireColumns(li, ti, opt); err != nil {
		line, _ := cr.FieldPos(0)
		return 0, 0, &ParseError{File: path, Line: line, Err: err}
	}
	return li, ti, nil
}

// csvError turns an encoding/csv error into a *ParseError; want and found
// are the header's and the record's lengths, for a field-count error.
func csvError(err error, path string, want, found int) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("corpus: reading %s: %w", path, err)
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return &ParseError{File: path, Line: pe.StartLine, Err: fieldCountError(want, found)}
	}
	msg := fmt.Errorf("column %d: %w", pe.Column, pe.Err)
	if pe.StartLine != pe.Line {
		msg = fmt.Errorf("%w (record starts at line %d)", msg, pe.StartLine)
	}
	return &ParseError{File: path, Line: pe.Line, Err: msg}
}

// csvUnit returns the work of decoding a batch of records.
func csvUnit(recs []csvRecord, path string, unlabeled, hasLabel bool) func() batch {
	return func() batch {
		b := batch{docs: make([]Document, 0, len(recs)), encs: make([]Encoding, 0, len(recs))}
		for _, r := range recs {
			text, enc := decodeString(r.text)
			if r.wide && enc == UTF8 {
				// Do not keep the other columns alive through the text (the
				// label is interned; other encodings decoded to a new string).
				text = strings.Clone(text)
			}
			label, lenc := decodeString(r.label)
			if enc == UTF8 {
				enc = lenc
			}
			if err := b.addLine(path, r.line, unlabeled, label, text, hasLabel, enc); err != nil {
				b.err = &ParseError{File: path, Line: r.line, Err: err}
				return b
			}
		}
		return b
	}
}
