package metrics

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/roc"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

// TestProbaScoresByHand checks log loss, Brier, ECE and the reliability
// bins of three classes against values worked out by hand (and log loss
// against scikit-learn 1.2.1's log_loss with eps=1e-15: its default since
// 1.2 clips at the machine epsilon instead).
func TestProbaScoresByHand(t *testing.T) {
	e := NewEvaluator([]string{"a", "b", "c"})
	docs := []struct {
		truth string
		p     []float64
	}{
		{"a", []float64{0.7, 0.2, 0.1}}, // top a .7, right; Brier .09+.04+.01
		{"b", []float64{0.1, 0.8, 0.1}}, // top b .8, right; .01+.04+.01
		{"a", []float64{0.3, 0.3, 0.4}}, // top c .4, wrong; .49+.09+.16
		{"b", []float64{0.5, 0.4, 0.1}}, // top a .5, wrong; .25+.36+.01
		{"a", []float64{0, 0, 1}},       // top c 1, wrong; 1+0+1; p(a) 0 clipped to 1e-15
		{"c", []float64{0.2, 0.5, 0.3}}, // top b .5, wrong; .04+.25+.49
	}
	for _, d := range docs {
		e.AddProba(d.truth, 0, d.p) // the decision (always a) leaves the probability scores alone
	}
	e.AddProba("unknown", 2, []float64{0.1, 0.1, 0.8}) // not scored: the model has no such class
	r := e.Result()
	if r.ProbaScores == nil || r.BinaryScores != nil {
		t.Fatalf("proba scores %v, binary %v", r.ProbaScores, r.BinaryScores)
	}
	if r.N != 7 || r.ProbaScores.N != 6 || r.Accuracy != 3.0/7 {
		t.Errorf("n %d, scored %d, accuracy %g", r.N, r.ProbaScores.N, r.Accuracy)
	}
	// -(ln .7 + ln .8 + ln .3 + ln .4 + ln 1e-15 + ln .3)/6
	wantLL := -(math.Log(0.7) + math.Log(0.8) + math.Log(0.3) + math.Log(0.4) + math.Log(1e-15) + math.Log(0.3)) / 6
	const sklearnLL = 6.407138538448276 // log_loss(y, P, labels=[0, 1, 2], eps=1e-15)
	if !near(r.LogLoss, wantLL) || !near(r.LogLoss, sklearnLL) {
		t.Errorf("log loss %.15g, want %.15g (scikit-learn %.15g)", r.LogLoss, wantLL, sklearnLL)
	}
	if want := 4.34 / 6; !near(r.Brier, want) {
		t.Errorf("Brier %.15g, want %.15g", r.Brier, want)
	}
	// bins 4 (.4 wrong), 5 (.5, .5 wrong), 7 (.7 right), 8 (.8 right), 9 (1 wrong)
	if want := (0.4 + 2*0.5 + 0.3 + 0.2 + 1) / 6; !near(r.ECE, want) {
		t.Errorf("ECE %.15g, want %.15g", r.ECE, want)
	}
	wantBins := map[int][3]float64{4: {1, 0.4, 0}, 5: {2, 0.5, 0}, 7: {1, 0.7, 1}, 8: {1, 0.8, 1}, 9: {1, 1, 0}}
	for b, bin := range r.Reliability {
		w := wantBins[b]
		if bin.Count != int(w[0]) || !near(bin.Confidence, w[1]) || bin.Accuracy != w[2] || !near(bin.Lo, float64(b)/10) || !near(bin.Hi, float64(b+1)/10) {
			t.Errorf("bin %d: %+v, want count %g confidence %g accuracy %g", b, bin, w[0], w[1], w[2])
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"log_loss":`, `"brier":`, `"ece":`, `"reliability":[`} {
		if !strings.Contains(string(js), key) {
			t.Errorf("the JSON lacks %s: %s", key, js)
		}
	}
	if strings.Contains(string(js), "roc_auc") {
		t.Errorf("three classes have no roc_auc: %s", js)
	}
}

// twoClassFixture has ties (0.8, 0.3) and a positive document of
// probability 1e-20.
var twoClassFixture = struct {
	p1 []float64
	y  []int
}{
	p1: []float64{0.9, 0.8, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.3, 0.2, 0.1, 0.05, 0.999, 1e-20},
	y:  []int{1, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1},
}

// TestBinaryScoresSklearn pins two-class scores to scikit-learn 1.2.1:
//
//	P = [[1-a, a] for a in p1]
//	log_loss(y, P, eps=1e-15); 2*brier_score_loss(y, p1); roc_auc_score(y, p1)
//	fpr, tpr, _ = roc_curve(y, p1, drop_intermediate=False); max(tpr[fpr <= f])
func TestBinaryScoresSklearn(t *testing.T) {
	f := twoClassFixture
	for _, tc := range []struct {
		positive, want string // want: the positive class chosen
	}{{"", "no"}, {"yes", "yes"}, {"no", "no"}, {"neither", "no"}} {
		// "yes" (class 1) has 7 documents, "no" 7: the tie picks the second class, "no".
		e := NewEvaluator([]string{"yes", "no"})
		e.Positive = tc.positive
		for i, p := range f.p1 {
			truth := "no"
			if f.y[i] == 1 {
				truth = "yes"
			}
			e.AddProba(truth, 0, []float64{p, 1 - p})
		}
		r := e.Result()
		if r.BinaryScores == nil {
			t.Fatalf("positive %q: no binary scores", tc.positive)
		}
		if r.Positive != tc.want {
			t.Errorf("positive %q: chose %q, want %q", tc.positive, r.Positive, tc.want)
		}
		if !near(r.LogLoss, 2.9142708774720822) || !near(r.Brier, 0.4478572857142857) {
			t.Errorf("log loss %.15g, Brier %.15g", r.LogLoss, r.Brier)
		}
		if !near(r.ROCAUC, 0.7142857142857143) { // the same either way round
			t.Errorf("positive %s: ROC AUC %.15g", r.Positive, r.ROCAUC)
		}
		if r.Positive == "yes" {
			for fpr, want := range map[float64]float64{0.001: 2.0 / 7, 0.01: 2.0 / 7, 0.2: 4.0 / 7, 0.5: 5.0 / 7} {
				if got := roc.RecallAt(r.ROC, fpr); !near(got, want) {
					t.Errorf("recall at FPR %g: %g, want %g", fpr, got, want)
				}
			}
			if r.RecallAtFPR["0.001"] != 2.0/7 || r.RecallAtFPR["0.01"] != 2.0/7 || len(r.RecallAtFPR) != 2 {
				t.Errorf("recall_at_fpr %v", r.RecallAtFPR)
			}
		}
	}
}

// TestBinaryScoresOneClass leaves ROC out when the documents are of one
// class, and proba scores out when no probabilities were given.
func TestBinaryScoresOneClass(t *testing.T) {
	e := NewEvaluator([]string{"ham", "spam"})
	e.AddProba("ham", 0, []float64{0.6, 0.4})
	if r := e.Result(); r.BinaryScores != nil || r.ProbaScores == nil {
		t.Errorf("binary %v, proba %v", r.BinaryScores, r.ProbaScores)
	}
	e = NewEvaluator([]string{"ham", "spam"})
	e.AddProba("ham", 0, nil)
	if r := e.Result(); r.BinaryScores != nil || r.ProbaScores != nil {
		t.Errorf("without probabilities: binary %v, proba %v", r.BinaryScores, r.ProbaScores)
	}
}
