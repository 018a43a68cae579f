package pipeline

import (
	"math/bits"
	"slices"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// cvCells numbers the class-column cells of the whole corpus, so that a
// fold sums its training rows straight into its model's cells: a fold's
// cells are those of the corpus whose class has a training row with the
// column. Class k's cells are at[k] to at[k+1]−1, by column, so that
// summing a class's rows stays within its own stretch of the sums and
// laying them out by column goes through the columns in order; entry p of
// the raw rows belongs to cell of[p], of column col[of[p]].
type cvCells struct {
	at  []int
	col []int32
	of  []int32
}

// cells numbers the corpus's cells (see cvCells), class by class: a pass
// over the class's rows marks its columns, a scan of the marks numbers
// them in order, another pass over the rows finds each entry's cell.
func (d *cvData) cells() *cvCells {
	byClass := make([][]int32, len(d.names))
	for i, c := range d.y {
		byClass[c] = append(byClass[c], int32(i))
	}
	marks := make([]uint64, (d.cols+63)/64)
	cur := make([]int32, d.cols) // column j's cell in the current class
	x := &cvCells{at: make([]int, 1, len(d.names)+1), of: make([]int32, len(d.idx))}
	for _, rows := range byClass {
		for _, i := range rows {
			idx, _ := d.row(int(i))
			for _, j := range idx {
				marks[j/64] |= 1 << (j % 64)
			}
		}
		for w, m := range marks {
			for ; m != 0; m &= m - 1 {
				j := int32(64*w + bits.TrailingZeros64(m))
				cur[j] = int32(len(x.col))
				x.col = append(x.col, j)
			}
			marks[w] = 0
		}
		x.at = append(x.at, len(x.col))
		for _, i := range rows {
			for p := d.ptr[i]; p < d.ptr[i+1]; p++ {
				x.of[p] = cur[d.idx[p]]
			}
		}
	}
	return x
}

// foldCounts returns the counts that compact.CountRows gives for est on
// the fold's training rows as w weights them, or false if a row has a
// value CountRows refuses, whose error it should report. Each cell adds
// its class's rows in row order, as CountRows does; the cells are then
// laid out by the fold's columns and classes.
func (d *cvData) foldCounts(x *cvCells, f *foldData, w *rowWeights, est nb.Estimator) (*compact.Counts, bool) {
	proto := nb.NewCounts(est, 0, 0)
	binary, threshold := proto.Binary, proto.Threshold
	var rawIDF []float64 // idf by raw column, 0 for a column the fold drops
	if w.idf != nil {
		rawIDF = make([]float64, d.cols)
		for j := range rawIDF {
			if c := w.model(j); c >= 0 {
				rawIDF[j] = w.idf[c]
			}
		}
	}
	sum := make([]float64, len(x.col))
	var (
		cells []int32
		val   []float64
	)
	for _, i := range f.train {
		cells, val = w.cells(d, x, rawIDF, i, cells, val)
		for p, v := range val {
			if !check.Good(v) {
				return nil, false
			}
			if v, ok := dense.Binarized(v, binary, threshold); ok && v != 0 {
				sum[cells[p]] += v
			}
		}
	}
	s := &compact.Counts{Classes: len(f.classes), Features: f.features, ClassCount: make([]float64, len(f.classes)),
		Ptr: make([]int, f.features+1), Binary: binary, Threshold: threshold}
	corpusClass := make([]int, len(f.classes))
	for p, i := range f.train {
		s.ClassCount[f.y[p]]++
		corpusClass[f.y[p]] = d.y[i]
	}
	// Only a kept column's cells have non-zero sums.
	for g, v := range sum {
		if v != 0 {
			s.Ptr[w.model(int(x.col[g]))+1]++
		}
	}
	for c := range f.features {
		s.Ptr[c+1] += s.Ptr[c]
	}
	next := slices.Clone(s.Ptr[:f.features])
	s.Class, s.Count = make([]uint16, s.Ptr[f.features]), make([]float64, s.Ptr[f.features])
	for c, k := range corpusClass { // fold classes in order: each column's cells come out by class
		for g := x.at[k]; g < x.at[k+1]; g++ {
			if v := sum[g]; v != 0 {
				j := w.model(int(x.col[g]))
				s.Class[next[j]], s.Count[next[j]] = uint16(c), v
				next[j]++
			}
		}
	}
	return s, true
}

// model returns the model column of raw column j, or −1.
func (w *rowWeights) model(j int) int32 {
	if w.colmap == nil {
		return int32(j)
	}
	return w.colmap[j]
}

// cells appends raw row i's entries that the model has, weighted as row
// weights them, by their corpus cells; rawIDF is the model's idf by raw
// column.
func (w *rowWeights) cells(d *cvData, x *cvCells, rawIDF []float64, i int, cells []int32, val []float64) ([]int32, []float64) {
	lo, hi := d.ptr[i], d.ptr[i+1]
	ri, rv, rc := d.idx[lo:hi], d.val[lo:hi], x.of[lo:hi]
	cells, val = slices.Grow(cells[:0], len(ri))[:len(ri)], slices.Grow(val[:0], len(ri))[:len(ri)]
	if rawIDF != nil {
		// A column the model lacks weighs 0 here, which changes neither
		// the row's norm nor any sum: with a weighting, no value is
		// binarized, and a zero is left out.
		copy(cells, rc)
		for p, j := range ri {
			v := rv[p]
			if w.binary {
				v = 1
			}
			val[p] = w.tfOf(v) * rawIDF[j]
		}
		vectorize.NormalizeRow(val, w.norm)
		return cells, val
	}
	k := 0
	for p, j := range ri {
		v := rv[p]
		if w.binary {
			v = 1
		}
		cells[k], val[k] = rc[p], v
		if w.colmap == nil {
			k++
		} else {
			k += int(^uint32(w.colmap[j]) >> 31) // without a branch, as row
		}
	}
	return cells[:k], val[:k]
}
