package textnb

import (
	"fmt"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/serve"
)

// Kind says what a model file holds: TextModel, TableModel or
// MultiLabelModel; its String names the kind as model file errors do.
type Kind = modelfile.Kind

// The kinds of model.
const (
	TextModel       = modelfile.TextModel       // a Model
	TableModel      = modelfile.TableModel      // a Table
	MultiLabelModel = modelfile.MultiLabelModel // a MultiLabel
)

// Classifier is a model of any kind, as Open returns it: a *Model, a
// *Table or a *MultiLabel. Its methods take an Input, a text or a table
// row, so that a program treats every model file alike; the concrete
// types also predict from their own input (Model.Predict a text,
// Table.Predict a row). Use Kind, or a type switch, to tell which.
type Classifier interface {
	Kind() Kind
	// Classes returns the labels the model predicts, in its order.
	Classes() []string
	// PredictInput predicts the label of in, or a multi-label model's
	// labels. Input of the wrong kind, a row for a text model or a text
	// for a table model, is refused with ErrKind.
	PredictInput(in Input) (Prediction, error)
	// PredictInputs predicts the labels of ins, text on every core; the
	// i-th prediction is that of ins[i], as PredictInput gives it.
	PredictInputs(ins []Input) ([]Prediction, error)
	// ExplainInput predicts the label of in and tells why; a table model
	// has no terms to tell it by (ErrNotExplainable).
	ExplainInput(in Input) (Explained, error)
	// Inspect describes the model, with each class's top most indicative
	// terms (top ≤ 0: none).
	Inspect(top int) (Info, error)
	// Learn adds a document of class label to the model and Unlearn takes
	// one away, as Model.Learn and Model.Unlearn do; the other kinds
	// refuse with ErrNotLearnable.
	Learn(label, text string) error
	Unlearn(label, text string) error
	// Save writes the model to path, replacing the file at once when it
	// is complete.
	Save(path string) error
}

var _ = []Classifier{(*Model)(nil), (*Table)(nil), (*MultiLabel)(nil)}

// Input is what a Classifier classifies: Text for a text or multi-label
// model, Row for a table model (a value for each of Table.Columns).
type Input struct {
	Text string
	Row  []float64
}

// text returns in's text for a model of kind k.
func (in Input) text(k Kind) (string, error) {
	if in.Row != nil {
		return "", fmt.Errorf("%w: a %v classifies texts, not rows", ErrKind, k)
	}
	return in.Text, nil
}

// texts returns the texts of ins for a model of kind k.
func texts(ins []Input, k Kind) ([]string, error) {
	out := make([]string, len(ins))
	for i, in := range ins {
		var err error
		if out[i], err = in.text(k); err != nil {
			return nil, fmt.Errorf("input %d: %w", i, err)
		}
	}
	return out, nil
}

// Explained is ExplainInput's explanation: of a text model's label
// against the runner-up (Label), or of each label a multi-label model
// predicts, most probable first (Labels).
type Explained struct {
	Label  *Explanation       `json:"explanation,omitempty"`
	Labels []LabelExplanation `json:"explanations,omitempty"`
}

// LabelExplanation tells what moved one label's score of a multi-label
// model; see multilabel.LabelExplanation.
type LabelExplanation = multilabel.LabelExplanation

// Open reads a model file of any kind: a text, table or multi-label
// model.
func Open(path string) (Classifier, error) {
	a, err := serve.Open(path)
	switch {
	case err != nil:
		return nil, err
	case a.Text != nil:
		return newModel(a.Text), nil
	case a.Multi != nil:
		return newMultiLabel(a.Multi), nil
	}
	return &Table{t: a.Table}, nil
}
