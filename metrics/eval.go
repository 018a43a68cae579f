package metrics

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/textnb/textnb/internal/tally"
)

// ClassScores are one class's precision, recall, F1 and support.
type ClassScores struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Support   int     `json:"support"`
}

// Evaluation compares predicted with true labels.
type Evaluation struct {
	N        int     `json:"n"`
	Accuracy float64 `json:"accuracy"`
	MacroF1  float64 `json:"macro_f1"`
	// Labels are the model's classes, then any label met only in the test
	// data (never predicted, so always an error).
	Labels []string `json:"labels"`
	// Classes is the number of the model's classes: Labels[Classes:] are
	// the labels it does not know, met by UnknownDocs documents.
	Classes     int                    `json:"classes"`
	UnknownDocs int                    `json:"unknown_documents"`
	PerClass    map[string]ClassScores `json:"per_class"`
	// Confusion[i][j] counts documents of true label i predicted as j. It
	// is nil when there are more than MaxDenseLabels labels: Confused
	// holds the same counts off the diagonal in any case.
	Confusion [][]int `json:"confusion,omitempty"`
	// Confused lists every pair of a true and a different predicted label
	// with its count, most frequent first (ties by true, then predicted
	// label index).
	Confused []ConfusedPair `json:"confused"`
	// The probability scores, nil unless documents came with their
	// probabilities (AddProba); BinaryScores only for two classes, both
	// with documents.
	*ProbaScores
	*BinaryScores
}

// MaxDenseLabels bounds the labels for which an Evaluation holds the dense
// confusion matrix, which takes memory in the square of their number.
const MaxDenseLabels = 1024

// ConfusedPair counts the documents of one true label predicted as another.
type ConfusedPair struct {
	True      int `json:"true"` // index into Evaluation.Labels
	Predicted int `json:"predicted"`
	Count     int `json:"count"`
}

// UnknownLabels returns the test labels that are not classes of the model.
func (r Evaluation) UnknownLabels() []string { return r.Labels[r.Classes:] }

// Misclassified counts the documents off the confusion matrix's diagonal.
func (r Evaluation) Misclassified() int {
	n := 0
	for _, p := range r.Confused {
		n += p.Count
	}
	return n
}

// LabelOrder returns the indices of r.Labels in the order reports list
// them: by name, or as the model has them.
func (r Evaluation) LabelOrder(modelOrder bool) []int {
	idx := make([]int, len(r.Labels))
	for i := range idx {
		idx[i] = i
	}
	if !modelOrder {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(r.Labels[a], r.Labels[b]) })
	}
	return idx
}

// Evaluator accumulates predictions for an Evaluation. Its memory grows
// with the labels and the distinct confused pairs, never with their square
// (and, for a two-class model's ROC, with the documents added by
// AddProba).
type Evaluator struct {
	// Positive names the positive class of a two-class model's
	// BinaryScores; "" (or a name not of the model) means the minority
	// class of the documents, the model's second class if they tie.
	Positive string

	classes int // the model's, the first labels
	labels  []string
	index   map[string]int
	// per label: documents, documents predicted as it, and both
	support, predicted, correct []int
	confused                    map[[2]int32]int // off the diagonal
	n                           int
	proba                       proba
}

// NewEvaluator returns an Evaluator for a model's classes.
func NewEvaluator(classes []string) *Evaluator {
	e := &Evaluator{index: map[string]int{}, confused: map[[2]int32]int{}}
	for _, c := range classes {
		e.label(c)
	}
	e.classes = len(e.labels)
	return e
}

func (e *Evaluator) label(s string) int {
	if i, ok := e.index[s]; ok {
		return i
	}
	i := len(e.labels)
	e.index[s] = i
	e.labels = append(e.labels, s)
	e.support = append(e.support, 0)
	e.predicted = append(e.predicted, 0)
	e.correct = append(e.correct, 0)
	return i
}

// Add records one document with its true and predicted labels.
func (e *Evaluator) Add(truth, predicted string) {
	e.add(e.label(truth), e.label(predicted))
}

// addClass is Add with the predicted class given by its index in the
// classes of NewEvaluator; it panics if predicted is not such an index.
func (e *Evaluator) addClass(truth string, predicted int) {
	if predicted < 0 || predicted >= e.classes {
		panic(fmt.Sprintf("metrics: Evaluator.AddProba: class %d of %d", predicted, e.classes))
	}
	e.add(e.label(truth), predicted)
}

func (e *Evaluator) add(truth, predicted int) {
	e.support[truth]++
	e.predicted[predicted]++
	if truth == predicted {
		e.correct[truth]++
	} else {
		e.confused[[2]int32{int32(truth), int32(predicted)}]++
	}
	e.n++
}

// Result computes the scores. Macro-F1 averages over every label with
// support or predictions, as scikit-learn's f1_score(average="macro").
func (e *Evaluator) Result() Evaluation {
	labels := slices.Clip(slices.Clone(e.labels))
	r := Evaluation{N: e.n, Labels: labels, Classes: e.classes, PerClass: make(map[string]ClassScores, len(labels))}
	correct, used := 0, 0
	for i, name := range labels {
		tp, support, predicted := e.correct[i], e.support[i], e.predicted[i]
		correct += tp
		if i >= e.classes {
			r.UnknownDocs += support
		}
		s := ClassScores{Support: support, Precision: tally.Ratio(tp, predicted), Recall: tally.Ratio(tp, support)}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		r.PerClass[name] = s
		if support > 0 || predicted > 0 {
			r.MacroF1 += s.F1
			used++
		}
	}
	r.Accuracy = tally.Ratio(correct, e.n)
	r.ProbaScores = e.proba.scores()
	if e.classes == 2 {
		pos, ok := e.index[e.Positive]
		if !ok || pos >= e.classes || e.Positive == "" {
			pos = -1
		}
		r.BinaryScores = e.proba.binary(labels, pos)
	}
	if used > 0 {
		r.MacroF1 /= float64(used)
	}
	r.Confused = make([]ConfusedPair, 0, len(e.confused))
	for k, n := range e.confused {
		r.Confused = append(r.Confused, ConfusedPair{True: int(k[0]), Predicted: int(k[1]), Count: n})
	}
	slices.SortFunc(r.Confused, func(a, b ConfusedPair) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.True, b.True), cmp.Compare(a.Predicted, b.Predicted))
	})
	if len(labels) <= MaxDenseLabels {
		r.Confusion = make([][]int, len(labels))
		cells := make([]int, len(labels)*len(labels))
		for i := range r.Confusion {
			r.Confusion[i] = cells[i*len(labels) : (i+1)*len(labels) : (i+1)*len(labels)]
			r.Confusion[i][i] = e.correct[i]
		}
		for _, p := range r.Confused {
			r.Confusion[p.True][p.Predicted] = p.Count
		}
	}
	return r
}
