package bench

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pairAUC is the AUC by its definition: the share of (positive, negative)
// pairs the positive outscores, ties counting half.
func pairAUC(positive []bool, score []float64) float64 {
	var won, pairs float64
	for i := range score {
		for j := range score {
			if !positive[i] || positive[j] {
				continue
			}
			pairs++
			switch {
			case score[i] > score[j]:
				won++
			case score[i] == score[j]:
				won += 0.5
			}
		}
	}
	return won / pairs
}

func TestScoreROCAUC(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		n := 5 + rng.IntN(200)
		positive := make([]bool, n)
		score := make([]float64, n)
		positive[0], positive[1] = true, false
		for i := range n {
			if i > 1 {
				positive[i] = rng.IntN(3) == 0
			}
			score[i] = float64(rng.IntN(10)) // many ties
			if positive[i] {
				score[i] += 2
			}
		}
		got, want := ScoreROC(positive, score).AUC, pairAUC(positive, score)
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: AUC %v, want %v", trial, got, want)
		}
	}
}

func TestScoreROCRecallAt(t *testing.T) {
	// 1,000 negatives scored 0..999 and 10 positives: the best 5 positives
	// above every negative, the next 5 between the two best negatives and
	// the rest.
	var positive []bool
	var score []float64
	for i := range 1000 {
		positive, score = append(positive, false), append(score, float64(i))
	}
	for i := range 5 {
		positive, score = append(positive, true), append(score, 2000+float64(i))
		positive, score = append(positive, true), append(score, 998.5)
	}
	r := ScoreROC(positive, score)
	// 0.1% of 1,000 negatives is 1: the threshold may pass the negative
	// scored 999, which lets the five at 998.5 through only with it.
	if r.RecallAt[0] != 1 {
		t.Errorf("recall at 0.1%% FPR = %v, want 1", r.RecallAt[0])
	}
	positive[1000+1], score[1000+1] = true, 990 // one positive now needs 10 negatives
	r = ScoreROC(positive, score)
	if r.RecallAt[0] != 0.9 || r.RecallAt[1] != 1 {
		t.Errorf("recall at 0.1%%, 1%% FPR = %v, want 0.9, 1", r.RecallAt)
	}
}

func TestLogOddsFinite(t *testing.T) {
	if v := LogOdds(0, 1); math.IsInf(v, 0) || v > -700 {
		t.Errorf("LogOdds(0, 1) = %v, want finite and very negative", v)
	}
	if v := LogOdds(0.75, 0.25); math.Abs(v-math.Log(3)) > 1e-15 {
		t.Errorf("LogOdds(0.75, 0.25) = %v, want log 3", v)
	}
}
