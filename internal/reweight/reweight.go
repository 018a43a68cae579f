package reweight

import (
	"cmp"
	"errors"
	"fmt"
	"math"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/parallel"
)

// Task is a corpus to reweight and the model that scores it.
type Task struct {
	Classes, Features int
	// Docs are the documents reweighted; Row returns document i's weighted
	// row (safe for concurrent use; the slices are only read).
	Docs []int
	Row  func(i int) ([]int32, []float64)
	// Holds reports whether document i has class c.
	Holds func(i, c int) bool
	// Fit returns the model of the counts with gain added (nil: none yet),
	// which must be valid (compact.Linear.Validate; RestLinear's and
	// compact.Fit's are).
	// dst, if not nil, is the previous pass's model, no longer used: Fit
	// may reuse its memory (RestLinear does).
	Fit func(dst *compact.Linear, gain *compact.Counts) (*compact.Linear, error)
	// LogProbs turns a document's jll into log-probabilities in place.
	LogProbs func(jll []float64)
	// Own, if not nil, is document i's own class: the gains of i go to
	// it (Multinomial NB: Su et al.'s update of the true class) instead of
	// to the rests of the classes that took probability from i.
	Own func(i int) int
	// Weights, if not nil, is set to the weights that Gains's passes
	// gave: document Docs[k]'s for class c at k·Classes+c. Sum adds a
	// subset's rows up again by them.
	Weights *[]float64
}

// Gains runs passes passes at rate η and returns what they add to the
// counts (nil with no passes). Each pass scores Docs with t.Fit of the
// gains so far; a class c that document i does not hold, but whose
// probability of i exceeds the uniform 1/K, adds i's row to c's rest (or
// to i's own class, see Own), weighted by η times the excess. Weights
// accumulate over the passes: a pass's gains are the sum of its and the
// earlier passes' weights, so a class that stops being confused keeps
// what it learned. A class never confused gains nothing, and the counts
// gain cells only where confusion was.
func Gains(t Task, passes int, rate float64) (*compact.Counts, error) {
	if passes <= 0 {
		return nil, nil
	}
	K := t.Classes
	w := make([]float64, len(t.Docs)*K) // per document and class: the weight gained
	uniform := 1 / float64(K)
	var gain *compact.Counts
	var lin *compact.Linear // the pass's model, whose memory the next reuses
	parts := t.parts(true)
	var scratch gainScratch // the column sums' memory, kept between passes
	for range passes {
		var err error
		if lin, err = t.Fit(lin, gain); err != nil {
			return nil, err
		}
		if lin.K != K || lin.Features != t.Features {
			return nil, fmt.Errorf("%w: reweighting %d classes × %d features, fitted %d × %d", check.ErrShape, K, t.Features, lin.K, lin.Features)
		}
		parallel.For(len(parts), 0, func(q int) {
			p := &parts[q]
			p.cols.score(p.jll, p.sx, p.sb, lin)
			for k := p.lo; k < p.hi; k++ {
				i := t.Docs[k]
				jll := p.jll[(k-p.lo)*K : (k-p.lo+1)*K]
				t.LogProbs(jll)
				wk := w[k*K : (k+1)*K]
				for c, lp := range jll {
					if e := math.Exp(lp) - uniform; e > 0 && !t.Holds(i, c) {
						wk[c] += rate * e
					}
				}
			}
		})
		if t.Own == nil {
			gain, err = t.gainColumns(gain, parts, w, &scratch) // the last gains are spent
		} else {
			gain, err = t.gain(w)
		}
		if err != nil {
			return nil, err
		}
	}
	if t.Weights != nil {
		*t.Weights = w
	}
	return gain, nil
}

// Sum returns the gains of weights w (len(t.Docs)×t.Classes, laid out as
// Task.Weights): the rows of t.Docs weighted by w, summed per class whose
// rest gains them (or per own class with t.Own), as a pass of Gains sums
// them, in dst's memory if dst is not nil. Given the weights of a
// reweighting of a corpus and some of its documents, it gives what those
// documents gained (see Less).
func Sum(dst *compact.Counts, t Task, w []float64) (*compact.Counts, error) {
	K := t.Classes
	if len(w) != len(t.Docs)*K {
		return nil, fmt.Errorf("%w: %d weights for %d documents × %d classes", check.ErrShape, len(w), len(t.Docs), K)
	}
	if t.Own == nil {
		return t.gainColumns(dst, t.parts(false), w, &gainScratch{})
	}
	return t.gain(w)
}

