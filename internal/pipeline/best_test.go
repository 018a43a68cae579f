package pipeline

import "testing"

// TestBestPairsFolds checks the rule that keeps the plain default: a lead
// that every fold shows wins however hard the folds are, and a lead that
// the folds disagree on does not, though the two leads have the same mean.
func TestBestPairsFolds(t *testing.T) {
	plain := Config{Classifier: Complement, Alpha: 0.3}
	result := func(alpha float64, acc ...float64) *CVResult {
		r := &CVResult{Config: Config{Classifier: Complement, Alpha: alpha, Reweight: -1}}
		for _, a := range acc {
			r.Folds = append(r.Folds, FoldResult{Accuracy: a})
		}
		xs := make([]float64, len(acc))
		copy(xs, acc)
		r.Accuracy = meanSD(xs)
		return r
	}
	// The folds differ by far more than the settings: each setting's sd
	// over √folds exceeds the lead, the paired differences' does not.
	steady := []*CVResult{
		result(0.3, 0.90, 0.92, 0.94, 0.96, 0.98),
		result(0.1, 0.902, 0.922, 0.942, 0.962, 0.982),
	}
	if win, second := best(steady, plain); win != 1 || second != 0 {
		t.Errorf("a lead in every fold: best %d, runner-up %d; want 1, 0", win, second)
	}
	lucky := []*CVResult{
		result(0.3, 0.90, 0.92, 0.94, 0.96, 0.98),
		result(0.1, 0.91, 0.93, 0.93, 0.96, 0.98),
	}
	if win, second := best(lucky, plain); win != 0 || second != 1 {
		t.Errorf("a lead the folds disagree on: best %d, runner-up %d; want the plain default 0, then 1", win, second)
	}
}
