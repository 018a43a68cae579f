// Package discretize bins numeric columns into category ids for
// densenb.Categorical, as scikit-learn's KBinsDiscretizer(encode="ordinal").
package discretize

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/textnb/textnb/internal/densenb"

	"github.com/textnb/textnb/internal/enum"
	"github.com/textnb/textnb/nb"
)

// BinStrategy chooses how a Discretizer places its bin edges.
type BinStrategy int

const (
	// Quantile puts the same number of training values in every bin, with
	// numpy's linear-interpolation percentiles as edges.
	Quantile BinStrategy = iota
	// Uniform gives every bin the same width between a column's min and max.
	Uniform
)

var strategyNames = [...]string{"quantile", "uniform"}

// String returns the scikit-learn name of the strategy.
func (s BinStrategy) String() string { return enum.String(strategyNames[:], int(s)) }

// DefaultBins is Discretizer's Bins when the field is 0.
const DefaultBins = 5

// Discretizer is scikit-learn's KBinsDiscretizer(encode="ordinal"): it maps
// every numeric column to bin ids 0..NBins[i]-1, for densenb.Categorical.
//
// Like scikit-learn, quantile edges closer than 1e-8 to their predecessor
// are removed, so a column can get fewer bins than asked for; NBins records
// the count per column. A constant column gets the single bin [v, v]
// (scikit-learn stores [−Inf, +Inf]; only the inner edges matter, and finite
// edges stay JSON-encodable). All rows are used: there is no subsampling.
type Discretizer struct {
	// Bins is the number of bins per column, 2..nb.MaxCategories; 0 means
	// DefaultBins.
	Bins     int
	Strategy BinStrategy

	Edges [][]float64 // per column, NBins[i]+1 increasing edges
	NBins []int       // per column
}

// Fit computes the bin edges of every column of X. On error d is unchanged.
func (d *Discretizer) Fit(X [][]float64) error {
	bins := d.Bins
	if bins == 0 {
		bins = DefaultBins
	}
	if bins < 2 || bins > densenb.MaxCategories {
		return fmt.Errorf("%w: %d bins, want 2..%d", nb.ErrConfig, bins, densenb.MaxCategories)
	}
	if d.Strategy != Quantile && d.Strategy != Uniform {
		return fmt.Errorf("%w: unknown strategy %v", nb.ErrConfig, d.Strategy)
	}
	f, err := densenb.CheckRows(X)
	if err != nil {
		return err
	}
	edges, nbins := make([][]float64, f), make([]int, f)
	col := make([]float64, len(X))
	for j := range f {
		for r, row := range X {
			col[r] = row[j]
		}
		edges[j] = d.columnEdges(col, bins)
		nbins[j] = len(edges[j]) - 1
	}
	d.Edges, d.NBins = edges, nbins
	return nil
}

// columnEdges returns the edges of one column; it reorders col.
func (d *Discretizer) columnEdges(col []float64, bins int) []float64 {
	lo, hi := slices.Min(col), slices.Max(col)
	if lo == hi {
		return []float64{lo, hi}
	}
	if d.Strategy == Uniform {
		return linspace(lo, hi, bins+1)
	}
	slices.Sort(col)
	e := linspace(0, 100, bins+1)
	for i, q := range e {
		e[i] = percentileSorted(col, q)
	}
	// Drop edges within 1e-8 of their predecessor (numpy.ediff1d mask).
	kept := e[:1]
	for i := 1; i < len(e); i++ {
		if e[i]-e[i-1] > 1e-8 {
			kept = append(kept, e[i])
		}
	}
	if len(kept) < 2 { // the whole range is below 1e-8: one bin
		kept = append(kept, hi)
	}
	return kept
}

// Transform appends the bin id of every value of the row x to dst: the
// number of inner edges ≤ the value (numpy.digitize). A NaN, a row of the
// wrong length or a column with malformed edges gives -1, which Categorical
// rejects.
func (d *Discretizer) Transform(dst []int, x []float64) []int {
	if len(x) != len(d.Edges) {
		for range d.Edges {
			dst = append(dst, -1)
		}
		return dst
	}
	for j, v := range x {
		e := d.Edges[j]
		if math.IsNaN(v) || len(e) < 2 {
			dst = append(dst, -1)
			continue
		}
		inner := e[1 : len(e)-1]
		dst = append(dst, sort.Search(len(inner), func(i int) bool { return inner[i] > v })) // values ≤ v
	}
	return dst
}

// linspace returns num values from start to stop computed as numpy.linspace
// does: start + i·step, with the last set to stop exactly.
func linspace(start, stop float64, num int) []float64 {
	y := make([]float64, num)
	step := (stop - start) / float64(num-1)
	for i := range y {
		y[i] = float64(i)*step + start
	}
	y[num-1] = stop
	return y
}

// percentileSorted returns numpy.percentile(a, q) (method "linear") of the
// sorted, non-empty a.
func percentileSorted(a []float64, q float64) float64 {
	n := len(a)
	vi := float64(n-1) * (q / 100)
	if vi >= float64(n-1) {
		return a[n-1]
	}
	lo := math.Floor(vi)
	i := int(lo)
	return lerp(a[i], a[i+1], vi-lo)
}

// lerp interpolates as numpy's _lerp, from the nearer end for accuracy.
func lerp(a, b, t float64) float64 {
	diff := b - a
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}
