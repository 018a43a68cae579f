package metrics

import (
	"cmp"
	"slices"

	"github.com/textnb/textnb/internal/tally"
)

// LabelScores are one label's scores in a multi-label evaluation.
type LabelScores struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	// Breakeven is the precision (equal to the recall) of the Support
	// documents the label scores highest.
	Breakeven float64 `json:"breakeven"`
	Support   int     `json:"support"`
	Predicted int     `json:"predicted"`
}

// MultiEvaluation compares predicted with true label sets.
type MultiEvaluation struct {
	N int `json:"n"`
	// Labels are the model's, then any met only in the test data.
	Labels         []string `json:"labels"`
	MicroPrecision float64  `json:"micro_precision"`
	MicroRecall    float64  `json:"micro_recall"`
	MicroF1        float64  `json:"micro_f1"`
	MacroPrecision float64  `json:"macro_precision"`
	MacroRecall    float64  `json:"macro_recall"`
	MacroF1        float64  `json:"macro_f1"`
	// SubsetAccuracy is the fraction of documents whose label set is
	// predicted exactly; HammingLoss the fraction of document-label
	// decisions that are wrong.
	SubsetAccuracy float64 `json:"subset_accuracy"`
	HammingLoss    float64 `json:"hamming_loss"`
	// The breakeven points of Rennie et al. (2003): per label, the
	// precision of the Support documents it scores highest, where
	// precision equals recall; micro pools them, macro averages them.
	MicroBreakeven float64                `json:"micro_breakeven"`
	MacroBreakeven float64                `json:"macro_breakeven"`
	PerLabel       map[string]LabelScores `json:"per_label"`
}

// MultiEvaluator accumulates multi-label predictions. It keeps every
// document's probabilities (for the breakeven points): 8 bytes per
// document and label.
type MultiEvaluator struct {
	labels []string
	index  map[string]int
	model  int // the model's labels, the first
	conf   []tally.Confusion
	proba  []float64 // n × model
	truth  [][]int
	exact  int
	n      int
}

// NewMultiEvaluator returns a MultiEvaluator for a model's labels.
func NewMultiEvaluator(labels []string) *MultiEvaluator {
	e := &MultiEvaluator{index: map[string]int{}, model: len(labels)}
	for _, l := range labels {
		e.label(l)
	}
	return e
}

func (e *MultiEvaluator) label(s string) int {
	if i, ok := e.index[s]; ok {
		return i
	}
	e.index[s] = len(e.labels)
	e.labels = append(e.labels, s)
	e.conf = append(e.conf, tally.Confusion{TN: e.n})
	return len(e.labels) - 1
}

// Add records one document: its true labels, the predicted ones (indices
// into the model's labels) and every model label's probability.
func (e *MultiEvaluator) Add(truth []string, predicted []int, proba []float64) {
	t := make([]int, 0, len(truth))
	for _, s := range truth {
		if i := e.label(s); !slices.Contains(t, i) {
			t = append(t, i)
		}
	}
	slices.Sort(t)
	p := slices.Sorted(slices.Values(predicted))
	p = slices.Compact(p)
	if slices.Equal(t, p) {
		e.exact++
	}
	for l := range e.conf {
		e.conf[l].Add(slices.Contains(p, l), slices.Contains(t, l))
	}
	e.proba = append(e.proba, proba[:e.model]...)
	e.truth = append(e.truth, t)
	e.n++
}

// Result computes the scores. Macro averages run over the labels with
// support or predictions, as Evaluation's macro-F1 does.
func (e *MultiEvaluator) Result() MultiEvaluation {
	r := MultiEvaluation{N: e.n, Labels: slices.Clone(e.labels), PerLabel: map[string]LabelScores{}}
	var all tally.Confusion
	used, withSupport := 0, 0
	var beTP, beN int
	for l, c := range e.conf {
		all.TP, all.FP, all.FN, all.TN = all.TP+c.TP, all.FP+c.FP, all.FN+c.FN, all.TN+c.TN
		s := LabelScores{Precision: tally.Ratio(c.TP, c.TP+c.FP), Recall: tally.Ratio(c.TP, c.TP+c.FN), F1: c.F1(),
			Support: c.TP + c.FN, Predicted: c.TP + c.FP}
		if s.Support > 0 {
			tp := e.breakevenTP(l, s.Support)
			s.Breakeven = tally.Ratio(tp, s.Support)
			beTP, beN = beTP+tp, beN+s.Support
			r.MacroBreakeven += s.Breakeven
			withSupport++
		}
		if s.Support > 0 || s.Predicted > 0 {
			r.MacroPrecision += s.Precision
			r.MacroRecall += s.Recall
			r.MacroF1 += s.F1
			used++
		}
		r.PerLabel[e.labels[l]] = s
	}
	if used > 0 {
		r.MacroPrecision /= float64(used)
		r.MacroRecall /= float64(used)
		r.MacroF1 /= float64(used)
	}
	if withSupport > 0 {
		r.MacroBreakeven /= float64(withSupport)
	}
	r.MicroPrecision, r.MicroRecall, r.MicroF1 = tally.Ratio(all.TP, all.TP+all.FP), tally.Ratio(all.TP, all.TP+all.FN), all.F1()
	r.MicroBreakeven = tally.Ratio(beTP, beN)
	r.SubsetAccuracy = tally.Ratio(e.exact, e.n)
	r.HammingLoss = tally.Ratio(all.FP+all.FN, e.n*len(e.labels))
	return r
}

// breakevenTP returns how many of the k documents label l scores highest
// carry it (ties: the earlier document first). A label the model lacks
// scores nothing.
func (e *MultiEvaluator) breakevenTP(l, k int) int {
	if l >= e.model {
		return 0
	}
	docs := make([]int, e.n)
	for i := range docs {
		docs[i] = i
	}
	slices.SortStableFunc(docs, func(a, b int) int { return cmp.Compare(e.proba[b*e.model+l], e.proba[a*e.model+l]) })
	tp := 0
	for _, i := range docs[:k] {
		tp += tally.BoolInt(slices.Contains(e.truth[i], l))
	}
	return tp
}
