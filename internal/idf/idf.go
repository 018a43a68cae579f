// Package idf computes the column weights of vectorize's TFIDF and Rennie
// weightings from document frequencies: what their Fit computes from a
// matrix, and what training computes from document frequencies counted
// without one (a streamed or sharded corpus, a learned document).
package idf

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/internal/sparse"
)

// TFIDF returns scikit-learn's IDF of each column found in df[j] of n
// documents: ln((1+n)/(1+df))+1 when smooth, else ln(n/df)+1, and 0 where
// df is 0.
func TFIDF(n int, df []int64, smooth bool) ([]float64, error) {
	return weights(n, df, func(n, df float64) float64 {
		switch {
		case smooth:
			return math.Log((n+1)/(df+1)) + 1
		case df > 0:
			return math.Log(n/df) + 1
		}
		return 0
	})
}

// Rennie returns the IDF of Rennie et al. 2003, ln(n/df), 0 where df is 0.
func Rennie(n int, df []int64) ([]float64, error) {
	return weights(n, df, func(n, df float64) float64 {
		if df > 0 {
			return math.Log(n / df)
		}
		return 0
	})
}

// weights returns idf(n, df) per column.
func weights(n int, df []int64, idf func(n, df float64) float64) ([]float64, error) {
	if n <= 0 {
		return nil, fmt.Errorf("%w: cannot fit weights on %d rows", sparse.ErrShape, n)
	}
	// The weight depends on df alone, and most terms share a few small
	// document frequencies: a vocabulary several times wider than the
	// table computes each of those once.
	var small []float64
	if len(df) > 4*smallDF {
		small = make([]float64, min(n, smallDF)+1)
		for d := range small {
			small[d] = idf(float64(n), float64(d))
		}
	}
	out := make([]float64, len(df))
	for j, d := range df {
		switch {
		case d < 0 || d > int64(n):
			return nil, fmt.Errorf("%w: column %d in %d of %d rows", sparse.ErrShape, j, d, n)
		case d < int64(len(small)):
			out[j] = small[d]
		default:
			out[j] = idf(float64(n), float64(d))
		}
	}
	return out, nil
}

// smallDF is the largest document frequency whose weight weights computes
// ahead.
const smallDF = 1 << 10
