package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Accuracy returns the fraction of pred equal to truth.
func Accuracy(truth, pred []string) float64 {
	if len(truth) == 0 || len(truth) != len(pred) {
		return math.NaN()
	}
	n := 0
	for i := range truth {
		if truth[i] == pred[i] {
			n++
		}
	}
	return float64(n) / float64(len(truth))
}

// ROC holds the ROC figures of a positive class's scores.
type ROC struct {
	AUC float64
	// RecallAt[i] is the largest recall of the positives at a threshold
	// that lets through at most FPRs[i] of the negatives as positives.
	RecallAt []float64
}

// FPRs are the false positive rates ROC reports recall at.
var FPRs = []float64{0.001, 0.01}

// ScoreROC computes the ROC figures of scores, higher meaning more
// positive; tied scores move together (AUC counts a tie as half).
func ScoreROC(positive []bool, score []float64) ROC {
	idx := make([]int, len(score))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return -cmpFloat(score[a], score[b]) })
	var pos, neg float64
	for _, p := range positive {
		if p {
			pos++
		} else {
			neg++
		}
	}
	r := ROC{RecallAt: make([]float64, len(FPRs))}
	var tp, fp, area float64
	for i := 0; i < len(idx); {
		j := i
		var gtp, gfp float64
		for ; j < len(idx) && score[idx[j]] == score[idx[i]]; j++ {
			if positive[idx[j]] {
				gtp++
			} else {
				gfp++
			}
		}
		area += gfp * (tp + gtp/2) // each negative beats the positives above it, ties half
		tp, fp = tp+gtp, fp+gfp
		for k, f := range FPRs {
			if fp <= f*neg {
				r.RecallAt[k] = tp / pos
			}
		}
		i = j
	}
	r.AUC = area / (pos * neg)
	return r
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// LogOdds returns log(p) - log(q), the score of a class with probability
// p against the other's q, which keeps ranks where p rounds to 1. A
// probability that underflowed to 0 counts as the smallest positive
// float64, so that the score stays finite (and encodable as JSON).
func LogOdds(p, q float64) float64 {
	return math.Log(max(p, math.SmallestNonzeroFloat64)) - math.Log(max(q, math.SmallestNonzeroFloat64))
}

// Scored is one test document's true label, predicted class and its
// positive class's score.
type Scored struct {
	Label, Pred string
	Score       float64
}

// PredictScores runs "textnb predict --json" with model on a folder of
// class folders and returns each document's class (its folder's name) and
// the log-odds of positive against the other class.
func PredictScores(bin, model, folder, positive string) ([]Scored, error) {
	r, err := Run(nil, bin, "predict", "-m", model, "--json", folder)
	if err != nil {
		return nil, err
	}
	var out []Scored
	sc := bufio.NewScanner(strings.NewReader(r.Stdout))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var p struct {
			File  string             `json:"file"`
			Label string             `json:"label"`
			Proba map[string]float64 `json:"proba"`
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("predict --json: %v", err)
		}
		if len(p.Proba) != 2 {
			return nil, fmt.Errorf("predict --json: %s: %d classes, want 2", p.File, len(p.Proba))
		}
		var q float64
		for c, v := range p.Proba {
			if c != positive {
				q = v
			}
		}
		out = append(out, Scored{filepath.Base(filepath.Dir(p.File)), p.Label, LogOdds(p.Proba[positive], q)})
	}
	return out, sc.Err()
}

var flagsOnce sync.Map // binary → its train flags' help text

// HasFlag reports whether the textnb binary's command cmd has --name,
// from its --help: benchmarks run on builds from before and after a flag.
func HasFlag(bin, cmd, name string) bool {
	key := bin + " " + cmd
	v, ok := flagsOnce.Load(key)
	if !ok {
		var b bytes.Buffer
		c := exec.Command(bin, cmd, "--help")
		c.Stdout, c.Stderr = &b, &b
		c.Run() // --help may exit non-zero
		v, _ = flagsOnce.LoadOrStore(key, b.String())
	}
	return strings.Contains(v.(string), "\n  -"+name+" ") || strings.Contains(v.(string), "\n  -"+name+"\n")
}

// FoldScores is textnb's result on one mail fold: every test document's
// class, prediction and spam log-odds, and the wall time of the train and
// predict processes.
type FoldScores struct {
	Docs []Scored
	Wall time.Duration
}

// TrainPredict trains textnb (extra flags args) on split s's training
// folder and scores its test folder with predict --json, positive being
// the class of the log-odds. With a cache c, results are kept under the
// binary's hash, the folds' fingerprint and the flags, so that the mail
// and accuracy benchmarks share one run.
func TrainPredict(c *Cache, bin, binHash, model string, f Fold, i int, positive string, args []string) (FoldScores, error) {
	key := fmt.Sprintf("textnb-predict %s %s %s %s", binHash, f.Fingerprint[:16], positive, strings.Join(args, " "))
	var res FoldScores
	err := Cached(c, key, i, &res, func() (FoldScores, error) {
		s := f.Splits[i]
		tr, err := Run(nil, bin, append([]string{"train", "--quiet", s.Train, "-o", model}, args...)...)
		if err != nil {
			return FoldScores{}, err
		}
		start := time.Now()
		docs, err := PredictScores(bin, model, s.Test, positive)
		return FoldScores{docs, tr.Wall + time.Since(start)}, err
	})
	return res, err
}
