package textnb

import (
	"fmt"
	"slices"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/serve"
	"github.com/textnb/textnb/table"
)

// Kind says what a model file holds: TextModel or TableModel.
type Kind uint8

// The kinds of model.
const (
	TextModel  = Kind(modelfile.TextModel)  // a Model
	TableModel = Kind(modelfile.TableModel) // a Table
)

// String names the kind as model file errors do.
func (k Kind) String() string { return modelfile.Kind(k).String() }

// Classifier is a model of either kind, as Open returns it: a *Model or a
// *Table. Use Kind, or a type switch, to tell which.
type Classifier interface {
	Kind() Kind
	Classes() []string
	Inspect(top int) (Info, error)
	Save(path string) error
}

// Open reads a model file of either kind.
func Open(path string) (Classifier, error) {
	a, err := serve.Open(path)
	switch {
	case err != nil:
		return nil, err
	case a.Text != nil:
		return newModel(a.Text), nil
	case a.Multi != nil: // until the facade has a multi-label model
		return nil, fmt.Errorf("%s: %w: the file holds a multi-label model, not a text or table model", path, ErrKind)
	}
	return &Table{t: a.Table}, nil
}

// Table is a trained naive Bayes model over the numeric columns of a table
// (Gaussian or Categorical). It is safe for concurrent use.
type Table struct {
	t *table.Table
}

// TrainTable trains a table model on the .csv or .tsv file at path: a
// header row, a "label" column and numeric feature columns.
func TrainTable(path string, cfg TableConfig) (*Table, error) {
	data, err := table.Read(path, "")
	if err != nil {
		return nil, err
	}
	t, err := table.Train(data, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
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

// Inspect describes t: its settings, and each class's training rows and
// per-column statistics. top is not used: tables have no terms.
func (t *Table) Inspect(top int) (Info, error) { return t.t.Inspect(), nil }

// Pipeline returns the underlying table model.
func (t *Table) Pipeline() *table.Table { return t.t }
