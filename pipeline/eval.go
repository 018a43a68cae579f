package pipeline

import "fmt"

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
	Labels   []string               `json:"labels"`
	PerClass map[string]ClassScores `json:"per_class"`
	// Confusion[i][j] counts documents of true label i predicted as j.
	Confusion [][]int `json:"confusion"`
}

// Evaluator accumulates predictions for an Evaluation.
type Evaluator struct {
	classes   int // the model's, the first labels
	labels    []string
	index     map[string]int
	confusion [][]int
	n         int
}

// NewEvaluator returns an Evaluator for a model's classes.
func NewEvaluator(classes []string) *Evaluator {
	e := &Evaluator{classes: len(classes), index: map[string]int{}}
	for _, c := range classes {
		e.label(c)
	}
	return e
}

func (e *Evaluator) label(s string) int {
	if i, ok := e.index[s]; ok {
		return i
	}
	i := len(e.labels)
	e.index[s] = i
	e.labels = append(e.labels, s)
	for r := range e.confusion {
		e.confusion[r] = append(e.confusion[r], 0)
	}
	e.confusion = append(e.confusion, make([]int, len(e.labels)))
	return i
}

// Add records one document with its true and predicted labels.
func (e *Evaluator) Add(truth, predicted string) {
	e.add(e.label(truth), e.label(predicted))
}

// AddClass is Add with the predicted class given by its index in the
// classes of NewEvaluator, as a Prediction holds it, so that no name is
// looked up. It panics if predicted is not such an index.
func (e *Evaluator) AddClass(truth string, predicted int) {
	if predicted < 0 || predicted >= e.classes {
		panic(fmt.Sprintf("pipeline: Evaluator.AddClass: class %d of %d", predicted, e.classes))
	}
	e.add(e.label(truth), predicted)
}

func (e *Evaluator) add(truth, predicted int) {
	e.confusion[truth][predicted]++
	e.n++
}

// Result computes the scores. Macro-F1 averages over every label with
// support or predictions, as scikit-learn's f1_score(average="macro").
func (e *Evaluator) Result() Evaluation {
	r := Evaluation{N: e.n, Labels: e.labels, Confusion: e.confusion, PerClass: map[string]ClassScores{}}
	correct, used := 0, 0
	for i, name := range e.labels {
		tp, support, predicted := e.confusion[i][i], 0, 0
		for j := range e.labels {
			support += e.confusion[i][j]
			predicted += e.confusion[j][i]
		}
		correct += tp
		s := ClassScores{Support: support, Precision: ratio(tp, predicted), Recall: ratio(tp, support)}
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		r.PerClass[name] = s
		if support > 0 || predicted > 0 {
			r.MacroF1 += s.F1
			used++
		}
	}
	r.Accuracy = ratio(correct, e.n)
	if used > 0 {
		r.MacroF1 /= float64(used)
	}
	return r
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
