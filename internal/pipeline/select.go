package pipeline

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/textnb/textnb/internal/enum"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/postings"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/vocab"
)

// SelectMethod names a feature selection criterion.
type SelectMethod uint8

// The feature selection criteria. The zero value, NoSelect, keeps every
// term the vocabulary keeps.
const (
	NoSelect   SelectMethod = iota
	Chi2                    // χ² of term weight against each class
	MutualInfo              // mutual information of term presence and each class
	DocFreq                 // document frequency
)

var selectNames = [...]string{"none", "chi2", "mi", "df"}

func (s SelectMethod) String() string { return enum.String(selectNames[:], int(s)) }

// MarshalText writes the method's name: "none", "chi2", "mi" or "df".
func (s SelectMethod) MarshalText() ([]byte, error) {
	return enumMarshal("selection", selectNames[:], int(s))
}

// UnmarshalText reads a name MarshalText writes, in any letter case.
func (s *SelectMethod) UnmarshalText(b []byte) error {
	return enumUnmarshal(s, "selection", selectNames[:], b)
}

// Selection keeps the K best terms by Method after the vocabulary is
// pruned; the model then holds only them. Chi2 and MutualInfo score a
// term against each class (each label of a multi-label model) from a 2×2
// table, and keep the union of every class's best terms, taken rank by
// rank until K are kept. Chi2's table is of weight: the term's and the
// other terms' in the class's documents and outside them, the rows
// weighted as the model weights them (normalized over every term),
// which is scikit-learn's chi2 of the weighted rows against one class.
// MutualInfo's is of documents with and without the term, in and out of
// the class. DocFreq keeps the K most frequent terms.
type Selection struct {
	Method SelectMethod `json:"method"`
	K      int          `json:"k"`
}

func (s Selection) validate() error {
	if s.Method > DocFreq || s.Method != NoSelect && s.K < 1 {
		return fmt.Errorf("%w: selection %v of %d terms, want a method and K ≥ 1", ErrConfig, s.Method, s.K)
	}
	return nil
}

// validateSelect checks c.Select: only a vocabulary is selected from, and
// only where the rows are read as they are, not through a matrix.
func (c Config) validateSelect() error {
	if err := c.Select.validate(); err != nil || c.Select.Method == NoSelect {
		return err
	}
	if c.Vectorizer != Vocab || c.Semi.Method != NoSemi {
		return fmt.Errorf("%w: feature selection needs the vocab vectorizer and no semi-supervised method", ErrConfig)
	}
	return nil
}

// fitSelected fits m on the terms of p that t.cfg.Select keeps.
func (t *Trainer) fitSelected(m *Model, p *vocab.Pruned) (features int, err error) {
	docs, err := postings.ClassDocs(t.y, len(t.names))
	if err != nil {
		return 0, err
	}
	src := prunedSource(p)
	if err := m.fitWeightingDF(src.rows, func() []int64 { return src.df }); err != nil {
		return 0, err
	}
	src, err = selectFeatures(src, t.cfg.Select, docs, m.weight)
	if err != nil {
		return 0, err
	}
	m.vocab = src.vocab()
	// The kept terms are weighted anew: rows normalized over them alone
	// did better in cross-validation than rows normalized over every term.
	return src.features, m.fitRows(src.features, func() []int64 { return src.df }, t.y, src.row)
}

// docClasses returns the classes of each of n documents.
func docClasses(classes []*roaring.Bitmap, n int) [][]int32 {
	of := make([][]int32, n)
	for c, b := range classes {
		for it := b.Iterator(); it.HasNext(); {
			r := it.Next()
			of[r] = append(of[r], int32(c))
		}
	}
	return of
}

// multiClasses returns the documents of each label.
func multiClasses(sets [][]int32, labels int) []*roaring.Bitmap {
	out := make([]*roaring.Bitmap, labels)
	for l := range out {
		out[l] = roaring.New()
	}
	for i, set := range sets {
		for _, l := range set {
			out[l].Add(uint32(i))
		}
	}
	return out
}

// selectFeatures returns src restricted to the terms selectTerms keeps,
// breaking ties by the terms' bytes.
func selectFeatures(src termSource, sel Selection, classes []*roaring.Bitmap, w weighting) (termSource, error) {
	v := src.vocab()
	byTerm := func(a, b int32) int { return strings.Compare(v.Term(int(a)), v.Term(int(b))) }
	keep, err := selectTerms(src, sel, classes, w, byTerm)
	if keep == nil || err != nil {
		return src, err
	}
	return src.restrict(keep), nil
}

