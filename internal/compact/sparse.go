package compact

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/dense"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// MaxClasses is the largest number of classes Counts and Linear can hold:
// class ids are stored as uint16.
const MaxClasses = 1<<16 - 1

// Counts holds the same statistics as nb.Counts with only the non-zero
// class-feature counts stored, grouped by feature: feature j's cells are
// Class[Ptr[j]:Ptr[j+1]] (strictly increasing) with counts
// Count[Ptr[j]:Ptr[j+1]]. Text features mostly occur in a few classes, so
// this takes memory in proportion to the cells that occur instead of
// Classes×Features.
//
// Binary and Threshold mean what they mean for nb.Counts. Counts are fitted
// with Fit; Dense and FromDense convert between the forms.
type Counts struct {
	Classes, Features int
	ClassCount        []float64 // Classes
	Ptr               []int     // Features+1
	Class             []uint16
	Count             []float64

	Binary    bool
	Threshold float64
}

// count counts the rows of X with labels y in [0, classes), as
// nb.Counts.Add would into nb.NewCounts(nil, classes, X.Cols) with
// binary and threshold set, without a dense table:
// each class's rows are summed, in row order, into a dense accumulator of
// X.Cols values, one per goroutine (as many as fit in accumulatorBudget),
// and only the non-zero sums are kept. Invalid input is rejected with the
// errors of Counts.Add, labels checked before values: of a bad label and a
// bad value, the label is reported.
func count(X *vectorize.CSR, y []int, classes int, binary bool, threshold float64) (*Counts, error) {
	if err := check.Shape(X, -1); err != nil {
		return nil, err
	}
	if len(y) != X.Rows {
		return nil, fmt.Errorf("%w: %d rows need %d labels, got %d", nb.ErrShape, X.Rows, X.Rows, len(y))
	}
	return sparseCounts(X.Cols, y, classes, binary, threshold, func() rowView {
		return func(i int) ([]int32, []float64, error) {
			idx, val := X.Row(i)
			return idx, val, checkValues(i, idx, val) // checkShape checked the shape
		}
	})
}

// A RowFunc appends row i of a matrix to idx and val and returns them: its
// columns, distinct and in any order, and their values.
type RowFunc func(i int, idx []int32, val []float64) ([]int32, []float64)

// rowView returns row i, valid until its next call, or what is wrong
// with it.
type rowView func(i int) ([]int32, []float64, error)

// countRows is count for the len(y) rows that row
// returns, over features columns, so that rows computed on the fly need no
// matrix. It calls row for each row once, concurrently from several
// goroutines (each with its own buffers), in increasing order within a
// class. A row with a column out of range, or a negative or non-finite
// value, is an error.
func countRows(features int, y []int, classes int, binary bool, threshold float64, row RowFunc) (*Counts, error) {
	return sparseCounts(features, y, classes, binary, threshold, func() rowView {
		var idx []int32
		var val []float64
		return func(i int) ([]int32, []float64, error) {
			idx, val = row(i, idx[:0], val[:0])
			return idx, val, checkRow(i, idx, val, features)
		}
	})
}

// checkRow reports a row that countRows cannot count: its shape,
// which a validated matrix guarantees, then its values (checkValues).
func checkRow(i int, idx []int32, val []float64, features int) error {
	if len(idx) != len(val) {
		return fmt.Errorf("%w: row %d has %d columns and %d values", nb.ErrShape, i, len(idx), len(val))
	}
	for _, j := range idx {
		if j < 0 || int(j) >= features {
			return fmt.Errorf("%w: row %d column %d, want 0..%d", nb.ErrShape, i, j, features-1)
		}
	}
	return checkValues(i, idx, val)
}

// checkValues reports a negative or non-finite value in row i.
func checkValues(i int, idx []int32, val []float64) error {
	for p, v := range val {
		if !check.Good(v) {
			return check.Value(i, idx[p], v)
		}
	}
	return nil
}

