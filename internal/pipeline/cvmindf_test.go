package pipeline

import (
	"math/rand/v2"
	"testing"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/vectorize"
)

// TestFoldMinDFMatchesMinDFFor checks foldMinDF against vocab.MinDFFor of
// each fold's training part's document frequencies, on random corpora.
func TestFoldMinDFMatchesMinDFFor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 40 {
		rows, cols := 20+rng.IntN(200), 1+rng.IntN(400)
		d := &cvData{cols: cols, names: []string{"a", "b", "c"}, ptr: []int{0}, df: make([]int64, cols)}
		labels := make([]string, rows)
		for i := range rows {
			c := rng.IntN(3)
			d.y, labels[i] = append(d.y, c), d.names[c]
			for j := range cols {
				if rng.IntN(1+j%50) == 0 { // frequent low columns, rare high ones
					d.idx, d.val = append(d.idx, int32(j)), append(d.val, 1)
					d.df[j]++
				}
			}
			d.ptr = append(d.ptr, len(d.idx))
		}
		d.folds = split.StratifiedKFold(labels, 2+rng.IntN(5), uint64(trial))
		if trial%5 == 0 {
			d.cfg.Vocab = vectorize.VocabConfig{MaxFeatures: 1 + rng.IntN(cols)}
		}
		h := newDFHistogram(d.df)
		for size := 1; size <= 3*cols+3; size += 1 + cols/100 { // every table up to one that holds every term
			d.cfg.MaxTableSize = size
			for k := range d.folds {
				want := vocab.MinDFFor(d.foldDF(k), rows-len(d.folds[k]), d.cfg.maxTableSize()/d.foldClasses(k), d.cfg.Vocab.MaxFeatures)
				if got := d.foldMinDF(k, h); got != want {
					t.Errorf("trial %d fold %d table %d: min_df %d, MinDFFor %d", trial, k, size, got, want)
				}
			}
		}
	}
}
