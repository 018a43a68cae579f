package multilabel

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/tally"
)

// thresholdSet is what cross-validation learned.
type thresholdSet struct {
	probs     []float64 // per label
	microF1   float64   // of the cross-validated scores under probs
	fallbacks int       // labels given the global cut
}

// setting is a choice that cross-validation makes: α, the number of
// reweighting passes and their rate.
type setting struct {
	alpha  float64
	passes int
	rate   float64 // 0 without passes
}

// thresholds learns a threshold per label, and the setting from
// settings, from the documents' cross-validated scores: the documents are
// shuffled into folds, each fold is scored by the models of the other
// folds' sums, and each label's threshold is the score cut that maximizes
// its F1 over every document (SCut; Yang 2001). A reweighted setting
// reweights every document once: its fold models are that reweighting's
// less the fold (foldGain), and the winner's is the final model's, which
// it returns as all. Of several settings the
// one whose thresholds give the best micro-F1 wins; runnerUp is the best
// micro-F1 among the settings of the other number of passes (0 if every
// setting has the same number).
func (f *ovrFit) thresholds(settings []setting) (best thresholdSet, won setting, all ovrCounts, runnerUp float64, err error) {
	n, L := len(f.sets), f.labels
	k := min(f.mc.folds(), n)
	fold := make([]int, n)
	rng := rand.New(rand.NewPCG(f.mc.Seed, 0x6d756c74696c6162))
	for i, p := range rng.Perm(n) {
		fold[p] = i % k
	}
	parts := make([]ovrCounts, k)
	for q := range parts {
		parts[q] = f.counts(func(i int) bool { return fold[i] != q })
	}
	oof := make([]float64, n*L)
	scores := make([]float64, len(settings))
	every := func(int) bool { return true }
	for c, set := range settings {
		full, w, err := f.reweighted(f.all, every, set)
		if err != nil {
			return best, won, all, 0, err
		}
		for q := range parts {
			part := parts[q]
			if w != nil {
				if part.extra, err = f.foldGain(w, full.extra, func(i int) bool { return fold[i] == q }); err != nil {
					return best, won, all, 0, err
				}
			}
			lin, err := f.fitInto(f.foldLin, part, set.alpha)
			if err != nil {
				return best, won, all, 0, err
			}
			f.foldLin = lin
			s, err := lin.Scorer()
			if err != nil {
				return best, won, all, 0, err
			}
			parallel.Chunks(n, 64, 0, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					if fold[i] == q {
						idx, val := f.X.Row(i)
						row := s.JointLogLikelihood(oof[i*L:i*L], idx, val)
						logScores(f.mc.Score, row)
					}
				}
			})
		}
		th := f.cut(oof)
		scores[c] = th.microF1
		if c == 0 || th.microF1 > best.microF1 {
			best, won, all = th, set, full
		}
	}
	for c, set := range settings {
		if set.passes != won.passes {
			runnerUp = max(runnerUp, scores[c])
		}
	}
	for l, t := range best.probs {
		best.probs[l] = math.Exp(t)
	}
	return best, won, all, runnerUp, nil
}

// cut learns the thresholds (as log-probabilities) from the n×L scores.
func (f *ovrFit) cut(scores []float64) thresholdSet {
	n, L := len(f.sets), f.labels
	isPos := make([]bool, n*L)
	positives := make([]int, L)
	for i, set := range f.sets {
		for _, l := range set {
			isPos[i*L+int(l)] = true
			positives[l]++
		}
	}
	all := slices.Clone(scores)
	pos := make([]float64, 0, sumInts(positives))
	for p, s := range scores {
		if isPos[p] {
			pos = append(pos, s)
		}
	}
	global, _ := bestCut(all, pos) // sorts both
	th := thresholdSet{probs: make([]float64, L)}
	own := make([]bool, L)
	parallel.For(L, 0, func(l int) {
		col, pos := make([]float64, n), make([]float64, 0, positives[l])
		for i := range n {
			col[i] = scores[i*L+l]
			if isPos[i*L+l] {
				pos = append(pos, col[i])
			}
		}
		t, f1 := bestCut(col, pos)
		own[l] = positives[l] >= f.mc.minPositives() && f1 >= minF1
		th.probs[l] = t
		if !own[l] {
			th.probs[l] = global
		}
	})
	for _, o := range own {
		th.fallbacks += tally.BoolInt(!o)
	}
	var c tally.Confusion
	pred := make([]bool, L)
	for i := range n {
		decide(pred, scores[i*L:(i+1)*L], th.probs, f.mc.AllowEmpty)
		for l, p := range pred {
			c.Add(p, isPos[i*L+l])
		}
	}
	th.microF1 = c.F1()
	return th
}

// bestCut returns the score cut that maximizes F1 over the scores v, of
// which pos are the positive entries' (both reordered), and that F1:
// halfway between the last score kept and the next lower one.
func bestCut(v, pos []float64) (float64, float64) {
	slices.Sort(v)
	slices.Sort(pos)
	if len(v) == 0 || len(pos) == 0 {
		return math.Inf(1), 0
	}
	bestF1, cut := -1.0, v[len(v)-1]+1
	above := len(pos) // pos[above:] reach the score
	for k := len(v) - 1; k >= 0; k-- {
		s := v[k]
		if k > 0 && v[k-1] == s {
			continue // a cut falls between distinct scores
		}
		for above > 0 && pos[above-1] >= s {
			above--
		}
		tp, kept := len(pos)-above, len(v)-k
		if f1 := 2 * float64(tp) / float64(kept+len(pos)); f1 > bestF1 {
			bestF1 = f1
			if k > 0 {
				cut = (s + v[k-1]) / 2
			} else {
				cut = s - 1
			}
		}
	}
	if math.IsInf(cut, -1) || math.IsNaN(cut) {
		cut = -math.MaxFloat64
	}
	return cut, bestF1
}

// decide sets pred[l] for the labels whose score reaches their threshold,
// or, if none does and empty is false, for the most probable label (the
// label nearest its threshold, by p/threshold, was right less often:
// docs/multilabel.md).
func decide(pred []bool, logp, thresholds []float64, empty bool) {
	any, best := false, 0
	for l, s := range logp {
		pred[l] = s >= thresholds[l]
		any = any || pred[l]
		if s > logp[best] {
			best = l
		}
	}
	if !any && !empty && len(pred) > 0 {
		pred[best] = true
	}
}

func sumInts(v []int) int {
	s := 0
	for _, x := range v {
		s += x
	}
	return s
}
