package pipeline

import (
	"fmt"
	"slices"
	"strings"
)

// Selected returns a model of the sel.K terms of m that sel ranks best on
// m's own counts: the model training with Config.Select would make of the
// documents m has counted, without counting them again. A model that
// learns in time order can so select its terms from what it has learned
// before each batch it classifies, as Metsis et al. (2006) did (eval
// --online --select).
//
// m must use the vocab vectorizer and raw counts (no weighting). For
// MutualInfo and DocFreq its counts must be documents': a Vocab.Binary
// model, whose count of a term in a class is the number of the class's
// documents that hold it, as those criteria count them. Chi2 scores the
// counts as they are. The model returned shares m's analyzer; it holds
// neither m's calibration nor its threshold (fitted on all its terms), and
// m is not changed. If sel.K is at least m's number of terms it keeps
// them all.
func (m *Model) Selected(sel Selection) (*Model, error) {
	if err := sel.validate(); err != nil {
		return nil, err
	}
	if sel.Method == NoSelect {
		return nil, fmt.Errorf("%w: no selection method", ErrConfig)
	}
	c := m.Config
	switch {
	case m.vocab == nil:
		return nil, fmt.Errorf("%w: selection needs the vocab vectorizer", ErrConfig)
	case m.weight != nil:
		return nil, fmt.Errorf("%w: selection from a model's counts needs raw counts, not %v", ErrConfig, c.Weighting)
	case sel.Method != Chi2 && !c.Vocab.Binary:
		return nil, fmt.Errorf("%w: %v counts documents: it selects from the counts of a binary (Boolean attributes) model only", ErrConfig, sel.Method)
	}
	var out *Model
	var err error
	if lerr := m.readLocked(func() { out, err = m.selected(sel) }); lerr != nil {
		return nil, lerr
	}
	return out, err
}

// selected is Selected; the caller holds m's read lock.
func (m *Model) selected(sel Selection) (*Model, error) {
	counts, err := m.fittedCounts()
	if err != nil {
		return nil, err
	}
	keep := countsTop(counts.Features, counts.Ptr, counts.Class, counts.Count, counts.ClassCount, sel, func(a, b int32) int {
		return strings.Compare(m.vocab.Term(int(a)), m.vocab.Term(int(b)))
	})
	to := make([]int32, counts.Features)
	for j := range to {
		to[j] = -1
	}
	for i, j := range keep {
		to[j] = int32(i)
	}
	kept, err := counts.Remap(len(keep), to)
	if err != nil {
		return nil, err
	}
	v, err := m.vocab.Select(keep)
	if err != nil {
		return nil, err
	}
	cfg := m.Config
	cfg.Select = sel
	out := &Model{Config: cfg, Classes: slices.Clone(m.Classes), LabelField: m.LabelField, TextField: m.TextField,
		MailInput: m.MailInput, MailFeatures: m.MailFeatures, an: m.an, vocab: v, counts: kept}
	if err := out.refit(); err != nil {
		return nil, err
	}
	return out, out.finite()
}

// countsTop returns, increasing, the features of a model's counts (cells
// of feature j at ptr[j]:ptr[j+1], with their classes and counts) that sel
// keeps, scored as selectTerms scores rows that sum to those counts: every
// feature if sel.K is at least their number.
func countsTop(features int, ptr []int, class []uint16, count, classCount []float64, sel Selection, tie func(a, b int32) int) []int32 {
	if sel.K >= features {
		keep := make([]int32, features)
		for j := range keep {
			keep[j] = int32(j)
		}
		return keep
	}
	all := make([]float64, features) // each feature's count over the classes
	inClass := make([]float64, len(classCount))
	for j := range features {
		for p := ptr[j]; p < ptr[j+1]; p++ {
			all[j] += count[p]
			inClass[class[p]] += count[p]
		}
	}
	if sel.Method == DocFreq {
		keep := topK(all, sel.K, tie)
		slices.Sort(keep)
		return keep
	}
	var n, total float64
	for c := range classCount {
		n += classCount[c]
		total += inClass[c]
	}
	top := make([][]int32, len(classCount))
	scores := make([]float64, features)
	for c := range classCount {
		for j := range features {
			a := 0.0
			for p := ptr[j]; p < ptr[j+1]; p++ {
				if int(class[p]) == c {
					a = count[p]
				}
			}
			b := all[j] - a
			if sel.Method == Chi2 {
				// as weightTop rounds: sums in another order should tie
				scores[j] = float64(float32(tableScore(Chi2, a, b, max(0, inClass[c]-a), max(0, total-inClass[c]-b))))
			} else {
				scores[j] = float64(float32(tableScore(MutualInfo, a, b, classCount[c]-a, n-all[j]-classCount[c]+a)))
			}
		}
		top[c] = topK(scores, sel.K, tie)
	}
	return roundRobin(top, sel.K)
}