// sparseCounts sums rows per class; each goroutine reads them through a
// view of its own from newView.
func sparseCounts(features int, y []int, classes int, binary bool, threshold float64, newView func() rowView) (*Counts, error) {
	s, err := emptyCounts(features, classes, binary, threshold)
	if err != nil {
		return nil, err
	}
	rows := make([][]int32, classes)
	for i, label := range y {
		if label < 0 || label >= classes {
			return nil, fmt.Errorf("%w: row %d has label %d, want 0..%d", nb.ErrLabel, i, label, classes-1)
		}
		rows[label] = append(rows[label], int32(i))
	}
	for c, r := range rows {
		s.ClassCount[c] = float64(len(r))
	}
	cells := make([][]classCell, classes)
	errs := make([]*rowError, classes)
	// Each goroutine sums a class at a time into one of the accumulators of
	// F sums, which are too large to make per class.
	type worker struct {
		acc  classSum
		view rowView
	}
	workers := min(parallel.Workers(0), classes, max(1, accumulatorBudget/(8*max(1, features))))
	free := make(chan *worker, workers)
	for range workers {
		free <- &worker{acc: classSum{sum: make([]float64, features)}, view: newView()}
	}
	parallel.For(classes, workers, func(c int) {
		w := <-free
		cells[c], errs[c] = w.acc.rows(w.view, rows[c], binary, threshold)
		free <- w
	})
	if err := firstRowError(errs); err != nil {
		return nil, err
	}
	s.Ptr, s.Class, s.Count = featureMajor(cells, features)
	return s, nil
}

// emptyCounts returns counts of nothing, or what is wrong with the
// shape.
func emptyCounts(features, classes int, binary bool, threshold float64) (*Counts, error) {
	if classes < 1 || classes > MaxClasses {
		return nil, fmt.Errorf("%w: %d classes, want 1..%d", nb.ErrShape, classes, MaxClasses)
	}
	if features < 0 {
		return nil, fmt.Errorf("%w: %d features", nb.ErrShape, features)
	}
	return &Counts{Classes: classes, Features: features, ClassCount: make([]float64, classes),
		Binary: binary, Threshold: threshold}, nil
}

// rowError is an error in one row, so that of several classes' errors the
// one in the first row is reported, whatever the goroutines' timing.
type rowError struct {
	row int
	err error
}

func firstRowError(errs []*rowError) error {
	var first *rowError
	for _, e := range errs {
		if e != nil && (first == nil || e.row < first.row) {
			first = e
		}
	}
	if first == nil {
		return nil
	}
	return first.err
}

// accumulatorBudget bounds the bytes of count's accumulators (8
// per column and goroutine), which limits its goroutines for wide matrices.
const accumulatorBudget = 256 << 20

// classCell is one class's non-zero sum for feature j.
type classCell struct {
	j int32
	v float64
}

// classSum adds up the rows of one class in a dense accumulator. Values
// are never negative, so a sum is zero until its first non-zero value:
// that is when its feature joins touched. Once so many features are
// touched that a scan of every sum beats visiting them, touched is no
// longer kept (dense), so that it does not grow with the rows added.
type classSum struct {
	sum     []float64
	touched []int32
	dense   bool
}

// rows returns the non-zero feature sums of rows, by feature. Each sum
// adds the rows' values in row order, as summing per cell would.
func (a *classSum) rows(row rowView, rows []int32, binary bool, threshold float64) ([]classCell, *rowError) {
	defer a.clear()
	for _, i := range rows {
		idx, val, err := row(int(i))
		if err != nil {
			return nil, &rowError{int(i), err}
		}
		a.add(idx, val, binary, threshold)
	}
	return a.cells(), nil
}

// add adds one row to the sums.
func (a *classSum) add(idx []int32, val []float64, binary bool, threshold float64) {
	if a.dense {
		for p, j := range idx {
			if v, ok := dense.Binarized(val[p], binary, threshold); ok && v != 0 {
				a.sum[j] += v
			}
		}
		return
	}
	n := len(a.touched)
	a.touched = slices.Grow(a.touched, len(idx))[:n+len(idx)]
	for p, j := range idx {
		v, ok := dense.Binarized(val[p], binary, threshold)
		if !ok || v == 0 {
			continue // an absent value: it leaves the sum as it is
		}
		// Without a branch: whether a feature is new to the class is
		// not predictable, and a mispredicted branch would wait for
		// the sum's cache miss.
		s := a.sum[j]
		a.touched[n] = j
		n += zeroInt(s)
		a.sum[j] = s + v
	}
	a.touched = a.touched[:n]
	if !a.sparse() {
		a.dense, a.touched = true, a.touched[:0]
	}
}

