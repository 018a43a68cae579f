package pipeline

import (
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/tally"
)

// Prediction is the result for one document of a Batch.
type Prediction struct {
	Source string // as given to Add
	Truth  string // the label given to Add, if any
	Class  int    // index into Model.Classes of the most probable class
	Proba  []float64
}

// Ranked returns the indices of p's k most probable classes (all of them
// if k ≥ their number), most probable first, ties by index.
func (p Prediction) Ranked(k int) []int { return tally.Ranked(nil, p.Proba, k) }

// AtLeast returns the index of every class of probability at least q,
// most probable first, ties by index: the labels that a threshold q of the
// caller's, instead of the learned ones, gives a multi-label prediction.
func (p Prediction) AtLeast(q float64) []int { return tally.AtLeast(nil, p.Proba, q) }

type batchItem struct{ source, truth, text string }

// Batch classifies documents on GOMAXPROCS goroutines and hands the results
// to a callback in the order the documents were added.
type Batch struct {
	run *parallel.Batcher[batchItem, []Prediction]
	// predictors for the goroutines, kept as long as the Batch: each holds
	// a tokencore.Worker, whose memory of words a sync.Pool would drop at
	// every collection or two
	predictors parallel.FreeList[*Predictor]
}

// NewBatch returns a Batch that calls emit once per document, in order, from
// a single goroutine.
func (m *Model) NewBatch(emit func(Prediction)) *Batch {
	b := new(Batch)
	work := func(items []batchItem) []Prediction {
		p, ok := b.predictors.Get()
		if !ok {
			p = m.NewPredictor()
		}
		defer b.predictors.Put(p)
		out := make([]Prediction, len(items))
		proba := make([]float64, 0, len(items)*len(m.Labels()))
		for i, it := range items {
			n := len(proba)
			var best int
			proba, best = p.Proba(proba, it.text)
			out[i] = Prediction{Source: it.source, Truth: it.truth, Class: best, Proba: proba[n:len(proba):len(proba)]}
		}
		return out
	}
	b.run = parallel.NewBatcher(work, func(ps []Prediction) {
		for _, p := range ps {
			emit(p)
		}
	})
	return b
}

// Add queues a document; truth may be empty.
func (b *Batch) Add(source, truth, text string) {
	b.run.Add(batchItem{source: source, truth: truth, text: text})
}

// Close waits until every queued document has been emitted.
func (b *Batch) Close() { b.run.Close() }
