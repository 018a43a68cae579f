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

func ExampleEvaluator_AddProba() {
	ev := metrics.NewEvaluator([]string{"ham", "spam"})
	// The true label, the class decided and every class's probability.
	ev.AddProba("ham", 0, []float64{0.9, 0.1})
	ev.AddProba("spam", 1, []float64{0.2, 0.8})
	ev.AddProba("ham", 1, []float64{0.4, 0.6})
	ev.AddProba("ham", 0, []float64{0.7, 0.3})
	r := ev.Result()
	fmt.Printf("log loss %.3f, Brier %.3f, ECE %.3f\n", r.LogLoss, r.Brier, r.ECE)
	fmt.Printf("positive %s, ROC AUC %.3f, recall at 1%% FPR %.2f\n", r.Positive, r.ROCAUC, r.RecallAtFPR["0.01"])
	// Output:
	// log loss 0.400, Brier 0.250, ECE 0.300
	// positive spam, ROC AUC 1.000, recall at 1% FPR 1.00
}
