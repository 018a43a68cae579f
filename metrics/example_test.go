package metrics_test

import (
	"fmt"

	"github.com/textnb/textnb/metrics"
)

func ExampleEvaluator() {
	ev := metrics.NewEvaluator([]string{"spam", "ham"})
	ev.Add("spam", "spam")
	ev.Add("ham", "spam")
	ev.Add("ham", "ham")
	r := ev.Result()
	fmt.Printf("%.3f %.3f %v\n", r.Accuracy, r.PerClass["spam"].Precision, r.Confusion)
	// Output: 0.667 0.500 [[1 0] [1 1]]
}

func ExampleEvaluation() {
	ev := metrics.NewEvaluator([]string{"a", "b"})
	ev.Add("a", "a")
	ev.Add("b", "a")
	r := ev.Result()
	fmt.Printf("n=%d accuracy=%.2f macro-F1=%.3f b.recall=%.1f\n", r.N, r.Accuracy, r.MacroF1, r.PerClass["b"].Recall)
	// Output: n=2 accuracy=0.50 macro-F1=0.333 b.recall=0.0
}

func ExampleClassScores() {
	ev := metrics.NewEvaluator([]string{"spam", "ham"})
	ev.Add("spam", "spam")
	ev.Add("spam", "ham")
	s := ev.Result().PerClass["spam"]
	fmt.Printf("%+v\n", s)
	// Output: {Precision:1 Recall:0.5 F1:0.6666666666666666 Support:2}
}

func ExampleMultiEvaluator() {
	labels := []string{"sport", "finance", "tech"}
	ev := metrics.NewMultiEvaluator(labels)
	// The true labels, the predicted ones (indices into labels) and every
	// label's probability, one document at a time.
	ev.Add([]string{"sport", "finance"}, []int{0, 1}, []float64{0.6, 0.3, 0.1})
	ev.Add([]string{"tech"}, []int{1}, []float64{0.2, 0.5, 0.3})
	r := ev.Result()
	fmt.Printf("micro-F1 %.3f, subset accuracy %.1f, Hamming loss %.3f\n", r.MicroF1, r.SubsetAccuracy, r.HammingLoss)
	// Output: micro-F1 0.667, subset accuracy 0.5, Hamming loss 0.333
}
