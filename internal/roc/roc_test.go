package roc

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

// TestROCTies checks the ROC points by hand: tied scores pass a
// threshold together, and the area counts a tied pair ½.
func TestTies(t *testing.T) {
	roc, auc := Curve([]float64{0.9, 0.5, 0.5, 0.5, 0.1}, []bool{true, true, false, false, false})
	want := []Point{{0, 0, math.Inf(1)}, {0, 0.5, 0.9}, {2.0 / 3, 1, 0.5}, {1, 1, 0.1}}
	if len(roc) != len(want) {
		t.Fatalf("%v, want %v", roc, want)
	}
	for i := range want {
		if !near(roc[i].FPR, want[i].FPR) || roc[i].TPR != want[i].TPR || roc[i].Threshold != want[i].Threshold {
			t.Errorf("point %d: %+v, want %+v", i, roc[i], want[i])
		}
	}
	// pairs: (.9, any negative) 3 wins; (.5+, .5 .5) 2 ties; (.5+, .1) 1 win → 4/6 + 1/6·... = (3+1+1)/6
	if !near(auc, 5.0/6) {
		t.Errorf("AUC %g, want %g", auc, 5.0/6)
	}
	if RecallAt(roc, 0.5) != 0.5 || RecallAt(roc, 2.0/3) != 1 {
		t.Errorf("recall at FPR 0.5 %g, at 2/3 %g", RecallAt(roc, 0.5), RecallAt(roc, 2.0/3))
	}
	if roc, auc := Curve([]float64{0.3, 0.4}, []bool{true, true}); roc != nil || !math.IsNaN(auc) {
		t.Errorf("no negative: %v %g", roc, auc)
	}
	// NaN scores end the ranking, each alone, without hanging.
	if roc, _ := Curve([]float64{math.NaN(), 0.5, math.NaN()}, []bool{true, false, false}); len(roc) != 4 {
		t.Errorf("NaN scores: %v", roc)
	}
}
