package textnb

import (
	"slices"
	"sync"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
)

// Model is a trained text classifier. It is safe for concurrent use,
// learning included: Learn and Unlearn may run while other goroutines
// predict, and every prediction that starts after Learn returns sees the
// document learned.
type Model struct {
	m          *pipeline.Model
	predictors sync.Pool // of *pipeline.Predictor: buffers and a tokenizer each
}

func newModel(m *pipeline.Model) *Model {
	return &Model{m: m, predictors: sync.Pool{New: func() any { return m.NewPredictor() }}}
}

// Load reads a text model file written by Save (or by textnb train).
func Load(path string) (*Model, error) {
	m, err := pipeline.Load(path)
	if err != nil {
		return nil, err
	}
	return newModel(m), nil
}

// Save writes m to path. The file is replaced at once, when it is
// complete: a failed Save leaves path as it was.
func (m *Model) Save(path string) error { return modelfile.Save(path, m.m) }

// Kind returns TextModel.
func (m *Model) Kind() Kind { return TextModel }

// Classes returns the labels the model predicts, in its order.
func (m *Model) Classes() []string { return slices.Clone(m.m.Labels()) }

// Prediction is a predicted label and every label's probability. A
// multi-label model predicts a set of Labels, most probable first, and
// Label is the first of them ("" when it predicts none).
type Prediction struct {
	Label  string      `json:"label"`
	Labels []string    `json:"labels,omitempty"` // multi-label models only
	Proba  []ClassProb `json:"proba"`            // in the order of Classes
}

// ClassProb is a label's probability.
type ClassProb struct {
	Label string  `json:"label"`
	Prob  float64 `json:"p"`
}

// prediction names the probabilities of a model's classes.
func prediction(classes []string, proba []float64, best int) Prediction {
	p := Prediction{Label: classes[best], Proba: make([]ClassProb, len(proba))}
	for c, v := range proba {
		p.Proba[c] = ClassProb{Label: classes[c], Prob: v}
	}
	return p
}

// Predict returns the most probable label of text (ties: the first class),
// or the one the model's threshold decides, and the probabilities of all
// labels.
func (m *Model) Predict(text string) Prediction {
	p := m.predictors.Get().(*pipeline.Predictor)
	defer m.predictors.Put(p)
	proba, best := p.Proba(nil, text)
	return prediction(m.m.Labels(), proba, best)
}

// PredictBatch predicts the labels of texts on every core. The i-th
// prediction is that of texts[i], as Predict would return it.
func (m *Model) PredictBatch(texts []string) []Prediction {
	out := make([]Prediction, 0, len(texts))
	b := m.m.NewBatch(func(p pipeline.Prediction) {
		out = append(out, prediction(m.m.Labels(), p.Proba, p.Class))
	})
	for _, t := range texts {
		b.Add("", "", t)
	}
	b.Close()
	return out
}

// PredictInput predicts the label of in's Text, as Predict does; a Row
// is refused with ErrKind.
func (m *Model) PredictInput(in Input) (Prediction, error) {
	text, err := in.text(TextModel)
	if err != nil {
		return Prediction{}, err
	}
	return m.Predict(text), nil
}

// PredictInputs predicts the labels of the Texts of ins, as PredictBatch
// does.
func (m *Model) PredictInputs(ins []Input) ([]Prediction, error) {
	texts, err := texts(ins, TextModel)
	if err != nil {
		return nil, err
	}
	return m.PredictBatch(texts), nil
}

// ExplainInput explains the label of in's Text, as Explain does, in
// Explained.Label.
func (m *Model) ExplainInput(in Input) (Explained, error) {
	text, err := in.text(TextModel)
	if err != nil {
		return Explained{}, err
	}
	e := m.Explain(text)
	return Explained{Label: &e}, nil
}

// SetThreshold makes a two-class model predict label iff its probability
// is at least p, else the other class; Save keeps the threshold. Call it
// before m is shared: it must not run while m predicts.
func (m *Model) SetThreshold(label string, p float64) error {
	t, err := m.m.NewThreshold(label, p)
	if err != nil {
		return err
	}
	m.m.Threshold = &t
	return nil
}

// Explanation tells why a text got its label: each term's signed
// contribution to the score margin of the label over the runner-up, largest
// first.
type Explanation = pipeline.Explanation

// Explain predicts the label of text and explains it.
func (m *Model) Explain(text string) Explanation {
	p := m.predictors.Get().(*pipeline.Predictor)
	defer m.predictors.Put(p)
	return p.Explain(text)
}

// Info describes a model.
type Info = pipeline.Info

// Inspect describes m: its settings and classes, with each class's top
// most indicative terms (top ≤ 0: none).
func (m *Model) Inspect(top int) (Info, error) { return m.m.Inspect(top) }

// Learn adds text, of class label, to m's training counts and refits it,
// as if the document had been in the training corpus (docs/learn.md says
// what that means for each kind of model). A label m lacks becomes a new
// class, unless m is calibrated or has a threshold
// (ErrNewClass). Save writes the learned model.
//
// A raw-count model (Weighting RawCounts, Multinomial or Complement NB)
// learns a document in time proportional to its terms; other models are
// refitted whole on every call, so LearnBatch is the way to learn many.
func (m *Model) Learn(label, text string) error { return m.m.Learn(label, text) }

// Unlearn takes away a document learned (or trained on) with label by
// mistake: learning a document and unlearning it leaves m as it was. A
// document m does not hold is refused (ErrNotLearned).
func (m *Model) Unlearn(label, text string) error { return m.m.Unlearn(label, text) }

// LearnBatch learns docs in order, refitting once; if one fails, those
// before it stay learned.
func (m *Model) LearnBatch(docs []Document) error { return m.m.LearnBatch(examples(docs)) }

// UnlearnBatch unlearns docs in order, refitting once; if one fails,
// those before it stay unlearned.
func (m *Model) UnlearnBatch(docs []Document) error { return m.m.UnlearnBatch(examples(docs)) }

func examples(docs []Document) []pipeline.Example {
	out := make([]pipeline.Example, len(docs))
	for i, d := range docs {
		out[i] = pipeline.Example{Label: d.Label, Text: d.Text}
	}
	return out
}

// Pipeline returns the underlying text engine's model, whose Predictor
// scores into buffers the caller reuses.
func (m *Model) Pipeline() *Pipeline { return m.m }
