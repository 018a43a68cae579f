// Package metrics scores predictions against the truth: accuracy,
// per-class precision, recall and F1, macro-F1 and the confusion matrix of
// single-label classification (Evaluator), and micro and macro scores,
// subset accuracy, Hamming loss and precision–recall breakeven of
// multi-label classification (MultiEvaluator).
//
// An evaluator is told the model's classes, then fed one (truth,
// prediction) pair at a time; Result summarizes what it was fed, without
// holding the pairs (a MultiEvaluator keeps each document's probabilities,
// for the breakeven points). An evaluator is not safe for concurrent use.
// A true label the model does not know is counted, as a class never
// predicted, after the model's own. Scores whose denominator is zero (a
// class never predicted, say) are 0.
package metrics