// Less returns the gains all less part, some of its documents' (Sum), in
// dst's memory if dst is not nil: what the other documents gained.
// Cross-validation takes a fold's gains out of a reweighting of every
// document so, as it takes the fold's counts out of theirs. A cell left
// with rounding error alone, 1e-9 of its gain or less, is dropped.
func Less(dst, all, part *compact.Counts) (*compact.Counts, error) {
	if part.Classes != all.Classes || part.Features != all.Features {
		return nil, fmt.Errorf("%w: %d classes × %d features less %d × %d", check.ErrShape, all.Classes, all.Features, part.Classes, part.Features)
	}
	F := all.Features
	d := cmp.Or(dst, &compact.Counts{})
	*d = compact.Counts{Classes: all.Classes, Features: F, ClassCount: resize(d.ClassCount, all.Classes), Ptr: resize(d.Ptr, F+1),
		Class: resize(d.Class, len(all.Class))[:0], Count: resize(d.Count, len(all.Count))[:0]}
	for c, v := range all.ClassCount {
		d.ClassCount[c] = max(v-part.ClassCount[c], 0)
	}
	d.Ptr[0] = 0
	for j := range F {
		q := part.Ptr[j]
		for p := all.Ptr[j]; p < all.Ptr[j+1]; p++ {
			c, v := all.Class[p], all.Count[p]
			for q < part.Ptr[j+1] && part.Class[q] < c {
				q++
			}
			if q < part.Ptr[j+1] && part.Class[q] == c {
				v -= part.Count[q]
				q++
			}
			if v > 1e-9*all.Count[p] {
				d.Class, d.Count = append(d.Class, c), append(d.Count, v)
			}
		}
		d.Ptr[j+1] = len(d.Class)
	}
	return d, nil
}

// part is a range of Docs, lo to hi, by columns, with the buffers that
// scoring them needs.
type part struct {
	lo, hi      int
	cols        columns
	jll, sx, sb []float64
}

// parts splits Docs into parts, by columns, with scoring buffers if score.
func (t Task) parts(score bool) []part {
	n, K := len(t.Docs), t.Classes
	parts := make([]part, min(2*parallel.Workers(0), max(1, n/64)))
	parallel.For(len(parts), 0, func(q int) {
		lo, hi := q*n/len(parts), (q+1)*n/len(parts)
		parts[q] = part{lo: lo, hi: hi, cols: newColumns(t.Features, hi-lo, func(k int) ([]int32, []float64) { return t.Row(t.Docs[lo+k]) })}
		if score {
			parts[q].jll, parts[q].sx, parts[q].sb = make([]float64, (hi-lo)*K), make([]float64, hi-lo), make([]float64, hi-lo)
		}
	})
	return parts
}

// gain sums the rows of Docs weighted by w (len(Docs)×K), per class whose
// rest gains them, or per document's own class with Own.
func (t Task) gain(w []float64) (*compact.Counts, error) {
	K := t.Classes
	var y, pair []int // class and index into w, per weighted row
	for k, i := range t.Docs {
		for c, v := range w[k*K : (k+1)*K] {
			if v > 0 {
				if t.Own != nil {
					y, pair = append(y, t.Own(i)), append(pair, k*K+c)
				} else {
					y, pair = append(y, c), append(pair, k*K+c)
				}
			}
		}
	}
	g, err := compact.CountRows(nil, t.Features, y, K, func(p int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := t.Row(t.Docs[pair[p]/K])
		wt := w[pair[p]]
		idx = append(idx, ri...)
		for _, v := range rv {
			val = append(val, wt*v)
		}
		return idx, val
	})
	if g != nil && t.Own != nil {
		clear(g.ClassCount) // the gains are weight, not documents
	}
	return g, err
}

// gainScratch is gainColumns' memory: the classes that gain each document
// (from start[k] for Docs[k]), and each range of features' cells.
type gainScratch struct {
	start  []int
	gains  []uint16
	weight []float64 // beside gains: the weights, in cache together
	ranges []cells
}

// cells are some features' gain cells, feature by feature.
type cells struct {
	class []uint16
	count []float64
}

