package reweight

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/check"
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/tally"
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
	// Table, if long enough, is the zeroed memory that Gains sums the
	// gains in, and leaves zeroed, for a caller that reweights again.
	Table *[]float64
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
	acc := t.denseTable()   // the dense sums of gainDense, kept between passes
	// The documents are scored in parts, a part's columns at a time.
	type part struct {
		lo, hi      int
		cols        columns
		jll, sx, sb []float64
	}
	n := len(t.Docs)
	parts := make([]part, min(2*parallel.Workers(0), max(1, n/64)))
	parallel.For(len(parts), 0, func(q int) {
		lo, hi := q*n/len(parts), (q+1)*n/len(parts)
		parts[q] = part{lo: lo, hi: hi, jll: make([]float64, (hi-lo)*K), sx: make([]float64, hi-lo), sb: make([]float64, hi-lo),
			cols: newColumns(t.Features, hi-lo, func(k int) ([]int32, []float64) { return t.Row(t.Docs[lo+k]) })}
	})
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
		if acc != nil {
			gain, err = t.gainDense(gain, acc, w) // the last gains are spent
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
	if acc := t.denseTable(); acc != nil {
		return t.gainDense(dst, acc, w)
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

// denseTable returns the zeroed table that gainDense sums in, from
// t.Table if it has room, or nil where the gains are summed by gain (Own,
// or a table above maxDenseGain).
func (t Task) denseTable() []float64 {
	n := t.Classes * t.Features
	if t.Own != nil || n > maxDenseGain {
		return nil
	}
	if t.Table == nil {
		return make([]float64, n)
	}
	if len(*t.Table) < n {
		*t.Table = make([]float64, n)
	}
	return (*t.Table)[:n]
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

// maxDenseGain bounds the cells of gainDense's table (64 MB).
const maxDenseGain = 8 << 20

// gainDense returns what gain does, in dst's memory if dst is not nil,
// summing into acc, a zeroed Features×K table that it leaves zeroed: each cell adds its documents' weighted
// values in document order, as gain's per-class sums do, so the counts
// are the same bit for bit. A document's row is read once for all the
// classes that gain it, and each of its features' classes share a cache
// line; gain reads it once per class and transposes the sums.
func (t Task) gainDense(dst *compact.Counts, acc, w []float64) (*compact.Counts, error) {
	K, F := t.Classes, t.Features
	g := cmp.Or(dst, &compact.Counts{})
	*g = compact.Counts{Classes: K, Features: F, ClassCount: resize(g.ClassCount, K), Ptr: resize(g.Ptr, F+1),
		Class: g.Class[:0], Count: g.Count[:0]}
	clear(g.ClassCount)
	gainer := make([]int, 0, len(t.Docs)) // the documents that some class gains, by k
	start := make([]int, 1, len(t.Docs)+1)
	var gains []uint16 // the classes that gain them, from start[r] for the r-th
	for k := range t.Docs {
		for c, v := range w[k*K : (k+1)*K] {
			if v > 0 {
				gains = append(gains, uint16(c))
				g.ClassCount[c]++
			}
		}
		if len(gains) > start[len(start)-1] {
			gainer, start = append(gainer, k), append(start, len(gains))
		}
	}
	// Each part sums the cells of a range of features, so a cell's sum
	// still adds its documents in order; rows' columns increase.
	parts := min(4*parallel.Workers(0), max(1, F))
	g.Ptr[0] = 0
	parallel.For(parts, 0, func(part int) {
		lo, hi := part*F/parts, (part+1)*F/parts
		for r, k := range gainer {
			wk := w[k*K : (k+1)*K]
			idx, val := t.Row(t.Docs[k])
			p, _ := slices.BinarySearch(idx, int32(lo))
			for ; p < len(idx) && int(idx[p]) < hi; p++ {
				row := acc[int(idx[p])*K : int(idx[p])*K+K]
				for _, c := range gains[start[r]:start[r+1]] {
					if x := wk[c] * val[p]; x != 0 {
						row[c] += x
					}
				}
			}
		}
		for j := lo; j < hi; j++ {
			n := 0
			for _, v := range acc[j*K : (j+1)*K] {
				n += tally.BoolInt(v != 0)
			}
			g.Ptr[j+1] = n
		}
	})
	for j := range F {
		g.Ptr[j+1] += g.Ptr[j]
	}
	g.Class, g.Count = resize(g.Class, g.Ptr[F]), resize(g.Count, g.Ptr[F])
	errs := make([]error, parts)
	parallel.For(parts, 0, func(part int) {
		lo, hi := part*F/parts, (part+1)*F/parts
		for j := lo; j < hi; j++ {
			row, q := acc[j*K:(j+1)*K], g.Ptr[j]
			for c, v := range row {
				if v == 0 {
					continue
				}
				if !check.Good(v) && errs[part] == nil {
					errs[part] = fmt.Errorf("%w: reweighting gained %g for class %d, feature %d", check.Bad(v), v, c, j)
				}
				g.Class[q], g.Count[q] = uint16(c), v
				q++
			}
			clear(row)
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
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
