package numtable

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/textnb/textnb/internal/textfile"
)

// Table is a numeric data set: one row per sample, every column except the
// label column a float feature.
type Table struct {
	Header   []string    // feature column names, in file order, label column removed
	Features [][]float64 // Features[i][j] is row i's value for Header[j]
	Labels   []string    // Labels[i] is row i's label
}

// tableChunk is how many rows share one backing array of features.
const tableChunk = 1024

// ReadTable reads a numeric .csv or .tsv table with a header row. labelField
// names the label column ("" means "label"). A cell that is not a finite
// number is a *ParseError naming the file, line and column.
func ReadTable(path string, labelField string) (Table, error) {
	if labelField == "" {
		labelField = "label"
	}
	r, err := OpenTable(path, labelField)
	if err != nil {
		return Table{}, err
	}
	defer r.Close()
	t := Table{Header: make([]string, 0, len(r.Header)-1)}
	for i, name := range r.Header {
		if i != r.label {
			t.Header = append(t.Header, name)
		}
	}
	var chunk []float64
	var labels textfile.Interner // one copy of each label, not of every row
	for r.Next() {
		if len(chunk) == 0 {
			chunk = make([]float64, tableChunk*len(t.Header))
		}
		row := chunk[:len(t.Header):len(t.Header)]
		chunk = chunk[len(t.Header):]
		if err := t.addRow(r, row, &labels); err != nil {
			return Table{}, err
		}
	}
	if err := r.Err(); err != nil {
		return Table{}, err
	}
	return t, nil
}

// addRow parses r's row into row and appends it with its label.
func (t *Table) addRow(r *TableReader, row []float64, labels *textfile.Interner) error {
	j := 0
	for i := range r.Header {
		if i == r.label {
			continue
		}
		v, err := r.Float(i)
		if err != nil {
			return err
		}
		row[j] = v
		j++
	}
	label, err := r.Label()
	if err != nil {
		return err
	}
	t.Features = append(t.Features, row)
	t.Labels = append(t.Labels, labels.Intern(label))
	return nil
}

// A TableReader reads a numeric .csv or .tsv table with a header row one row
// at a time, parsing only the cells asked for: a caller that needs some
// columns (a model's) may leave others, such as ids or notes, unparsed.
type TableReader struct {
	// Header holds the column names, trimmed and decoded as text is, the
	// label column included.
	Header []string
	path   string
	f      io.Closer
	cr     *csv.Reader
	label  int // the label column's index, or -1
	rec    []string
	rows   int
	err    error
}

// OpenTable opens the table at path and reads its header. labelField names
// the label column, which must exist; "" means the rows carry no label
// (unlike ReadTable, for which "" means "label").
func OpenTable(path, labelField string) (*TableReader, error) {
	comma := ','
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
	case ".tsv":
		comma = '\t'
	default:
		return nil, fmt.Errorf("%w: %s: a table is a .csv or .tsv file", textfile.ErrUnsupported, path)
	}
	f, cr, header, _, err := textfile.OpenCSV(path, comma)
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %s", textfile.ErrEmptyCorpus, path)
	}
	if err != nil {
		return nil, err
	}
	r := &TableReader{Header: header, path: path, f: f, cr: cr, label: -1}
	if labelField != "" {
		if r.label = textfile.Column(header, labelField); r.label < 0 {
			f.Close()
			return nil, textfile.HeaderError(cr, path, textfile.MissingColumn("label", labelField))
		}
	}
	return r, nil
}

// Next reads the next row, reporting false at the end of the table or at an
// error, which Err then returns. A table without rows is an error wrapping
// textfile.ErrEmptyCorpus.
func (r *TableReader) Next() bool {
	if r.err != nil {
		return false
	}
	rec, err := r.cr.Read()
	switch {
	case errors.Is(err, io.EOF) && r.rows == 0:
		r.err = fmt.Errorf("%w: %s has a header but no rows", textfile.ErrEmptyCorpus, r.path)
	case errors.Is(err, io.EOF):
		return false
	case err != nil:
		r.err = textfile.CSVError(err, r.path, r.cr.FieldsPerRecord, len(rec))
	}
	if r.err != nil {
		return false
	}
	r.rec = rec
	r.rows++
	return true
}

// Err returns the error that stopped Next, or nil at the end of the table.
func (r *TableReader) Err() error { return r.err }

// Line returns the line where the current row starts.
func (r *TableReader) Line() int {
	line, _ := r.cr.FieldPos(0)
	return line
}

// Float parses column i of the current row, which Next must have read; i
// indexes Header. A cell that is not a finite number is a *ParseError naming
// the file, line and column.
func (r *TableReader) Float(i int) (float64, error) {
	cell := r.rec[i]
	v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		line, _ := r.cr.FieldPos(i)
		return 0, &textfile.ParseError{File: r.path, Line: line,
			Err: fmt.Errorf("column %d (%q): %q is not a finite number", i+1, r.Header[i], cell)}
	}
	return v, nil
}

// Label returns the current row's label, "" for a table read without a
// label column; an empty label is a *ParseError wrapping textfile.ErrEmptyLabel.
// The label may share memory with the row: a caller keeping many labels
// should keep copies (ReadTable keeps one per distinct label).
func (r *TableReader) Label() (string, error) {
	if r.label < 0 {
		return "", nil
	}
	label, _ := textfile.DecodeString(r.rec[r.label])
	if label == "" {
		line, _ := r.cr.FieldPos(r.label)
		return "", &textfile.ParseError{File: r.path, Line: line, Err: textfile.ErrEmptyLabel}
	}
	return label, nil
}

// Close closes the file.
func (r *TableReader) Close() error { return r.f.Close() }
