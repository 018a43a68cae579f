package textnb

import (
	"fmt"

	"github.com/textnb/textnb/internal/numtable"
)

// Proba writes the probabilities of t's classes for row into dst (grown as
// needed) and returns them with the most probable class's index, as
// Predict does without naming the classes.
func (t *Table) Proba(dst, row []float64) (proba []float64, best int, err error) {
	return t.t.Proba(dst, row)
}

// LabelField returns the name of the training table's label column.
func (t *Table) LabelField() string {
	if t.t.LabelField == "" {
		return "label"
	}
	return t.t.LabelField
}

// ReadRows calls fn on every row of the .csv or .tsv table at path, whose
// header names t's Columns in any order, with the line where the row
// starts, its label from the column labelField ("": none) and its values
// of t's Columns, in their order (fn must not keep row). Other columns
// are ignored unread, so a table may carry ids or notes. A missing column
// or a value that is not a finite number is an error naming the file,
// line and column.
func (t *Table) ReadRows(path, labelField string, fn func(line int, label string, row []float64) error) error {
	r, err := numtable.OpenTable(path, labelField)
	if err != nil {
		return err
	}
	defer r.Close()
	cols, err := t.t.Columns(nil, r.Header)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	x := make([]float64, len(cols))
	for r.Next() {
		for j, c := range cols {
			if x[j], err = r.Float(c); err != nil {
				return err
			}
		}
		label, err := r.Label()
		if err != nil {
			return err
		}
		if err := fn(r.Line(), label, x); err != nil {
			return err
		}
	}
	return r.Err()
}
