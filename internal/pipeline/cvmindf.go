package pipeline

import "slices"

// dfHistogram counts the columns of each document frequency: n[v] columns
// have frequency v, terms of them more than 0.
type dfHistogram struct {
	n     []int
	terms int
}

func newDFHistogram(df []int64) *dfHistogram {
	h := &dfHistogram{n: make([]int, slices.Max(append(df, 0))+1)}
	for _, v := range df {
		h.n[v]++
		if v > 0 {
			h.terms++
		}
	}
	return h
}

// foldMinDF returns what vocab.MinDFFor gives for fold k's training part,
// whose document frequencies are the corpus's (with histogram h) less the
// held-out part's: it moves only the columns the held-out part has from
// one frequency to another, instead of making every column's frequency.
func (d *cvData) foldMinDF(k int, h *dfHistogram) int {
	maxCols, maxFeatures := d.cfg.maxTableSize()/d.foldClasses(k), d.cfg.Vocab.MaxFeatures
	if maxCols <= 0 || (maxFeatures > 0 && maxFeatures <= maxCols) {
		return 1
	}
	held := make([]int32, d.cols) // the held-out documents with column j
	var touched []int32
	for _, i := range d.folds[k] {
		idx, _ := d.row(i)
		for _, j := range idx {
			if held[j] == 0 {
				touched = append(touched, j)
			}
			held[j]++
		}
	}
	n, terms := slices.Clone(h.n), h.terms
	for _, j := range touched {
		v := d.df[j] - int64(held[j])
		n[d.df[j]]--
		n[v]++
		if v == 0 {
			terms--
		}
	}
	if terms <= maxCols {
		return 1
	}
	// The cut is just above the (maxCols+1)th largest frequency.
	kept := 0
	for m := len(n) - 1; m >= 1; m-- {
		if kept+n[m] > maxCols {
			return m + 1
		}
		kept += n[m]
	}
	return 1
}
