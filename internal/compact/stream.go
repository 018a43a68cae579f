package compact

import (
	"errors"
	"fmt"

	"github.com/textnb/textnb/nb"
)

// A ScanFunc calls visit with rows 0, 1, 2, … of a matrix, in order (each
// row's columns distinct, in any order, in buffers it may reuse), and
// returns visit's first error.
type ScanFunc func(visit func(i int, idx []int32, val []float64) error) error

// countScan is countRows for the len(y) rows that scan
// reads in order, as from a file, without holding them: it scans them once
// for each group of classes whose dense accumulators fit together in
// accumulatorBudget (once, for most text models). Each sum adds its
// class's rows in row order, so the counts equal countRows' bit for bit.
// Bad rows are the errors of countRows; a scan that
// gives rows out of order or too few is an nb.ErrShape.
func countScan(features int, y []int, classes int, binary bool, threshold float64, scan ScanFunc) (*Counts, error) {
	s, err := emptyCounts(features, classes, binary, threshold)
	if err != nil {
		return nil, err
	}
	for i, label := range y {
		if label < 0 || label >= classes {
			return nil, fmt.Errorf("%w: row %d has label %d, want 0..%d", nb.ErrLabel, i, label, classes-1)
		}
		s.ClassCount[label]++
	}
	group := min(classes, max(1, accumulatorBudget/(8*max(1, features))))
	accs := make([]classSum, group)
	cells := make([][]classCell, classes)
	for lo := 0; lo < classes; lo += group {
		hi := min(classes, lo+group)
		for c := range hi - lo {
			if accs[c].sum == nil {
				accs[c].sum = make([]float64, features)
			}
		}
		next := 0
		err := scanBatches(scan, func(i int, idx []int32, val []float64) error {
			if i != next || i >= len(y) {
				return fmt.Errorf("%w: scan gave row %d after %d of %d rows", nb.ErrShape, i, next, len(y))
			}
			next++
			c := y[i]
			if c < lo || c >= hi {
				return nil
			}
			if err := checkRow(i, idx, val, features); err != nil {
				return err
			}
			accs[c-lo].add(idx, val, binary, threshold)
			return nil
		})
		if err == nil && next != len(y) {
			err = fmt.Errorf("%w: scan gave %d rows, want %d", nb.ErrShape, next, len(y))
		}
		if err != nil {
			return nil, err
		}
		if group == classes { // every class at once: lay the sums out straight from the accumulators
			s.Ptr, s.Class, s.Count = denseFeatureMajor(accs, features)
			return s, nil
		}
		for c := lo; c < hi; c++ {
			cells[c] = accs[c-lo].cells()
			accs[c-lo].clear()
		}
	}
	s.Ptr, s.Class, s.Count = featureMajor(cells, features)
	return s, nil
}

// denseFeatureMajor lays the non-zero sums of every class out by feature,
// without the per-class cells that featureMajor takes, which would hold
// up to 16 bytes a cell on top of the accumulators and the result. It
// goes through the features a block at a time and releases the
// accumulators' pages of each block once its cells are written (their
// values read as zero afterwards), so that the result's memory takes the
// place of the accumulators' instead of adding to it.
func denseFeatureMajor(accs []classSum, features int) (ptr []int, class []uint16, count []float64) {
	ptr = make([]int, features+1)
	n := 0
	for j := range features {
		for c := range accs {
			n += 1 - zeroInt(accs[c].sum[j])
		}
		ptr[j+1] = n
	}
	class, count = make([]uint16, n), make([]float64, n)
	k := 0
	for lo := 0; lo < features; lo += releaseBlock {
		hi := min(features, lo+releaseBlock)
		for j := lo; j < hi; j++ {
			for c := range accs {
				if v := accs[c].sum[j]; v != 0 {
					class[k], count[k] = uint16(c), v
					k++
				}
			}
		}
		for c := range accs {
			releasePages(accs[c].sum[lo:hi])
		}
	}
	return ptr, class, count
}

// releaseBlock is the features whose accumulators denseFeatureMajor
// releases at a time: 256 KiB a class.
const releaseBlock = 1 << 15

// CountScan is CountRows for the len(y) rows that scan reads in order, as
// from a file, without holding them (see countScan).
func CountScan(est nb.Estimator, features int, y []int, classes int, scan ScanFunc) (*Counts, error) {
	binary, threshold := binarization(est)
	return countScan(features, y, classes, binary, threshold, scan)
}

// rowBatch is rows copied out of a scan: row k is idx[ptr[k]:ptr[k+1]].
type rowBatch struct {
	first int
	ptr   []int
	idx   []int32
	val   []float64
}

// batchEntries is about how many entries a rowBatch takes before it is
// handed over.
const batchEntries = 1 << 16

// errStopped stops a scan whose consumer has failed.
var errStopped = errors.New("nb: scan stopped")

// scanBatches calls visit with every row of scan, in order, on the calling
// goroutine while scan runs on another, so that reading rows (decoding,
// weighting) and summing them take a core each.
func scanBatches(scan ScanFunc, visit func(i int, idx []int32, val []float64) error) error {
	full, free := make(chan *rowBatch, 4), make(chan *rowBatch, 4)
	for range 4 {
		free <- &rowBatch{ptr: make([]int, 1, 1024)}
	}
	stop := make(chan struct{})
	var scanErr error
	go func() {
		defer close(full)
		b := <-free
		send := func() bool {
			select {
			case full <- b:
			case <-stop:
				return false
			}
			select {
			case b = <-free:
				return true
			case <-stop:
				return false
			}
		}
		scanErr = scan(func(i int, idx []int32, val []float64) error {
			if len(b.ptr) == 1 {
				b.first = i
			} else if b.first+len(b.ptr)-1 != i { // keep a batch's rows consecutive
				if !send() {
					return errStopped
				}
				b.first = i
			}
			b.idx, b.val = append(b.idx, idx...), append(b.val, val...)
			b.ptr = append(b.ptr, len(b.idx))
			if len(b.idx) >= batchEntries && !send() {
				return errStopped
			}
			return nil
		})
		if scanErr == nil && len(b.ptr) > 1 {
			send()
		}
	}()
	var err error
	for b := range full {
		for k := range len(b.ptr) - 1 {
			if err == nil {
				err = visit(b.first+k, b.idx[b.ptr[k]:b.ptr[k+1]], b.val[b.ptr[k]:b.ptr[k+1]])
			}
		}
		if err != nil {
			close(stop)
			for range full { // until the scan gives up
			}
			return err
		}
		b.ptr, b.idx, b.val = b.ptr[:1], b.idx[:0], b.val[:0]
		free <- b
	}
	return scanErr
}
