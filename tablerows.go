package textnb

import (
	"fmt"

	"github.com/textnb/textnb/internal/numtable"
)

// LabelField returns the name of the training table's label column.
func (t *Table) LabelField() string {
	if t.t.LabelField == "" {
		return "label"
	}
	return t.t.LabelField
}

// PredictRows predicts every row of the .csv or .tsv table at path, whose
// header names t's Columns in any order: fn gets the line where the row
// starts, its label from the column labelField ("": none), and the
// probabilities of t's classes (fn's to keep) with the index of the most
// probable, as Predict gives them. Other columns are ignored unread, so a
// table may carry ids or notes. A missing column, a value that is not a
// finite number or a row that cannot be scored is an error naming the
// file, line and column.
func (t *Table) PredictRows(path, labelField string, fn func(line int, label string, proba []float64, best int) error) error {
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
		proba, best, err := t.t.Proba(nil, x)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, r.Line(), err)
		}
		if err := fn(r.Line(), label, proba, best); err != nil {
			return err
		}
	}
	return r.Err()
}