// gainColumns returns what gain does, in dst's memory if dst is not nil,
// from Docs by columns (parts, as t.parts makes them): each range of
// features is summed on a core of its own, a feature at a time, its cells
// in a row of K sums. Each cell adds its documents' weighted values in
// document order, as gain's per-class sums do, so the counts are the same
// bit for bit; reading by feature, the sums stay in cache where reading a
// document at a time would scatter them over a Features×K table.
func (t Task) gainColumns(dst *compact.Counts, parts []part, w []float64, s *gainScratch) (*compact.Counts, error) {
	K, F, n := t.Classes, t.Features, len(t.Docs)
	ranges := min(4*parallel.Workers(0), max(1, F))
	if len(s.ranges) < ranges {
		s.ranges = make([]cells, ranges)
	}
	if dst != nil && len(dst.Ptr) == F+1 { // room for a range's cells as many again as dst's and a quarter
		for r := range ranges {
			m := dst.Ptr[(r+1)*F/ranges] - dst.Ptr[r*F/ranges]
			if out := &s.ranges[r]; cap(out.class) < m {
				out.class, out.count = make([]uint16, 0, m+m/4), make([]float64, 0, m+m/4)
			}
		}
	}
	g := cmp.Or(dst, &compact.Counts{})
	*g = compact.Counts{Classes: K, Features: F, ClassCount: resize(g.ClassCount, K), Ptr: resize(g.Ptr, F+1),
		Class: g.Class[:0], Count: g.Count[:0]}
	clear(g.ClassCount)
	s.start, s.gains, s.weight = resize(s.start, n+1), s.gains[:0], s.weight[:0]
	s.start[0] = 0
	for k := range n {
		for c, v := range w[k*K : (k+1)*K] {
			if v > 0 {
				s.gains, s.weight = append(s.gains, uint16(c)), append(s.weight, v)
				g.ClassCount[c]++
			}
		}
		s.start[k+1] = len(s.gains)
	}
	errs := make([]error, ranges)
	g.Ptr[0] = 0
	parallel.For(ranges, 0, func(r int) {
		lo, hi := r*F/ranges, (r+1)*F/ranges
		out := &s.ranges[r]
		out.class, out.count = out.class[:0], out.count[:0]
		row := make([]float64, K)
		for j := lo; j < hi; j++ {
			for q := range parts {
				p := &parts[q]
				for e := p.cols.ptr[j]; e < p.cols.ptr[j+1]; e++ {
					k, v := p.lo+int(p.cols.doc[e]), p.cols.val[e]
					wk := s.weight[s.start[k]:s.start[k+1]]
					for i, c := range s.gains[s.start[k]:s.start[k+1]] {
						if x := wk[i] * v; x != 0 {
							row[c] += x
						}
					}
				}
			}
			m := len(out.class)
			for c, v := range row {
				if v == 0 {
					continue
				}
				if !check.Good(v) && errs[r] == nil {
					errs[r] = fmt.Errorf("%w: reweighting gained %g for class %d, feature %d", check.Bad(v), v, c, j)
				}
				out.class, out.count = append(out.class, uint16(c)), append(out.count, v)
				row[c] = 0
			}
			g.Ptr[j+1] = len(out.class) - m
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for j := range F {
		g.Ptr[j+1] += g.Ptr[j]
	}
	g.Class, g.Count = resize(g.Class, g.Ptr[F]), resize(g.Count, g.Ptr[F])
	parallel.For(ranges, 0, func(r int) {
		at := g.Ptr[r*F/ranges]
		copy(g.Class[at:], s.ranges[r].class)
		copy(g.Count[at:], s.ranges[r].count)
	})
	return g, nil
}

// resize returns s with length n, in s's memory if it has room, else in
// new memory with room for the growth of later passes.
func resize[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]E, n, n+n/4)
}

// RestLinear returns the scoring form of K one-vs-rest models whose
// positive halves sum the rows pos (per class; pos.ClassCount its
// documents) out of docs documents whose rows sum to tot (per feature),
// with each class's rest grown by gain (nil: none). With R_c the sum of the
// rest of class c and rest_cj = tot_j − pos_cj + gain_cj, the complement
// score of c is Σ_j x_j·(log(R_c+αF) − log(rest_cj+α)): Complement NB's,
// unnormalized. odds adds each model's positive half, Σ_j x_j·(log(pos_cj+α)
// − log(N_c+αF)), and its prior log-odds. Where pos_cj and gain_cj are zero
// what is left, −log(tot_j+α) plus a class's constant, is the base. The
// model is made in dst's memory if dst is not nil.
func RestLinear(dst *compact.Linear, pos *compact.Counts, tot []float64, docs int, gain *compact.Counts, alpha float64, odds bool) (*compact.Linear, error) {
	L, F := pos.Classes, len(tot)
	fa := alpha * float64(F)
	total := 0.0
	for _, x := range tot {
		total += x
	}
	if gain == nil {
		gain = &compact.Counts{Ptr: make([]int, F+1)}
	}
	sums, gains := classSums(pos, L), classSums(gain, L)
	t := cmp.Or(dst, &compact.Linear{})
	ptr, class := unionCells(t.Ptr, t.Class, pos, gain)
	*t = compact.Linear{K: L, Features: F, Bias: resize(t.Bias, L), P: resize(t.P, L), Q: resize(t.Q, L),
		Base: resize(t.Base, F), Ptr: ptr, Class: class, Delta: resize(t.Delta, len(class))}
	clear(t.Bias)
	for j, v := range tot {
		t.Base[j] = math.Log(v + alpha)
	}
	for l := range L {
		t.P[l] = -1
		t.Q[l] = math.Log(max(total-sums[l], 0) + gains[l] + fa)
		if odds {
			t.Q[l] += math.Log(alpha) - math.Log(sums[l]+fa)
			n := pos.ClassCount[l]
			t.Bias[l] = math.Log(n+0.5) - math.Log(max(float64(docs)-n, 0)+0.5)
		}
	}
	logAlpha := math.Log(alpha)
	parallel.Chunks(F, 4096, 0, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			pp, pe := pos.Ptr[j], gain.Ptr[j]
			for p := t.Ptr[j]; p < t.Ptr[j+1]; p++ {
				l := t.Class[p]
				v, e := cellAt(pos, j, l, &pp), cellAt(gain, j, l, &pe)
				d := t.Base[j] - math.Log(max(tot[j]-v, 0)+e+alpha)
				if odds {
					d += math.Log(v+alpha) - logAlpha
				}
				t.Delta[p] = d
			}
		}
	})
	return t, t.Validate()
}

