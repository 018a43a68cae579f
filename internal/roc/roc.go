// Package roc computes ROC curves, for metrics' two-class scores and for
// the online evaluation, which ranks documents by their log-odds.
package roc

import (
	"cmp"
	"math"
	"slices"
)

// Point is the false- and true-positive rates of the threshold "positive
// iff score ≥ Threshold".
type Point struct {
	FPR, TPR, Threshold float64
}

// Curve returns the ROC points of scores, documents labeled positive or
// not, highest score first from (0, 0) to (1, 1), and the area under them;
// with no positive or no negative document, nil and NaN. Documents of
// equal scores pass a threshold together, so ties make one point.
func Curve(scores []float64, positive []bool) ([]Point, float64) {
	order := make([]int, len(scores))
	var pos, neg int
	for i := range order {
		order[i] = i
		if positive[i] {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return nil, math.NaN()
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	roc := []Point{{Threshold: math.Inf(1)}}
	var tp, fp int
	var area float64 // in units of one positive by one negative
	for k := 0; k < len(order); {
		t := scores[order[k]]
		tp0, fp0 := tp, fp
		for first := true; k < len(order) && (first || scores[order[k]] == t); k, first = k+1, false {
			if positive[order[k]] {
				tp++
			} else {
				fp++
			}
		}
		area += float64(fp-fp0) * float64(tp+tp0) / 2
		roc = append(roc, Point{FPR: float64(fp) / float64(neg), TPR: float64(tp) / float64(pos), Threshold: t})
	}
	return roc, area / (float64(pos) * float64(neg))
}

// RecallAt returns the highest true-positive rate of the points of roc
// whose false-positive rate is at most f: an operating point a threshold
// reaches, without interpolation.
func RecallAt(roc []Point, f float64) float64 {
	best := 0.0
	for _, p := range roc {
		if p.FPR <= f {
			best = max(best, p.TPR)
		}
	}
	return best
}
