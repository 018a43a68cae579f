package pipeline

import "fmt"

// UnseenMass returns, for each class, Good–Turing's estimate of the
// probability that a term of a document of the class is one that no
// document the model counted held: the share of the class's counts that
// are of terms counted once, in it alone, (n₁ + 1) / (N + 2) with Laplace's
// rule so that it lies strictly between 0 and 1. A vocabulary model's
// scores leave such terms out; an online filter, which meets new terms in
// every message (spam's more than ham's), may score them with it and the
// known terms with the rest of the mass (eval --online --unseen). m must
// have raw counts: a weighted count is not a number of occurrences. Once
// m learns, the first call counts the terms, O(m's counts), and learning
// keeps the count up to date: later calls cost O(classes).
func (m *Model) UnseenMass() ([]float64, error) {
	if m.weight != nil || m.vocab == nil {
		return nil, fmt.Errorf("%w: the unseen mass is estimated from the raw counts of a vocabulary model", ErrConfig)
	}
	m.mu.Lock()
	if l := m.learner; l != nil && l.live != nil {
		// the learner keeps the count up to date: O(classes) a learned cell
		once, total := l.live.Once(), l.live.Sums()
		out := make([]float64, len(once))
		for c := range out {
			out[c] = (once[c] + 1) / (total[c] + 2)
		}
		m.mu.Unlock()
		return out, nil
	}
	m.mu.Unlock()
	var out []float64
	var err error
	if lerr := m.readLocked(func() {
		counts, cerr := m.fittedCounts()
		if cerr != nil {
			err = cerr
			return
		}
		once := make([]float64, counts.Classes)
		total := make([]float64, counts.Classes)
		for j := range counts.Features {
			lo, hi := counts.Ptr[j], counts.Ptr[j+1]
			for p := lo; p < hi; p++ {
				total[counts.Class[p]] += counts.Count[p]
			}
			if hi-lo == 1 && counts.Count[lo] == 1 {
				once[counts.Class[lo]]++
			}
		}
		out = make([]float64, counts.Classes)
		for c := range out {
			out[c] = (once[c] + 1) / (total[c] + 2)
		}
	}); lerr != nil {
		return nil, lerr
	}
	return out, err
}
