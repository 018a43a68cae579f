package corpus

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
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
	var t Table
	if labelField == "" {
		labelField = "label"
	}
	comma := ','
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
	case ".tsv":
		comma = '\t'
	default:
		return t, fmt.Errorf("%w: %s: a table is a .csv or .tsv file", ErrUnsupported, path)
	}
	f, r, err := openLines(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	cr := csv.NewReader(r)
	cr.Comma = comma
	cr.ReuseRecord = true
	header, li, err := tableHeader(cr, path, labelField)
	if err != nil {
		return t, err
	}
	t.Header = header
	var chunk []float64
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Table{}, csvError(err, path, cr.FieldsPerRecord, len(rec))
		}
		if len(chunk) == 0 {
			chunk = make([]float64, tableChunk*len(header))
		}
		row := chunk[:len(header):len(header)]
		chunk = chunk[len(header):]
		if err := t.addRow(cr, path, rec, li, row); err != nil {
			return Table{}, err
		}
	}
	if len(t.Labels) == 0 {
		return Table{}, fmt.Errorf("%w: %s", ErrEmptyCorpus, path)
	}
	return t, nil
}

// tableHeader reads the header and returns the feature names and the label
// column's index.
func tableHeader(cr *csv.Reader, path, labelField string) ([]string, int, error) {
	rec, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, 0, fmt.Errorf("%w: %s", ErrEmptyCorpus, path)
	}
	if err != nil {
		return nil, 0, csvError(err, path, 0, len(rec))
	}
	li := column(rec, labelField)
	if li < 0 {
		line, _ := cr.FieldPos(0)
		return nil, 0, &ParseError{File: path, Line: line,
			Err: fmt.Errorf("%w: header has no column %q", ErrMissingField, labelField)}
	}
	header := make([]string, 0, len(rec)-1)
	for i, name := range rec {
		if i != li {
			name, _ = decodeString(strings.TrimSpace(name))
			header = append(header, name)
		}
	}
	return header, li, nil
}

// addRow parses rec into row and appends it with its label.
func (t *Table) addRow(cr *csv.Reader, path string, rec []string, li int, row []float64) error {
	j := 0
	for i, cell := range rec {
		if i == li {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			line, _ := cr.FieldPos(i)
			return &ParseError{File: path, Line: line,
				Err: fmt.Errorf("column %d (%q): %q is not a finite number", i+1, t.Header[j], cell)}
		}
		row[j] = v
		j++
	}
	label, _ := decodeString(rec[li])
	if label == "" {
		line, _ := cr.FieldPos(li)
		return &ParseError{File: path, Line: line, Err: ErrEmptyLabel}
	}
	t.Features = append(t.Features, row)
	t.Labels = append(t.Labels, label)
	return nil
}
