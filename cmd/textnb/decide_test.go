package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
)

// heldOutSpam splits spam.tsv: two rows of three to train on, the third
// to evaluate.
func heldOutSpam(t *testing.T) (trainPath, testPath string) {
	t.Helper()
	b, err := os.ReadFile(spamTSV)
	if err != nil {
		t.Fatal(err)
	}
	rows := lines(string(b))
	tr, te := []string{rows[0]}, []string{rows[0]}
	for i, r := range rows[1:] {
		if i%3 == 2 {
			te = append(te, r)
		} else {
			tr = append(tr, r)
		}
	}
	dir := write(t, map[string]string{"train.tsv": strings.Join(tr, "\n") + "\n", "test.tsv": strings.Join(te, "\n") + "\n"})
	return filepath.Join(dir, "train.tsv"), filepath.Join(dir, "test.tsv")
}

type docProba struct {
	truth int
	p     []float64
}

// probaOf returns the model's probabilities for the documents at path.
func probaOf(t *testing.T, model, path string) (*facade.Pipeline, []docProba) {
	t.Helper()
	m, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	pr := m.NewPredictor()
	var docs []docProba
	_, err = corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		p, _ := pr.Proba(nil, d.Text)
		docs = append(docs, docProba{slices.Index(m.Classes, d.Label), p})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, docs
}

type evalJSON struct {
	N           int                `json:"n"`
	Accuracy    float64            `json:"accuracy"`
	Confusion   [][]int            `json:"confusion"`
	LogLoss     *float64           `json:"log_loss"`
	Brier       *float64           `json:"brier"`
	ECE         *float64           `json:"ece"`
	ROCAUC      *float64           `json:"roc_auc"`
	Positive    string             `json:"positive"`
	RecallAtFPR map[string]float64 `json:"recall_at_fpr"`
	Threshold   string             `json:"threshold"`
}