// FeatureTotals returns each feature's count in c summed over the classes:
// RestLinear's tot for a single-label corpus, whose classes are its
// positive halves.
func FeatureTotals(c *compact.Counts) []float64 {
	tot := make([]float64, c.Features)
	for j := range c.Features {
		for p := c.Ptr[j]; p < c.Ptr[j+1]; p++ {
			tot[j] += c.Count[p]
		}
	}
	return tot
}

// unionCells returns the feature-major cell layout (Ptr and Class) that
// holds the cells of both a and b, in the memory of ptr and class if they
// have room.
func unionCells(ptr []int, class []uint16, a, b *compact.Counts) ([]int, []uint16) {
	F := len(a.Ptr) - 1
	ptr = resize(ptr, F+1)
	ptr[0] = 0
	class = resize(class, len(a.Class)+len(b.Class))[:0]
	for j := range F {
		x, y := a.Class[a.Ptr[j]:a.Ptr[j+1]], b.Class[b.Ptr[j]:b.Ptr[j+1]]
		for len(x) > 0 || len(y) > 0 {
			switch {
			case len(y) == 0 || len(x) > 0 && x[0] < y[0]:
				class, x = append(class, x[0]), x[1:]
			case len(x) == 0 || y[0] < x[0]:
				class, y = append(class, y[0]), y[1:]
			default:
				class, x, y = append(class, x[0]), x[1:], y[1:]
			}
		}
		ptr[j+1] = len(class)
	}
	return ptr, class
}

// classSums returns each class's sum of c's counts over the features.
func classSums(c *compact.Counts, classes int) []float64 {
	sums := make([]float64, classes)
	for p, l := range c.Class {
		sums[l] += c.Count[p]
	}
	return sums
}

// cellAt returns c's count for class l at feature j, 0 if it has none,
// given *p, the next of feature j's cells not yet read, which it advances
// past a match: a caller walking feature j's classes in increasing order
// reads each of c's cells in turn.
func cellAt(c *compact.Counts, j int, l uint16, p *int) float64 {
	if *p < c.Ptr[j+1] && c.Class[*p] == l {
		*p++
		return c.Count[*p-1]
	}
	return 0
}

// Softmax turns jll into log-probabilities in place: minus their
// log-sum-exp.
func Softmax(jll []float64) {
	top := math.Inf(-1)
	for _, v := range jll {
		top = max(top, v)
	}
	sum := 0.0
	for _, v := range jll {
		sum += math.Exp(v - top)
	}
	lse := top + math.Log(sum)
	for l := range jll {
		jll[l] -= lse
	}
}