// cells returns the non-zero sums, by feature.
func (a *classSum) cells() []classCell {
	if a.sparse() {
		out := make([]classCell, len(a.touched))
		slices.Sort(a.touched)
		for k, j := range a.touched {
			out[k] = classCell{j, a.sum[j]}
		}
		return out
	}
	n := 0 // a scan in feature order beats sorting
	for _, v := range a.sum {
		n += 1 - zeroInt(v)
	}
	out := make([]classCell, 0, n)
	for j, v := range a.sum {
		if v != 0 {
			out = append(out, classCell{int32(j), v})
		}
	}
	return out
}

// sparse reports whether few enough features were touched that visiting
// them beats a scan of every sum.
func (a *classSum) sparse() bool { return !a.dense && 16*len(a.touched) < len(a.sum) }

// clear zeroes the accumulator's touched entries.
func (a *classSum) clear() {
	if a.sparse() {
		for _, j := range a.touched {
			a.sum[j] = 0
		}
	} else {
		clear(a.sum)
	}
	a.touched, a.dense = a.touched[:0], false
}

// featureMajor lays the classes' cells out by feature, classes increasing.
// Ranges of features go on every core: each class's cells are in feature
// order, so a range's cells are a stretch of each class's.
func featureMajor(cells [][]classCell, features int) (ptr []int, class []uint16, count []float64) {
	b := cellSorter{ptr: make([]int, features+1)}
	parallel.Chunks(features, featureMajorChunk, 0, func(lo, hi int) {
		for _, cs := range cells {
			for _, cell := range featureRange(cs, lo, hi) {
				b.ptr[cell.j+1]++
			}
		}
	})
	b.alloc()
	parallel.Chunks(features, featureMajorChunk, 0, func(lo, hi int) {
		for c, cs := range cells { // classes in order, at most one cell each per feature: nothing to sum
			for _, cell := range featureRange(cs, lo, hi) {
				b.put(int(cell.j), uint16(c), cell.v)
			}
		}
	})
	return b.ptr, b.class, b.val
}

// featureMajorChunk is the features a goroutine of featureMajor takes at a
// time: enough that looking up each class's stretch costs nothing.
const featureMajorChunk = 1 << 15

// featureRange returns the cells of features lo to hi−1 of cells, which
// are in feature order.
func featureRange(cells []classCell, lo, hi int) []classCell {
	start, _ := slices.BinarySearchFunc(cells, lo, func(c classCell, j int) int { return cmp.Compare(int(c.j), j) })
	end, _ := slices.BinarySearchFunc(cells[start:], hi, func(c classCell, j int) int { return cmp.Compare(int(c.j), j) })
	return cells[start : start+end]
}

// Count counts the rows of X with labels y in [0, classes) for est, as
// nb.Counts.Add would into nb.NewCounts(est, classes, X.Cols), without a
// dense table: each class's rows are summed, in row order, into a dense
// accumulator (see count). Invalid input is rejected with the errors of
// nb.Counts.Add.
func Count(est nb.Estimator, X *vectorize.CSR, y []int, classes int) (*Counts, error) {
	binary, threshold := binarization(est)
	return count(X, y, classes, binary, threshold)
}

// CountRows is Count for the len(y) rows that row returns, over features
// columns, so that rows computed on the fly need no matrix. It calls row
// for each row once, concurrently from several goroutines (each with its
// own buffers), in increasing order within a class. A row with a column
// out of range, or a negative or non-finite value, is an error.
func CountRows(est nb.Estimator, features int, y []int, classes int, row RowFunc) (*Counts, error) {
	binary, threshold := binarization(est)
	return countRows(features, y, classes, binary, threshold, row)
}

// binarization returns how counts for est treat values (see nb.NewCounts).
func binarization(est nb.Estimator) (binary bool, threshold float64) {
	c := nb.NewCounts(est, 0, 0)
	return c.Binary, c.Threshold
}

