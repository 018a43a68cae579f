package postings

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/parallel"
)

// scikit-learn's chi2 and SelectKBest over postings: the tests' reference
// for the document frequencies and class counts that selection uses.

// ErrNegative reports negative values where counts are required.
var ErrNegative = errors.New("postings: negative value")

// Chi2 returns scikit-learn's chi2 score per column for labels y (one per
// row, in [0, nClasses)): with observed O[c][j] the sum of column j over the
// rows of class c, F[j] = Σ_c O[c][j] and P[c] the fraction of rows in c,
// score[j] = Σ_c (O[c][j] − P[c]F[j])² / (P[c]F[j]), summed over the classes
// present in y. It uses the values (counts), as scikit-learn does on a
// count matrix; a column with F = 0 scores NaN, as in scikit-learn.
func (p *Postings) Chi2(y []int, nClasses int) ([]float64, error) {
	return p.chi2(y, nClasses, p.vals)
}

// Chi2Binary is Chi2 on the binarized matrix (document counts): scikit-learn's
// chi2 after Binarizer, computed from the row ids alone.
func (p *Postings) Chi2Binary(y []int, nClasses int) ([]float64, error) {
	return p.chi2(y, nClasses, nil)
}

func (p *Postings) chi2(y []int, nClasses int, vals []float64) ([]float64, error) {
	prob, err := p.classProb(y, nClasses)
	if err != nil {
		return nil, err
	}
	for _, v := range vals {
		if v < 0 {
			return nil, fmt.Errorf("%w: chi2 needs non-negative values, found %g", ErrNegative, v)
		}
	}
	scores := make([]float64, p.Cols())
	parallel.Chunks(len(scores), 4096, 0, func(from, to int) {
		obs := make([]float64, nClasses)
		for j := from; j < to; j++ {
			clear(obs)
			lo, hi := p.colptr[j], p.colptr[j+1]
			for k, r := range p.docs[lo:hi] {
				if vals == nil {
					obs[y[r]]++
				} else {
					obs[y[r]] += vals[lo+k]
				}
			}
			scores[j] = chiSquare(obs, prob)
		}
	})
	return scores, nil
}

// classProb returns the fraction of rows per class, checking y.
func (p *Postings) classProb(y []int, nClasses int) ([]float64, error) {
	if len(y) != p.rows {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrLabels, len(y), p.rows)
	}
	if err := checkLabels(y, nClasses); err != nil {
		return nil, err
	}
	prob := make([]float64, nClasses)
	for _, c := range y {
		prob[c]++
	}
	present := 0
	for c := range prob {
		if prob[c] > 0 {
			present++
		}
		prob[c] /= float64(len(y))
	}
	if present < 2 {
		return nil, fmt.Errorf("%w: chi2 needs at least 2 classes with rows, found %d", ErrLabels, present)
	}
	return prob, nil
}

// chiSquare sums (O−E)²/E over the classes present (prob > 0), in
// scikit-learn's order of operations.
func chiSquare(obs, prob []float64) float64 {
	total := 0.0
	for _, o := range obs {
		total += o
	}
	if total == 0 {
		return math.NaN()
	}
	s := 0.0
	for c, o := range obs {
		if prob[c] > 0 {
			e := prob[c] * total
			d := o - e
			s += d * d / e
		}
	}
	return s
}

// SelectTopK returns the ids of the k largest scores in increasing id order.
// It breaks ties like scikit-learn's SelectKBest (a stable ascending sort,
// keeping the last k, so the larger id wins) and ranks NaN lowest.
func SelectTopK(scores []float64, k int) []int32 {
	k = max(0, min(k, len(scores)))
	key := func(i int32) float64 {
		if s := scores[i]; !math.IsNaN(s) {
			return s
		}
		return -math.MaxFloat64
	}
	order := positions(len(scores))
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(key(a), key(b)) })
	top := order[len(order)-k:]
	slices.Sort(top)
	return top
}

// positions returns 0, 1, …, n−1.
func positions(n int) []int32 {
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = int32(i)
	}
	return pos
}
