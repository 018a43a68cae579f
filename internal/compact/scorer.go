package compact

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/textnb/textnb/internal/dense"
)

// A Scorer scores rows as its Linear does, to the last bit,
// from a layout made for scoring: each feature's base weight, first cell
// and set of classes with a cell (a bit mask) side by side, where the
// Linear keeps them in three arrays (Base, Ptr, Class). Scoring a
// feature then reads one 16-byte entry and its Delta cells instead of four
// places in memory; a feature with a cell for every class adds them without
// looking up their classes.
//
// Make one with Linear.Scorer: a zero Scorer has no model to
// score with. A scorer reads its Linear's fields as it scores: it is
// valid as long as that is not modified.
type Scorer struct {
	t     *Linear
	feats []scoredFeature
	full  uint32 // the mask of every class
}

// scoredFeature is a feature's part of Linear for scoring.
type scoredFeature struct {
	base float64 // Base[j], or 0
	lo   uint32  // Ptr[j]
	mask uint32  // bit c set where class c has a cell
}

// MaxScorerClasses is the most classes a Scorer lays out for: their
// set fits in a mask of 32 bits. With more it scores through its
// Linear.
const MaxScorerClasses = 32

// Scorer returns a Scorer for t, or the error of t.Validate if t
// is malformed. Laying t out checks it as Validate would, in the same
// pass: a decoded model needs only this.
func (t *Linear) Scorer() (*Scorer, error) {
	if err := t.checkShape(); err != nil {
		return nil, err
	}
	s := &Scorer{t: t}
	if t.K > MaxScorerClasses || uint64(len(t.Delta)) > math.MaxUint32 {
		if err := checkCells(t.Ptr, t.Class, t.K); err != nil {
			return nil, err
		}
		return s, nil // scores through t
	}
	s.full = uint32(1<<t.K - 1)
	s.feats = make([]scoredFeature, t.Features)
	if bad := firstBad(t.Features, s.layOut); bad < t.Features {
		return nil, checkFeatureCells(t.Ptr, t.Class, t.K, bad)
	}
	return s, nil
}

// ScorerLike returns a Scorer for t as t.Scorer does, taking the layout
// of s, whose Linear shares t's Ptr and Class (Fit's of one Counts do),
// rather than laying t's cells out and checking them again; for any other
// s it is t.Scorer.
func (t *Linear) ScorerLike(s *Scorer) (*Scorer, error) {
	if s == nil || s.feats == nil || s.t.K != t.K || s.t.Features != t.Features ||
		!sameSlice(s.t.Ptr, t.Ptr) || !sameSlice(s.t.Class, t.Class) {
		return t.Scorer()
	}
	if err := t.checkShape(); err != nil {
		return nil, err
	}
	n := &Scorer{t: t, full: s.full, feats: make([]scoredFeature, len(s.feats))}
	for j, f := range s.feats {
		f.base = 0
		if t.Base != nil {
			f.base = t.Base[j]
		}
		n.feats[j] = f
	}
	return n, nil
}

// sameSlice reports whether a and b are the same slice of one array.
func sameSlice[E any](a, b []E) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}

// layOut fills the entries of features lo to hi−1 and returns the first
// whose cells are out of order (see checkFeatureCells), or hi.
func (s *Scorer) layOut(lo, hi int) int {
	t := s.t
	for j := lo; j < hi; j++ {
		p, q := t.Ptr[j], t.Ptr[j+1]
		if p < 0 || p > q || q > len(t.Class) {
			return j
		}
		f := scoredFeature{lo: uint32(p)}
		if t.Base != nil {
			f.base = t.Base[j]
		}
		for _, c := range t.Class[p:q] {
			if int(c) >= t.K || f.mask>>c != 0 { // classes increase strictly
				return j
			}
			f.mask |= 1 << c
		}
		s.feats[j] = f
	}
	return hi
}

// NumClasses returns K.
func (s *Scorer) NumClasses() int { return s.t.K }

// NumFeatures returns the number of features.
func (s *Scorer) NumFeatures() int { return s.t.Features }

// JointLogLikelihood appends the K scores of one sparse row, equal to the
// Linear's. A row whose idx and val differ in length scores NaN.
func (s *Scorer) JointLogLikelihood(dst []float64, idx []int32, val []float64) []float64 {
	t := s.t
	if s.feats == nil {
		return t.JointLogLikelihood(dst, idx, val)
	}
	k := t.K
	if len(idx) != len(val) {
		return dense.NaNRow(dst, k)
	}
	dst, acc := startScores(dst, k)
	keep(s.touch(idx))
	var sx, sb float64
	for p, j := range idx {
		if uint(j) >= uint(len(s.feats)) {
			continue
		}
		x, ok := dense.Binarized(val[p], t.Binary, t.Threshold)
		if !ok {
			continue
		}
		f := &s.feats[j]
		sx += x
		if t.Base != nil {
			sb += x * f.base
		}
		delta := t.Delta[f.lo:]
		if f.mask == s.full {
			for c, d := range delta[:k] {
				acc[c] += x * d
			}
			continue
		}
		q := 0
		for m := f.mask; m != 0; m &= m - 1 {
			acc[bits.TrailingZeros32(m)] += x * delta[q]
			q++
		}
	}
	t.addClassTerms(acc, sb, sx)
	return dst
}

// touch loads the first Delta cell of every feature of a row, through its
// entry (see Linear.touch): the loads of all start at once, where scoring
// would wait on one feature's cells at a time.
func (s *Scorer) touch(idx []int32) uint64 {
	var mix uint64
	delta := s.t.Delta
	for _, j := range idx {
		if uint(j) < uint(len(s.feats)) {
			if lo := s.feats[j].lo; uint(lo) < uint(len(delta)) {
				mix += math.Float64bits(delta[lo])
			}
		}
	}
	return mix
}