// NNZ returns the number of stored class-feature cells.
func (s *Counts) NNZ() int { return len(s.Count) }

// FromDense returns c's non-zero feature counts as Counts, or nil if c is
// malformed or has more than MaxClasses classes.
func FromDense(c *nb.Counts) *Counts {
	k, f := c.Classes, c.Features
	if k < 1 || k > MaxClasses || f < 0 || len(c.ClassCount) != k || len(c.FeatureCount) != k*f {
		return nil
	}
	s := &Counts{Classes: k, Features: f, ClassCount: slices.Clone(c.ClassCount),
		Ptr: make([]int, f+1), Binary: c.Binary, Threshold: c.Threshold}
	n := 0
	for _, v := range c.FeatureCount {
		if v != 0 {
			n++
		}
	}
	s.Class, s.Count = make([]uint16, 0, n), make([]float64, 0, n)
	for j := range f {
		for cl := range k {
			if v := c.FeatureCount[cl*f+j]; v != 0 {
				s.Class, s.Count = append(s.Class, uint16(cl)), append(s.Count, v)
			}
		}
		s.Ptr[j+1] = len(s.Class)
	}
	return s
}

// Dense returns s as nb.Counts, or nil if s is malformed.
func (s *Counts) Dense() *nb.Counts {
	if s.check() != nil {
		return nil
	}
	c := nb.NewCounts(nil, s.Classes, s.Features)
	c.Binary, c.Threshold = s.Binary, s.Threshold
	copy(c.ClassCount, s.ClassCount)
	for j := range s.Features {
		for p := s.Ptr[j]; p < s.Ptr[j+1]; p++ {
			c.FeatureCount[int(s.Class[p])*s.Features+j] = s.Count[p]
		}
	}
	return c
}

// Merge returns the counts of s and o together, leaving both unchanged;
// they must have the same shape and binarization. Cells add as in
// nb.Counts.Merge, so with integer counts the result equals counting the
// union of the two data sets.
func Merge(s, o *Counts) (*Counts, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if err := o.check(); err != nil {
		return nil, fmt.Errorf("merged counts: %w", err)
	}
	if s.Classes != o.Classes || s.Features != o.Features {
		return nil, fmt.Errorf("%w: cannot merge counts of %d classes × %d features into %d classes × %d features",
			nb.ErrShape, o.Classes, o.Features, s.Classes, s.Features)
	}
	if s.Binary != o.Binary || s.Binary && s.Threshold != o.Threshold {
		return nil, fmt.Errorf("%w: cannot merge counts with binary=%t threshold=%g into binary=%t threshold=%g",
			nb.ErrConfig, o.Binary, o.Threshold, s.Binary, s.Threshold)
	}
	d := s.withClassCounts()
	for c, v := range o.ClassCount {
		d.ClassCount[c] += v
	}
	b := cellSorter{ptr: make([]int, s.Features+1)}
	for j := range s.Features {
		b.ptr[j+1] = s.Ptr[j+1] - s.Ptr[j] + o.Ptr[j+1] - o.Ptr[j]
	}
	b.alloc()
	for j := range s.Features {
		b.putCells(j, s, j)
		b.putCells(j, o, j)
	}
	d.Ptr, d.Class, d.Count = b.finish(s.Classes)
	return d, nil
}