// selectTerms returns the terms of src, increasing, that sel keeps, by
// their weight in classes (the documents of each class) in src's rows
// weighted by w (fitted on src's terms; nil: counts), or by their
// document frequencies there, counted from src's postings; nil if it
// keeps every term. tie orders terms of equal scores (nil: by id).
func selectTerms(src termSource, sel Selection, classes []*roaring.Bitmap, w weighting, tie func(a, b int32) int) ([]int32, error) {
	if err := sel.validate(); err != nil {
		return nil, err
	}
	if sel.K >= src.features {
		return nil, nil
	}
	switch sel.Method {
	case DocFreq:
		keep := topK(src.df, sel.K, tie)
		slices.Sort(keep)
		return keep, nil
	case Chi2:
		return roundRobin(weightTop(src, classes, sel.K, w, tie), sel.K), nil
	}
	post, err := presence(src)
	if err != nil {
		return nil, err
	}
	return roundRobin(perClassTop(post, classes, sel, tie), sel.K), nil
}

// presence returns the postings of src's rows, binarized.
func presence(src termSource) (*postings.Postings, error) {
	X := sparse.NewCSR(src.features)
	var idx []int32
	var val []float64
	for i := range src.rows {
		idx, val = src.row(i, idx[:0], val[:0])
		slices.Sort(idx)
		for k := range val {
			val[k] = 1
		}
		X.AppendRow(idx, val[:len(idx)])
	}
	return postings.New(X, 0)
}

// perClassTop returns, for each class, up to sel.K terms in decreasing
// order of their score against it (ties: in tie's order, nil: the lower id
// first). A term's documents in each class are counted from its posting
// list and each document's classes: exact, and faster than intersecting
// the term's roaring bitmap with every class's (docs/performance.md).
func perClassTop(post *postings.Postings, classes []*roaring.Bitmap, sel Selection, tie func(a, b int32) int) [][]int32 {
	n, F, C := float64(post.Rows()), post.Cols(), len(classes)
	of := docClasses(classes, post.Rows())
	nc := make([]float64, C)
	for c, b := range classes {
		nc[c] = float64(b.GetCardinality())
	}
	scores := make([][]float32, C)
	for c := range scores {
		scores[c] = make([]float32, F)
	}
	parallel.Chunks(F, 1024, 0, func(lo, hi int) {
		in := make([]float64, C)
		for j := lo; j < hi; j++ {
			clear(in)
			for _, r := range post.ColumnRows(j) {
				for _, c := range of[r] {
					in[c]++
				}
			}
			df := float64(post.DF(j))
			for c, a := range in {
				scores[c][j] = float32(tableScore(sel.Method, a, df-a, nc[c]-a, n-df-nc[c]+a))
			}
		}
	})
	top := make([][]int32, C)
	parallel.For(C, 0, func(c int) { top[c] = topK(scores[c], sel.K, tie) })
	return top
}

// weightTop returns, for each class, up to k terms of src in decreasing
// order of the χ² of their weight against it (ties: in tie's order, nil:
// the lower id first): the 2×2 table holds the term's weight in the
// class's documents and outside them, and the other terms' weight in and
// out, src's rows weighted by w (nil: counts).
func weightTop(src termSource, classes []*roaring.Bitmap, k int, w weighting, tie func(a, b int32) int) [][]int32 {
	F, C := src.features, len(classes)
	of := docClasses(classes, src.rows)
	in := make([]float64, C*F) // term j's weight in class c at c·F+j, then its score
	all := make([]float64, F)  // term j's weight in every document
	inClass := make([]float64, C)
	var total float64
	var idx []int32
	var val []float64
	for i := range src.rows {
		idx, val = src.row(i, idx[:0], val[:0])
		if w != nil {
			_ = w.TransformRow(idx, val) // the rows' columns are in range
		}
		for p, j := range idx {
			v := val[p]
			all[j] += v
			total += v
			for _, c := range of[i] {
				in[int(c)*F+int(j)] += v
				inClass[c] += v
			}
		}
	}
	top := make([][]int32, C)
	parallel.For(C, 0, func(c int) {
		scores := in[c*F : (c+1)*F]
		for j, a := range scores {
			b := max(0, all[j]-a)
			// Rounded to float32: sums of the same weights added in another
			// order differ in their last bits, and should tie.
			scores[j] = float64(float32(tableScore(Chi2, a, b, max(0, inClass[c]-a), max(0, total-inClass[c]-b))))
		}
		top[c] = topK(scores, k, tie)
	})
	return top
}

