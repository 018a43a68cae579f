package textnb

import (
	"fmt"
	"slices"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/table"
)

// Table is a trained naive Bayes model over the numeric columns of a table
// (Gaussian or Categorical). It is safe for concurrent use.
type Table struct {
	t *table.Table
}

// TrainTable trains a table model on the .csv or .tsv file at path: a
// header row, a label column (cfg.LabelField) and numeric feature columns.
// A cell that is not a finite number is an error naming the file, line
// and column.
func TrainTable(path string, cfg TableConfig) (*Table, error) {
	data, err := table.Read(path, cfg.LabelField)
	if err != nil {
		return nil, err
	}
	t, err := table.Train(data, table.Config{Kind: cfg.Kind, Bins: cfg.Bins, Alpha: cfg.Alpha, VarSmoothing: cfg.VarSmoothing})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.LabelField != "label" {
		t.LabelField = cfg.LabelField // so that LabelField names it to eval
	}
	return &Table{t: t}, nil
}

// Save writes t to path, replacing the file at once when it is complete.
func (t *Table) Save(path string) error { return modelfile.Save(path, t.t) }

// Kind returns TableModel.
func (t *Table) Kind() Kind { return TableModel }

// Classes returns the labels the model predicts, in its order.
func (t *Table) Classes() []string { return slices.Clone(t.t.Classes) }

// Columns returns the names of the feature columns, in the order Predict
// takes their values.
func (t *Table) Columns() []string { return slices.Clone(t.t.Features) }

// Predict returns the most probable label of a row of values, one per
// column of Columns, and the probabilities of all labels.
func (t *Table) Predict(row []float64) (Prediction, error) {
	proba, best, err := t.t.Proba(nil, row)
	if err != nil {
		return Prediction{}, err
	}
	return prediction(t.t.Classes, proba, best), nil
}

// PredictInput predicts the label of in's Row; see Predict.
func (t *Table) PredictInput(in Input) (Prediction, error) {
	if in.Text != "" {
		return Prediction{}, fmt.Errorf("%w: a table model classifies rows, not texts", ErrKind)
	}
	return t.Predict(in.Row)
}

// PredictInputs predicts the labels of the Rows of ins, in order. It
// stops at the first row that fails, naming it.
func (t *Table) PredictInputs(ins []Input) ([]Prediction, error) {
	out := make([]Prediction, len(ins))
	for i, in := range ins {
		var err error
		if out[i], err = t.PredictInput(in); err != nil {
			return nil, fmt.Errorf("input %d: %w", i, err)
		}
	}
	return out, nil
}

// ExplainInput returns ErrNotExplainable: a table has no terms.
func (t *Table) ExplainInput(Input) (Explained, error) { return Explained{}, ErrNotExplainable }

// Learn returns ErrNotLearnable: a table model does not learn.
func (t *Table) Learn(label, text string) error { return ErrNotLearnable }

// Unlearn returns ErrNotLearnable.
func (t *Table) Unlearn(label, text string) error { return ErrNotLearnable }

// Inspect describes t: its settings, and each class's training rows and
// per-column statistics. top is not used: tables have no terms.
func (t *Table) Inspect(top int) (Info, error) { return t.t.Inspect(), nil }