// Remap returns counts over a new vocabulary of features columns, like
// nb.Counts.Remap: old feature j moves to column oldToNew[j], or is dropped
// when that is negative; features mapped to one column add up.
func (s *Counts) Remap(features int, oldToNew []int32) (*Counts, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if len(oldToNew) != s.Features {
		return nil, fmt.Errorf("%w: mapping has %d entries for %d features", nb.ErrShape, len(oldToNew), s.Features)
	}
	if features < 0 {
		return nil, fmt.Errorf("%w: %d features", nb.ErrShape, features)
	}
	b := cellSorter{ptr: make([]int, features+1)}
	taken := make([]bool, features) // columns some feature maps to
	shared := false                 // some column takes several features
	for j, to := range oldToNew {
		if int(to) >= features {
			return nil, fmt.Errorf("%w: feature %d maps to column %d of %d", nb.ErrShape, j, to, features)
		}
		if to >= 0 {
			b.ptr[to+1] += s.Ptr[j+1] - s.Ptr[j]
			shared = shared || taken[to]
			taken[to] = true
		}
	}
	d := s.withClassCounts()
	d.Features = features
	b.alloc()
	if !shared { // nothing to sum: move each feature's cells, on every core
		parallel.Chunks(len(oldToNew), parallelChunk, 0, func(lo, hi int) {
			for j := lo; j < hi; j++ {
				if to := oldToNew[j]; to >= 0 {
					b.putCells(int(to), s, j) // one feature per column: the buckets are disjoint
				}
			}
		})
		d.Ptr, d.Class, d.Count = b.ptr, b.class, b.val
		return d, nil
	}
	for j, to := range oldToNew {
		if to >= 0 {
			b.putCells(int(to), s, j)
		}
	}
	d.Ptr, d.Class, d.Count = b.finish(s.Classes)
	return d, nil
}

// RemapClasses returns s over classes classes: old class k becomes class
// to[k]. Classes mapped to one class add up; classes nothing maps to are
// empty. It is how models with different class lists are merged.
func (s *Counts) RemapClasses(classes int, to []int) (*Counts, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if len(to) != s.Classes {
		return nil, fmt.Errorf("%w: mapping has %d entries for %d classes", nb.ErrShape, len(to), s.Classes)
	}
	if classes < 1 || classes > MaxClasses {
		return nil, fmt.Errorf("%w: %d classes, want 1 to %d", nb.ErrShape, classes, MaxClasses)
	}
	d := &Counts{Classes: classes, Features: s.Features, ClassCount: make([]float64, classes),
		Binary: s.Binary, Threshold: s.Threshold}
	for k, c := range to {
		if c < 0 || c >= classes {
			return nil, fmt.Errorf("%w: class %d maps to %d of %d", nb.ErrShape, k, c, classes)
		}
		d.ClassCount[c] += s.ClassCount[k]
	}
	b := cellSorter{ptr: make([]int, s.Features+1)}
	for j := range s.Features {
		b.ptr[j+1] = s.Ptr[j+1] - s.Ptr[j]
	}
	b.alloc()
	for j := range s.Features {
		for p := s.Ptr[j]; p < s.Ptr[j+1]; p++ {
			b.put(j, uint16(to[s.Class[p]]), s.Count[p])
		}
	}
	d.Ptr, d.Class, d.Count = b.finish(classes)
	return d, nil
}

// withClassCounts returns a copy of s's header and class counts, without
// cells.
func (s *Counts) withClassCounts() *Counts {
	return &Counts{Classes: s.Classes, Features: s.Features, ClassCount: slices.Clone(s.ClassCount),
		Binary: s.Binary, Threshold: s.Threshold}
}

// header returns s's class statistics as nb.Counts of no features: all
// that fitStart fits.
func (s *Counts) header() *nb.Counts {
	return &nb.Counts{Classes: s.Classes, ClassCount: s.ClassCount, Binary: s.Binary, Threshold: s.Threshold}
}

// check validates s's structure and values.
func (s *Counts) check() error {
	if s == nil {
		return fmt.Errorf("%w: nil counts", nb.ErrShape)
	}
	k, f := s.Classes, s.Features
	if k < 1 || k > MaxClasses || f < 0 || len(s.ClassCount) != k || len(s.Ptr) != f+1 ||
		s.Ptr[0] != 0 || s.Ptr[f] != len(s.Class) || len(s.Class) != len(s.Count) {
		return fmt.Errorf("%w: sparse counts for %d classes × %d features hold %d class counts, %d pointers, %d classes and %d cells",
			nb.ErrShape, k, f, len(s.ClassCount), len(s.Ptr), len(s.Class), len(s.Count))
	}
	if err := checkCells(s.Ptr, s.Class, k); err != nil {
		return err
	}
	if err := check.Weights("class count", s.ClassCount); err != nil {
		return err
	}
	if err := check.Weights("feature count", s.Count); err != nil {
		return err
	}
	return nil
}

