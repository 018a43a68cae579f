package multilabel

import (
	"cmp"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/pipeline"
)

// LabelExplanation tells what moved one label's score for a text: Bias
// plus the Weights of Terms equals Score up to rounding.
type LabelExplanation struct {
	Label     int     `json:"-"` // index into Model.Labels
	Name      string  `json:"label"`
	P         float64 `json:"p"`
	Threshold float64 `json:"threshold"`
	// Score is the label's log-odds with OddsScore (its probability is
	// the sigmoid of it). With ComplementScore it is the label's score
	// less the mean of every label's score: the softmax depends only on
	// the scores' differences, so Score_a − Score_b = log(p_a/p_b).
	Score float64 `json:"score"`
	// Bias is the part of Score that no term carries.
	Bias float64 `json:"bias"`
	// Terms are the text's known features, largest |Weight| first; Weight
	// is what the feature adds to Score.
	Terms []pipeline.Contribution `json:"terms"`
}

// Top returns e's first n terms (all if n is 0), largest first, and the
// sum and number of the others: Bias + Σ kept + rest = Score.
func (e LabelExplanation) Top(n int) (kept []pipeline.Contribution, rest float64, others int) {
	return pipeline.TopTerms(e.Terms, n)
}

// Explain scores text and explains each of labels (indices into
// Model.Labels, which must be in range) as a LabelExplanation, in the
// order given. It reads the scoring table at the text's features only,
// for every label with ComplementScore (the mean needs them all); after
// Proba of the same text it does not tokenize the text again.
func (mp *Predictor) Explain(text string, labels []int) []LabelExplanation {
	mm := mp.mm
	proba := mp.Proba(nil, text)
	idx, val := mp.rowOf(text) // Proba's
	L := len(mm.Labels)
	// at[l][q] is label l's weight of the text's q-th feature; ref[q] the
	// reference weight that Score is taken against (0 for odds).
	at := make([][]float64, L)
	bias := make([]float64, L)
	ref := make([]float64, len(idx))
	refBias := 0.0
	complement := mm.Multi.Score == ComplementScore
	for l := range L {
		if !complement && !slices.Contains(labels, l) {
			continue
		}
		at[l], bias[l] = core.WeightsAt(mm.m, make([]float64, 0, len(idx)), l, idx)
		if complement {
			for q := range idx {
				ref[q] += at[l][q] / float64(L)
			}
			refBias += bias[l] / float64(L)
		}
	}
	terms := mm.m.Terms()
	out := make([]LabelExplanation, 0, len(labels))
	for _, l := range labels {
		e := LabelExplanation{Label: l, Name: mm.Labels[l], P: proba[l], Threshold: mm.Thresholds[l],
			Bias: bias[l] - refBias, Terms: make([]pipeline.Contribution, 0, len(idx))}
		e.Score = e.Bias
		for q, j := range idx {
			c := pipeline.Contribution{Term: terms[j], Feature: int(j), Value: val[q], Weight: val[q] * (at[l][q] - ref[q])}
			e.Score += c.Weight
			e.Terms = append(e.Terms, c)
		}
		slices.SortStableFunc(e.Terms, func(a, b pipeline.Contribution) int {
			return cmp.Compare(math.Abs(b.Weight), math.Abs(a.Weight))
		})
		out = append(out, e)
	}
	return out
}