// topK returns the ids of the k largest scores, largest first (ties: in
// tie's order, nil: the lower id first). Only the ids at or above the
// k-th largest score are sorted by a comparison function: sorting them all
// cost more than counting the tables.
func topK[S cmp.Ordered](scores []S, k int, tie func(a, b int32) int) []int32 {
	k = min(k, len(scores))
	if k == 0 {
		return nil
	}
	sorted := slices.Clone(scores)
	slices.Sort(sorted)
	cut := sorted[len(sorted)-k]
	ids := make([]int32, 0, k)
	for j, v := range scores {
		if v >= cut {
			ids = append(ids, int32(j))
		}
	}
	if tie == nil {
		tie = cmp.Compare[int32]
	}
	slices.SortFunc(ids, func(a, b int32) int { return cmp.Or(cmp.Compare(scores[b], scores[a]), tie(a, b)) })
	return ids[:k]
}

// tableScore scores a 2×2 table: a documents with the term in the class,
// b with the term outside it, c without the term in it, d neither.
func tableScore(m SelectMethod, a, b, c, d float64) float64 {
	n := a + b + c + d
	if m == Chi2 {
		den := (a + b) * (c + d) * (a + c) * (b + d)
		if den == 0 {
			return 0
		}
		x := a*d - b*c
		return n * x * x / den
	}
	mi := 0.0
	for _, cell := range [4][3]float64{{a, a + b, a + c}, {b, a + b, b + d}, {c, c + d, a + c}, {d, c + d, b + d}} {
		if cell[0] > 0 {
			mi += cell[0] / n * math.Log(n*cell[0]/(cell[1]*cell[2]))
		}
	}
	return mi
}

// roundRobin returns, in increasing order, the first k distinct terms met
// taking each class's next best term in turn.
func roundRobin(top [][]int32, k int) []int32 {
	seen := map[int32]bool{}
	var keep []int32
	for r := 0; len(keep) < k; r++ {
		more := false
		for _, t := range top {
			if r >= len(t) {
				continue
			}
			more = true
			if j := t[r]; !seen[j] {
				seen[j] = true
				keep = append(keep, j)
				if len(keep) == k {
					break
				}
			}
		}
		if !more {
			break
		}
	}
	slices.Sort(keep)
	return keep
}

// restrict returns src with only the terms keep (increasing), renumbered
// in their order.
func (src termSource) restrict(keep []int32) termSource {
	newID, df := renumber(src.features, keep, src.df)
	row, vocabOf := src.row, src.vocab
	return termSource{
		features: len(keep),
		rows:     src.rows,
		df:       df,
		row: func(i int, idx []int32, val []float64) ([]int32, []float64) {
			start := len(idx)
			idx, val = row(i, idx, val)
			w := start
			for k := start; k < len(idx); k++ {
				if id := newID[idx[k]]; id >= 0 {
					idx[w], val[w] = id, val[k]
					w++
				}
			}
			return idx[:w], val[:w]
		},
		vocab: func() *vocab.Vocabulary {
			v, _ := vocabOf().Select(keep) // keep is increasing and in range
			return v
		},
	}
}

// selectFold returns the columns of keep (raw, increasing) that
// d.cfg.Select keeps for fold f's training part, whose document
// frequencies are df: as Trainer.Finish would select from the part's
// pruned vocabulary.
func (d *cvData) selectFold(f *foldData, keep []int32, df []int64) ([]int32, error) {
	to, keptDF := renumber(d.cols, keep, df)
	binary := d.cfg.Vocab.Binary
	src := termSource{features: len(keep), rows: len(f.train), df: keptDF, row: func(i int, idx []int32, val []float64) ([]int32, []float64) {
		ri, rv := d.row(f.train[i])
		for p, j := range ri {
			if c := to[j]; c >= 0 {
				v := rv[p]
				if binary {
					v = 1
				}
				idx, val = append(idx, c), append(val, v)
			}
		}
		return idx, val
	}}
	classes, err := postings.ClassDocs(f.y, len(f.classes))
	if err != nil {
		return nil, err
	}
	m := &Model{Config: d.cfg}
	if err := m.fitWeightingDF(src.rows, func() []int64 { return keptDF }); err != nil {
		return nil, err
	}
	terms := d.terms()
	byTerm := func(a, b int32) int {
		return strings.Compare(terms.Term(int(d.origin[keep[a]])), terms.Term(int(d.origin[keep[b]])))
	}
	sel, err := selectTerms(src, d.cfg.Select, classes, m.weight, byTerm)
	if sel == nil || err != nil {
		return keep, err
	}
	out := make([]int32, len(sel))
	for k, c := range sel {
		out[k] = keep[c]
	}
	return out, nil
}
