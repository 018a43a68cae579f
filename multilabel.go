package textnb

import (
	"slices"
	"sync"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
)

// MultiLabel is a trained multi-label text classifier, which gives a
// document every label whose probability reaches the label's threshold
// (textnb train --multi-label writes one). It is safe for concurrent use.
type MultiLabel struct {
	m          *multilabel.Model
	predictors sync.Pool // of *multilabel.Predictor
}

// TrainMultiLabel trains a multi-label model on docs with cfg, the
// tokenizer, vocabulary and weighting shared by the labels, and mc, the
// multi-label settings, as textnb train --multi-label does.
func TrainMultiLabel(docs []MultiLabelDocument, cfg Config, mc MultiLabelConfig) (*MultiLabel, error) {
	m, _, err := multilabel.Train(cfg, mc, docs)
	if err != nil {
		return nil, err
	}
	return newMultiLabel(m), nil
}

func newMultiLabel(m *multilabel.Model) *MultiLabel {
	return &MultiLabel{m: m, predictors: sync.Pool{New: func() any { return m.NewPredictor() }}}
}

// Save writes m to path, replacing the file at once when it is complete.
func (m *MultiLabel) Save(path string) error { return modelfile.Save(path, m.m) }

// Kind returns MultiLabelModel.
func (m *MultiLabel) Kind() Kind { return MultiLabelModel }

// Classes returns the labels, in the model's order.
func (m *MultiLabel) Classes() []string { return slices.Clone(m.m.Labels) }

// prediction names the labels of a multi-label prediction.
func (m *MultiLabel) prediction(proba []float64, labels []int) Prediction {
	p := Prediction{Labels: make([]string, len(labels)), Proba: make([]ClassProb, len(proba))}
	for i, l := range labels {
		p.Labels[i] = m.m.Labels[l]
	}
	if len(labels) > 0 {
		p.Label = p.Labels[0]
	}
	for l, v := range proba {
		p.Proba[l] = ClassProb{Label: m.m.Labels[l], Prob: v}
	}
	return p
}

// Predict returns the labels of text, those whose probability reaches
// their threshold (or the most probable one, unless the model allows
// none), most probable first, and every label's probability.
func (m *MultiLabel) Predict(text string) Prediction {
	p := m.predictors.Get().(*multilabel.Predictor)
	defer m.predictors.Put(p)
	proba := p.Proba(nil, text)
	return m.prediction(proba, p.Decide(nil, proba))
}

// PredictBatch predicts the labels of texts on every core. The i-th
// prediction is that of texts[i], as Predict would return it.
func (m *MultiLabel) PredictBatch(texts []string) []Prediction {
	out := make([]Prediction, 0, len(texts))
	b := m.m.NewBatch(func(p multilabel.Prediction) { out = append(out, m.prediction(p.Proba, p.Labels)) })
	for _, t := range texts {
		b.Add("", nil, t)
	}
	b.Close()
	return out
}

// Explain predicts the labels of text and explains each, most probable
// first.
func (m *MultiLabel) Explain(text string) []LabelExplanation {
	p := m.predictors.Get().(*multilabel.Predictor)
	defer m.predictors.Put(p)
	return p.Explain(text, p.Decide(nil, p.Proba(nil, text)))
}

// PredictInput predicts the labels of in's Text, as Predict does; a Row
// is refused with ErrKind.
func (m *MultiLabel) PredictInput(in Input) (Prediction, error) {
	text, err := in.text(MultiLabelModel)
	if err != nil {
		return Prediction{}, err
	}
	return m.Predict(text), nil
}

// PredictInputs predicts the labels of the Texts of ins, as PredictBatch
// does.
func (m *MultiLabel) PredictInputs(ins []Input) ([]Prediction, error) {
	texts, err := texts(ins, MultiLabelModel)
	if err != nil {
		return nil, err
	}
	return m.PredictBatch(texts), nil
}

// ExplainInput explains the labels of in's Text, as Explain does, in
// Explained.Labels.
func (m *MultiLabel) ExplainInput(in Input) (Explained, error) {
	text, err := in.text(MultiLabelModel)
	if err != nil {
		return Explained{}, err
	}
	return Explained{Labels: m.Explain(text)}, nil
}

// Inspect describes m as Info: its shared settings, and its labels as
// Classes, each with its training documents and top terms by weight (top
// ≤ 0: none). Thresholds has the thresholds, and MultiLabelPipeline.Inspect
// the multi-label settings too.
func (m *MultiLabel) Inspect(top int) (Info, error) {
	mi, err := m.m.Inspect(top)
	if err != nil {
		return Info{}, err
	}
	info := Info{Kind: mi.Kind, Settings: mi.Settings, Features: mi.Features, Terms: mi.Terms}
	for _, l := range mi.Labels {
		info.Classes = append(info.Classes, pipeline.ClassInfo{Name: l.Name, Documents: l.Documents, TopWeights: l.TopWeights})
	}
	return info, nil
}

// Learn returns ErrNotLearnable: a multi-label model does not learn.
func (m *MultiLabel) Learn(label, text string) error { return ErrNotLearnable }

// Unlearn returns ErrNotLearnable.
func (m *MultiLabel) Unlearn(label, text string) error { return ErrNotLearnable }

// Pipeline returns the underlying multi-label engine's model.
func (m *MultiLabel) Pipeline() *MultiLabelPipeline { return m.m }
