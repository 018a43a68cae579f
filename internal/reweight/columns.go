package reweight

import (
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/dense"
)

// columns are some documents' rows by feature: feature j's entries are
// doc[ptr[j]:ptr[j+1]] (positions among the documents, increasing) with
// values val.
type columns struct {
	ptr []int
	doc []int32
	val []float64
}

// newColumns returns the columns of the n rows that row returns (positions
// 0..n−1), of features columns in all.
func newColumns(features, n int, row func(k int) ([]int32, []float64)) columns {
	c := columns{ptr: make([]int, features+1)}
	for k := range n {
		idx, _ := row(k)
		for _, j := range idx {
			if uint(j) < uint(features) {
				c.ptr[j+1]++
			}
		}
	}
	for j := range features {
		c.ptr[j+1] += c.ptr[j]
	}
	next := append([]int(nil), c.ptr[:features]...)
	c.doc, c.val = make([]int32, c.ptr[features]), make([]float64, c.ptr[features])
	for k := range n {
		idx, val := row(k)
		for p, j := range idx {
			if uint(j) < uint(features) {
				c.doc[next[j]], c.val[next[j]] = int32(k), val[p]
				next[j]++
			}
		}
	}
	return c
}

// score sets jll (n×K) to t's scores of the documents, as
// t.JointLogLikelihood gives them row by row, bit for bit: each score adds
// its features' terms in feature order either way. Reading t a feature at
// a time, each of its cells once for all the documents that have it,
// spares the cache misses of reading t's cells anew for each document.
// sx and sb (n each) are scratch; t must be valid (t.Validate).
func (c columns) score(jll, sx, sb []float64, t *compact.Linear) {
	K := t.K
	clear(jll)
	clear(sx)
	clear(sb)
	for j := range t.Features {
		lo, hi := t.Ptr[j], t.Ptr[j+1]
		class, delta := t.Class[lo:hi], t.Delta[lo:hi]
		for e := c.ptr[j]; e < c.ptr[j+1]; e++ {
			x, ok := dense.Binarized(c.val[e], t.Binary, t.Threshold)
			if !ok {
				continue
			}
			k := int(c.doc[e])
			sx[k] += x
			if t.Base != nil {
				sb[k] += x * t.Base[j]
			}
			acc := jll[k*K : (k+1)*K]
			for q, cl := range class {
				acc[cl] += x * delta[q]
			}
		}
	}
	for k := range sx {
		acc := jll[k*K : (k+1)*K]
		for cl := range acc {
			acc[cl] += t.Bias[cl] + t.P[cl]*sb[k] + t.Q[cl]*sx[k]
		}
	}
}