// checkCells verifies that ptr is non-decreasing within class and that
// every feature's classes increase strictly and stay below k, reporting the
// first bad feature.
func checkCells(ptr []int, class []uint16, k int) error {
	n := len(ptr) - 1
	j := firstBad(n, func(lo, hi int) int {
		for j := lo; j < hi; j++ {
			if checkFeatureCells(ptr, class, k, j) != nil {
				return j
			}
		}
		return hi
	})
	if j < n {
		return checkFeatureCells(ptr, class, k, j)
	}
	return nil
}

// checkFeatureCells checks the cells of feature j as checkCells does.
func checkFeatureCells(ptr []int, class []uint16, k, j int) error {
	lo, hi := ptr[j], ptr[j+1]
	if lo < 0 || lo > hi || hi > len(class) {
		return fmt.Errorf("%w: feature %d cell pointers [%d,%d) out of order", nb.ErrShape, j, lo, hi)
	}
	prev := -1
	for _, c := range class[lo:hi] {
		if int(c) <= prev || int(c) >= k {
			return fmt.Errorf("%w: feature %d class %d out of order or ≥ %d classes", nb.ErrShape, j, c, k)
		}
		prev = int(c)
	}
	return nil
}

// classSums returns Σ_j N_cj for every class.
func (s *Counts) classSums() []float64 {
	sums := make([]float64, s.Classes)
	for p, c := range s.Class {
		sums[c] += s.Count[p]
	}
	return sums
}

// cellSorter gathers (feature, class, value) entries into per-feature
// buckets by a counting sort and then sums them per class. The caller puts
// each bucket's size in ptr[j+1], calls alloc, puts the entries and calls
// finish. When no bucket can receive two entries of one class, and they
// arrive in class order, ptr, class and val are final after the puts, and
// finish is skipped (featureMajor, Remap).
type cellSorter struct {
	ptr   []int // features+1; after alloc, until the puts end, ptr[j+1] is feature j's cursor
	class []uint16
	val   []float64
}

// alloc turns the bucket sizes into start positions and allocates the
// entries.
func (b *cellSorter) alloc() {
	n := 0
	for j := 1; j < len(b.ptr); j++ {
		n, b.ptr[j] = n+b.ptr[j], n
	}
	b.class, b.val = make([]uint16, n), make([]float64, n)
}

// put appends an entry to feature j's bucket.
func (b *cellSorter) put(j int, c uint16, v float64) {
	p := b.ptr[j+1]
	b.ptr[j+1]++
	b.class[p], b.val[p] = c, v
}

// putCells appends feature j of s to bucket to.
func (b *cellSorter) putCells(to int, s *Counts, j int) {
	p, from, end := b.ptr[to+1], s.Ptr[j], s.Ptr[j+1]
	copy(b.class[p:], s.Class[from:end])
	copy(b.val[p:], s.Count[from:end])
	b.ptr[to+1] += end - from
}

// finish sums every bucket per class, in the order the entries were put,
// drops zero sums and returns the cells in exactly sized slices. After
// alloc and all puts, ptr[j+1] is the end of bucket j.
func (b *cellSorter) finish(classes int) (ptr []int, class []uint16, count []float64) {
	acc := make([]float64, classes)
	var touched []uint16
	w, lo := 0, 0
	for j := 1; j < len(b.ptr); j++ {
		hi := b.ptr[j]
		touched = touched[:0]
		for p := lo; p < hi; p++ {
			c, v := b.class[p], b.val[p]
			if v == 0 {
				continue // leaves the sum as it is
			}
			if acc[c] == 0 { // counts are ≥ 0: a sum is 0 until its first non-zero count
				touched = append(touched, c)
			}
			acc[c] += v
		}
		slices.Sort(touched)
		for _, c := range touched { // w ≤ lo: the bucket was read before this overwrites it
			b.class[w], b.val[w] = c, acc[c]
			w++
			acc[c] = 0
		}
		b.ptr[j], lo = w, hi
	}
	class, count = slices.Clone(b.class[:w]), slices.Clone(b.val[:w])
	b.class, b.val = nil, nil
	return b.ptr, class, count
}

// zeroInt is 1 if v is 0, else 0, without a branch.
func zeroInt(v float64) int {
	if v == 0 {
		return 1
	}
	return 0
}
