package corpus

import (
	"bufio"
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

// csvProducer reads a CSV file with a required header, r, named path, and
// closes c when done. Records are parsed sequentially (quoted fields may
// span lines); workers decode the label and text fields, each on its own.
func csvProducer(c io.Closer, r *bufio.Reader, fileEnc Encoding, path string, opt Options) (func(emitFunc), error) {
	cr, header, err := textfile.ReadCSVHeader(r, ',')
	if errors.Is(err, io.EOF) {
		c.Close()
		return func(emitFunc) {}, nil // an empty file is an empty corpus
	}
	if err != nil {
		c.Close()
		return nil, textfile.CSVError(err, path, 0, 0)
	}
	li, ti := textfile.Column(header, opt.labelField()), textfile.Column(header, opt.textField())
	err = requireColumns(li, ti, opt)
	var kc keptColumns
	if err == nil && opt.rowFields() {
		kc, err = keptColumnsOf(header, opt)
	}
	if err != nil {
		c.Close()
		return nil, textfile.HeaderError(cr, path, err)
	}
	// encoding/csv makes every record as wide as the header.
	unit := func(recs []csvRecord, kept [][]string) func() batch {
		return csvUnit(recs, kept, path, opt.Unlabeled, li >= 0, len(header) > 2, fileEnc, kc)
	}
	return func(emit emitFunc) {
		defer c.Close()
		cur := make([]csvRecord, 0, batchLines)
		var kept [][]string // the records, when the read keeps fields
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				if len(cur) > 0 && !emit(unit(cur, kept)) {
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
			if opt.rowFields() {
				kept = append(kept, append([]string(nil), rec...)) // encoding/csv reuses rec
			}
			if cur = append(cur, rc); len(cur) >= batchLines {
				if !emit(unit(cur, kept)) {
					return
				}
				cur, kept = make([]csvRecord, 0, batchLines), nil
			}
		}
		if len(cur) > 0 {
			emit(unit(cur, kept))
		}
	}, nil
}

// csvUnit returns the work of decoding a batch of records, and of their
// kept fields, if any.
func csvUnit(recs []csvRecord, kept [][]string, path string, unlabeled, hasLabel, wide bool, fileEnc Encoding, kc keptColumns) func() batch {
	return func() batch {
		b := batch{docs: make([]Document, 0, len(recs)), encs: make([]Encoding, 0, len(recs))}
		var r row
		for k, rc := range recs {
			r = row{hasLabel: hasLabel}
			r.text, r.enc = textfile.DecodeString(rc.text)
			if wide && r.enc == UTF8 && kept == nil {
				// Do not keep the other columns alive through the text (the
				// label is interned; other encodings decoded to a new string);
				// a kept record holds them anyway, as tsvKept says.
				r.text = strings.Clone(r.text)
			}
			var lenc Encoding
			r.label, lenc = textfile.DecodeString(rc.label)
			if r.enc == UTF8 {
				r.enc = lenc
			}
			if fileEnc != UTF8 {
				r.enc = fileEnc
			}
			if kept != nil {
				for i, v := range kept[k] {
					kept[k][i], _ = textfile.DecodeString(v)
				}
				kc.set(&r, kept[k])
			}
			if err := b.addLine(path, rc.line, unlabeled, &r); err != nil {
				b.err = &ParseError{File: path, Line: rc.line, Err: err}
				return b
			}
		}
		return b
	}
}