func evalJSONOf(t *testing.T, args ...string) evalJSON {
	t.Helper()
	var r evalJSON
	if err := json.Unmarshal([]byte(mustRun(t, "", append([]string{"eval", "--json"}, args...)...)), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func close9(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }

// TestCLIEvalProbaScores checks eval's probability scores against the
// formulas worked out here from the model's own probabilities: three
// classes, then two with ROC AUC counted pair by pair.
func TestCLIEvalProbaScores(t *testing.T) {
	model := trainTo(t, newsTrain)
	_, docs := probaOf(t, model, newsTest)
	var ll, brier float64
	var binN, binRight [10]float64
	var binConf [10]float64
	for _, d := range docs {
		ll -= math.Log(max(d.p[d.truth], 1e-15))
		top := 0
		for c, p := range d.p {
			y := 0.0
			if c == d.truth {
				y = 1
			}
			brier += (p - y) * (p - y)
			if p > d.p[top] {
				top = c
			}
		}
		b := min(int(d.p[top]*10), 9)
		binN[b]++
		binConf[b] += d.p[top]
		if top == d.truth {
			binRight[b]++
		}
	}
	n := float64(len(docs))
	ece := 0.0
	for b := range binN {
		if binN[b] > 0 {
			ece += binN[b] / n * math.Abs(binRight[b]/binN[b]-binConf[b]/binN[b])
		}
	}
	r := evalJSONOf(t, "-m", model, newsTest)
	if r.LogLoss == nil || r.Brier == nil || r.ECE == nil || r.ROCAUC != nil || r.RecallAtFPR != nil {
		t.Fatalf("news: %+v", r)
	}
	if !close9(*r.LogLoss, ll/n) || !close9(*r.Brier, brier/n) || !close9(*r.ECE, ece) {
		t.Errorf("news: log loss %g brier %g ece %g, want %g %g %g", *r.LogLoss, *r.Brier, *r.ECE, ll/n, brier/n, ece)
	}
	text := mustRun(t, "", "eval", "-m", model, newsTest)
	for _, want := range []string{"log loss  ", "Brier     ", "ECE       ", "reliability (top probability"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "ROC AUC") {
		t.Errorf("a %d-class report has a ROC AUC", len(r.Confusion))
	}

	trainPath, testPath := heldOutSpam(t)
	spamModel := trainTo(t, trainPath)
	m, docs := probaOf(t, spamModel, testPath)
	for _, positive := range []string{"", "spam", "ham"} {
		args := []string{"-m", spamModel, testPath}
		if positive != "" {
			args = append(args, "--positive", positive)
		}
		r := evalJSONOf(t, args...)
		want := positive
		if want == "" {
			want = "spam" // the minority class
		}
		if r.Positive != want || r.ROCAUC == nil || len(r.RecallAtFPR) != 2 {
			t.Fatalf("--positive %q: %+v", positive, r)
		}
		pos := slices.Index(m.Classes, want)
		var wins, pairs float64
		for _, a := range docs {
			for _, b := range docs {
				if a.truth == pos && b.truth != pos {
					pairs++
					switch {
					case a.p[pos] > b.p[pos]:
						wins++
					case a.p[pos] == b.p[pos]:
						wins += 0.5
					}
				}
			}
		}
		if !close9(*r.ROCAUC, wins/pairs) {
			t.Errorf("--positive %q: ROC AUC %g, want %g", positive, *r.ROCAUC, wins/pairs)
		}
		// with no negative document scored above a positive one, recall at any FPR is 1
		if wins == pairs && (r.RecallAtFPR["0.001"] != 1 || r.RecallAtFPR["0.01"] != 1) {
			t.Errorf("separable: recall_at_fpr %v", r.RecallAtFPR)
		}
	}
	if text := mustRun(t, "", "eval", "-m", spamModel, testPath); !strings.Contains(text, "ROC AUC") || !strings.Contains(text, "at FPR ≤ 0.001") {
		t.Errorf("the two-class report lacks ROC AUC or recall at FPR:\n%s", text)
	}
	mustFail(t, 2, []string{"--positive eggs", "ham, spam"}, "eval", "-m", spamModel, "--positive", "eggs", testPath)
	mustFail(t, 2, []string{"--positive", "two-class"}, "eval", "-m", model, "--positive", "sport", newsTest)
}

// TestCLIThreshold trains a threshold into a model and checks that eval,
// predict and inspect follow it, that eval and predict --threshold
// override it, and that a threshold a model cannot take is refused.
func TestCLIThreshold(t *testing.T) {
	trainPath, testPath := heldOutSpam(t)
	plain := trainTo(t, trainPath)
	m, docs := probaOf(t, plain, testPath)
	spam := slices.Index(m.Classes, "spam")
	// accuracy when predicting spam iff p(spam) ≥ at
	accuracy := func(at float64) (float64, [][]int) {
		right := 0
		conf := [][]int{{0, 0}, {0, 0}}
		for _, d := range docs {
			pred := 1 - spam
			if d.p[spam] >= at {
				pred = spam
			}
			conf[d.truth][pred]++
			if pred == d.truth {
				right++
			}
		}
		return float64(right) / float64(len(docs)), conf
	}
	// a threshold between the spam documents' probabilities, so that it
	// changes predictions
	var ps []float64
	for _, d := range docs {
		if d.truth == spam {
			ps = append(ps, d.p[spam])
		}
	}
	slices.Sort(ps)
	at := (ps[len(ps)/2] + ps[len(ps)/2+1]) / 2
	wantAcc, wantConf := accuracy(at)
	if plainAcc, _ := accuracy(0.5); plainAcc == wantAcc {
		t.Fatalf("spam=%g leaves accuracy at %g: the test needs a threshold that changes predictions", at, wantAcc)
	}
	strict := trainTo(t, trainPath, "--threshold", "spam="+formatP(at))
	r := evalJSONOf(t, "-m", strict, testPath)
	if r.Threshold != "spam="+formatP(at) || r.Accuracy != wantAcc || !slices.EqualFunc(r.Confusion, wantConf, slices.Equal) {
		t.Errorf("stored spam=%g: threshold %q accuracy %g confusion %v, want %g %v", at, r.Threshold, r.Accuracy, r.Confusion, wantAcc, wantConf)
	}
	base := evalJSONOf(t, "-m", plain, testPath)
	if *r.LogLoss != *base.LogLoss || *r.ROCAUC != *base.ROCAUC {
		t.Errorf("the threshold changed the probability scores: %g %g, without %g %g", *r.LogLoss, *r.ROCAUC, *base.LogLoss, *base.ROCAUC)
	}
	over := evalJSONOf(t, "-m", strict, "--threshold", "spam=0.5", testPath)
	if acc, _ := accuracy(0.5); over.Accuracy != acc || over.Threshold != "spam=0.5" {
		t.Errorf("eval --threshold spam=0.5 over the stored one: accuracy %g (%q), want %g", over.Accuracy, over.Threshold, acc)
	}
	if inspect := mustRun(t, "", "inspect", strict); !strings.Contains(inspect, "threshold   spam="+formatP(at)+": predicts spam iff p(spam) ≥ ") {
		t.Errorf("inspect does not show the threshold:\n%s", inspect)
	}
	// predict: the label is the decision, also in the text output's first column
	texts := []string{"WINNER! Claim your free prize now", "free entry to win a prize", "see you at dinner"}
	sm, _ := loadPipeline(strict)
	pr := sm.NewPredictor()
	out := lines(mustRun(t, strings.Join(texts, "\n")+"\n", "predict", "-m", strict, "--top", "2", "-"))
	outJSON := lines(mustRun(t, strings.Join(texts, "\n")+"\n", "predict", "-m", strict, "--json", "-"))
	outOver := lines(mustRun(t, strings.Join(texts, "\n")+"\n", "predict", "-m", strict, "--threshold", "spam=0.5", "-"))
	for i, text := range texts {
		p, _ := pr.Proba(nil, text)
		want, wantOver := "ham", "ham"
		if p[spam] >= at {
			want = "spam"
		}
		if p[spam] >= 0.5 {
			wantOver = "spam"
		}
		var j jsonPrediction
		if err := json.Unmarshal([]byte(outJSON[i]), &j); err != nil || j.Label != want {
			t.Errorf("predict --json %q: %s, want %s", text, outJSON[i], want)
		}
		if f := strings.Split(out[i], "\t"); len(f) != 5 || f[1] != want {
			t.Errorf("predict %q (p(spam) %g): %q, want %s first", text, p[spam], out[i], want)
		}
		if f := strings.Split(outOver[i], "\t"); f[1] != wantOver {
			t.Errorf("predict --threshold spam=0.5 %q: %q, want %s", text, outOver[i], wantOver)
		}
	}

	news := trainTo(t, newsTrain)
	bad := filepath.Join(t.TempDir(), "bad.model")
	mustFail(t, 2, []string{`"eggs" is not a class of the model`}, "train", trainPath, "-o", bad, "--threshold", "eggs=0.5")
	if _, err := os.Stat(bad); err == nil {
		t.Error("a refused train --threshold wrote a model")
	}
	mustFail(t, 2, []string{"want a probability from 0 to 1"}, "train", trainPath, "-o", bad, "--threshold", "spam=1.5")
	mustFail(t, 2, []string{"a threshold decides between two"}, "train", newsTrain, "-o", bad, "--threshold", "sport=0.5")
	mustFail(t, 2, []string{"a threshold decides between two"}, "eval", "-m", news, "--threshold", "sport=0.5", newsTest)
	mustFail(t, 2, []string{"a threshold decides between two"}, "predict", "-m", news, "--threshold", "sport=0.5", "-")
	mustFail(t, 2, []string{"P alone applies to multi-label models", "--threshold ham=0.5"}, "eval", "-m", plain, "--threshold", "0.5", testPath)
	mustFail(t, 2, []string{"--threshold", "want LABEL=P or P"}, "eval", "-m", plain, "--threshold", "spam=high", testPath)
	// snb's bare --threshold is as it was
	mustRun(t, "", "train", trainPath, "-o", filepath.Join(t.TempDir(), "snb.model"), "--threshold", "0.95")
}

func formatP(p float64) string { return (&thresholdValue{p: p, given: true}).String() }
