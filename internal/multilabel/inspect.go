package multilabel

import "github.com/textnb/textnb/internal/pipeline"

// Info describes a multi-label model for people: what Inspect returns,
// ready to print as JSON.
type Info struct {
	Kind string `json:"kind"` // "multi-label"
	// Settings are the shared stages' (tokenizer, vocabulary, weighting)
	// and α, as pipeline.Model.Inspect gives them.
	Settings pipeline.Settings `json:"settings"`
	Multi    Settings          `json:"multi"`
	Features int               `json:"features"`
	Terms    int               `json:"terms"` // vocabulary size
	Labels   []LabelInfo       `json:"labels"`
}

// Settings are a model's multi-label settings with every default
// resolved.
type Settings struct {
	Score string `json:"score"` // complement or odds
	// Folds is the number of cross-validation folds that learned the
	// thresholds (and α, unless it was given).
	Folds        int  `json:"folds"`
	MinPositives int  `json:"min_positives"`
	AllowEmpty   bool `json:"allow_empty"`
	Title        int  `json:"title"`    // times a title counts
	Reweight     int  `json:"reweight"` // reweighting passes; 0: none
	// ReweightRate is the reweighting's rate η; 0: none.
	ReweightRate float64 `json:"reweight_rate"`
}

// LabelInfo describes one label of a model.
type LabelInfo struct {
	Name string `json:"name"`
	// Documents is the number of training documents that hold the label.
	Documents float64 `json:"documents"`
	// Threshold is the probability from which the label is predicted.
	Threshold float64 `json:"threshold"`
	// TopWeights are the terms with the largest weights of the label's
	// binary model (what its score sums, before the softmax or sigmoid),
	// among the terms seen in its training documents; ties go to the term
	// more frequent in them.
	TopWeights []pipeline.TermScore `json:"top_weights,omitempty"`
}

// Inspect describes mm, with the top terms of each label by weight
// (top ≤ 0: none). It decodes a loaded model's counts, whose error it
// returns.
func (mm *Model) Inspect(top int) (Info, error) {
	in, err := mm.m.Inspect(top)
	if err != nil {
		return Info{}, err
	}
	c := mm.Multi
	info := Info{
		Kind: "multi-label", Settings: in.Settings, Features: in.Features, Terms: in.Terms,
		Multi: Settings{Score: c.Score.String(), Folds: c.folds(), MinPositives: c.minPositives(), AllowEmpty: c.AllowEmpty,
			Title: c.title(), Reweight: max(c.Reweight, 0), ReweightRate: c.ReweightRate},
	}
	// The inner model's classes are the labels; its priors and log-odds
	// against the other labels (which overlap) mean nothing here.
	info.Settings.UniformPrior = false
	for l, ci := range in.Classes {
		info.Labels = append(info.Labels, LabelInfo{Name: ci.Name, Documents: ci.Documents, Threshold: mm.Thresholds[l], TopWeights: ci.TopWeights})
	}
	return info, nil
}
