package textfile

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// OpenCSV opens a .csv or .tsv file (comma ',' or '\t') and reads its
// header (see ReadCSVHeader). A file without a header is io.EOF. enc is the
// file's encoding if it was transcoded from UTF-16, else UTF8.
func OpenCSV(path string, comma rune) (f *os.File, cr *csv.Reader, header []string, enc Encoding, err error) {
	f, br, enc, err := Open(path)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	cr, header, err = ReadCSVHeader(br, comma)
	if err != nil {
		f.Close()
		if !errors.Is(err, io.EOF) {
			err = CSVError(err, path, 0, 0)
		}
		return nil, nil, nil, 0, err
	}
	return f, cr, header, enc, nil
}

// ReadCSVHeader returns a csv.Reader of r (UTF-8, as NewReader yields it),
// which reuses its records, and the header it has read, whose names it trims and decodes as
// text is decoded. A stream without a header is io.EOF; another error is
// encoding/csv's.
func ReadCSVHeader(r io.Reader, comma rune) (*csv.Reader, []string, error) {
	cr := csv.NewReader(r)
	cr.Comma, cr.ReuseRecord = comma, true
	rec, err := cr.Read()
	if err != nil {
		return nil, nil, err
	}
	header := make([]string, len(rec))
	for i, name := range rec {
		header[i], _ = DecodeString(strings.TrimSpace(name))
	}
	return cr, header, nil
}

// HeaderError places err, about the header cr has just read, at its line.
func HeaderError(cr *csv.Reader, path string, err error) error {
	line, _ := cr.FieldPos(0)
	return &ParseError{File: path, Line: line, Err: err}
}

// CSVError turns an encoding/csv error into a *ParseError; want and found
// are the header's and the record's lengths, for a field-count error.
func CSVError(err error, path string, want, found int) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("corpus: reading %s: %w", path, err)
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return &ParseError{File: path, Line: pe.StartLine, Err: FieldCountError(want, found)}
	}
	msg := fmt.Errorf("column %d: %w", pe.Column, pe.Err)
	if pe.StartLine != pe.Line {
		msg = fmt.Errorf("%w (record starts at line %d)", msg, pe.StartLine)
	}
	return &ParseError{File: path, Line: pe.Line, Err: msg}
}

// MissingColumn reports a header without the column of the given role.
func MissingColumn(role, name string) error {
	return &MissingFieldError{Role: role, Name: name, header: true}
}

// Column returns the index of the field named name, or -1.
func Column(fields []string, name string) int {
	for i, f := range fields {
		if strings.TrimSpace(f) == name {
			return i
		}
	}
	return -1
}
