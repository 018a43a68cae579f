package corpus

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// csvRecord is the raw label and text of one CSV record.
type csvRecord struct {
	label, text string
	line        int // first line of the record
}

// csvProducer reads a CSV file with a required header. Records are parsed
// sequentially (quoted fields may span lines); workers decode the label and
// text fields, each on its own.
func csvProducer(path string, opt Options) (func(emitFunc), error) {
	f, cr, header, fileEnc, err := openCSV(path, ',')
	if errors.Is(err, io.EOF) {
		return func(emitFunc) {}, nil // an empty file is an empty corpus
	}
	if err != nil {
		return nil, err
	}
	li, ti := column(header, opt.labelField()), column(header, opt.textField())
	if err := requireColumns(li, ti, opt); err != nil {
		f.Close()
		return nil, headerError(cr, path, err)
	}
	// encoding/csv makes every record as wide as the header.
	unit := func(recs []csvRecord) func() batch {
		return csvUnit(recs, path, opt.Unlabeled, li >= 0, len(header) > 2, fileEnc)
	}
	return func(emit emitFunc) {
		defer f.Close()
		var cur []csvRecord
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if len(cur) > 0 && !emit(unit(cur)) {
					return
				}
				emit(errorUnit(csvError(err, path, cr.FieldsPerRecord, len(rec))))
				return
			}
			line, _ := cr.FieldPos(0)
			rc := csvRecord{text: rec[ti], line: line}
			if li >= 0 {
				rc.label = rec[li]
			}
			if cur = append(cur, rc); len(cur) >= batchLines {
				if !emit(unit(cur)) {
					return
				}
				cur = nil
			}
		}
		if len(cur) > 0 {
			emit(unit(cur))
		}
	}, nil
}

// openCSV opens a .csv or .tsv file (comma ',' or '\t') and reads its
// header, whose names it trims and decodes as text is decoded. A file
// without a header is io.EOF. enc is the file's encoding if it was
// transcoded from UTF-16, else UTF8.
func openCSV(path string, comma rune) (f *os.File, cr *csv.Reader, header []string, enc Encoding, err error) {
	f, br, enc, err := openLines(path)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	cr = csv.NewReader(br)
	cr.Comma, cr.ReuseRecord = comma, true
	rec, err := cr.Read()
	if err != nil {
		f.Close()
		if !errors.Is(err, io.EOF) {
			err = csvError(err, path, 0, len(rec))
		}
		return nil, nil, nil, 0, err
	}
	header = make([]string, len(rec))
	for i, name := range rec {
		header[i], _ = decodeString(strings.TrimSpace(name))
	}
	return f, cr, header, enc, nil
}

// headerError places err, about the header cr has just read, at its line.
func headerError(cr *csv.Reader, path string, err error) error {
	line, _ := cr.FieldPos(0)
	return &ParseError{File: path, Line: line, Err: err}
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
func csvUnit(recs []csvRecord, path string, unlabeled, hasLabel, wide bool, fileEnc Encoding) func() batch {
	return func() batch {
		b := batch{docs: make([]Document, 0, len(recs)), encs: make([]Encoding, 0, len(recs))}
		for _, r := range recs {
			text, enc := decodeString(r.text)
			if wide && enc == UTF8 {
				// Do not keep the other columns alive through the text (the
				// label is interned; other encodings decoded to a new string).
				text = strings.Clone(text)
			}
			label, lenc := decodeString(r.label)
			if enc == UTF8 {
				enc = lenc
			}
			if fileEnc != UTF8 {
				enc = fileEnc
			}
			if err := b.addLine(path, r.line, unlabeled, label, text, hasLabel, enc); err != nil {
				b.err = &ParseError{File: path, Line: r.line, Err: err}
				return b
			}
		}
		return b
	}
}
