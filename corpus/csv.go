package corpus

import (
	"errors"
	"io"
	"strings"

	"github.com/textnb/textnb/internal/textfile"
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
	f, cr, header, fileEnc, err := textfile.OpenCSV(path, ',')
	if errors.Is(err, io.EOF) {
		return func(emitFunc) {}, nil // an empty file is an empty corpus
	}
	if err != nil {
		return nil, err
	}
	li, ti := textfile.Column(header, opt.labelField()), textfile.Column(header, opt.textField())
	if err := requireColumns(li, ti, opt); err != nil {
		f.Close()
		return nil, textfile.HeaderError(cr, path, err)
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
				emit(errorUnit(textfile.CSVError(err, path, cr.FieldsPerRecord, len(rec))))
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

// csvUnit returns the work of decoding a batch of records.
func csvUnit(recs []csvRecord, path string, unlabeled, hasLabel, wide bool, fileEnc Encoding) func() batch {
	return func() batch {
		b := batch{docs: make([]Document, 0, len(recs)), encs: make([]Encoding, 0, len(recs))}
		for _, r := range recs {
			text, enc := textfile.DecodeString(r.text)
			if wide && enc == UTF8 {
				// Do not keep the other columns alive through the text (the
				// label is interned; other encodings decoded to a new string).
				text = strings.Clone(text)
			}
			label, lenc := textfile.DecodeString(r.label)
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
