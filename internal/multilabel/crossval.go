package multilabel

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/metrics"
)

// Document is a text with its labels, as CrossValidate reads a corpus.
type Document struct {
	Labels []string
	Text   string
}

// CVOptions configures CrossValidate; the zero value is the default.
type CVOptions struct {
	// Folds is the number of folds; 0 means pipeline.DefaultFolds.
	Folds int
	// Seed shuffles the documents into folds (AssignFolds).
	Seed uint64
}

// CVFold is one fold of a cross-validation: a model trained on the other
// folds' documents, evaluated on this fold's.
type CVFold struct {
	Train, Test int
	Features    int
	Alpha       float64 // chosen by the fold's training, unless given
	// Reweight is the number of reweighting passes the fold's training
	// made (0: none) at the rate ReweightRate: its choice where mc leaves
	// them automatic.
	Reweight     int
	ReweightRate float64
	// TrainTime is the fold's training alone, not its evaluation.
	TrainTime time.Duration
	Result    metrics.MultiEvaluation
}

// CVResult is what CrossValidate returns.
type CVResult struct {
	Folds []CVFold
	// Pooled evaluates every fold's held-out predictions as one set, over
	// the corpus's labels in the order first met. Its breakeven ranks
	// probabilities of different folds' models together.
	Pooled metrics.MultiEvaluation
	// The folds' scores' mean and spread.
	MicroF1, MacroF1, SubsetAccuracy, HammingLoss pipeline.MeanSD
	// Multi is mc as each fold's training takes it (Config's conventions:
	// Reweight and ReweightRate 0 mean that each fold chose, in CVFold).
	Multi   Config
	Elapsed time.Duration
}

// AssignFolds deals n documents to k folds by a shuffle seeded with
// seed: fold[i] is document i's fold. The folds are not stratified (a
// document has several labels); their sizes differ by at most one.
func AssignFolds(n, k int, seed uint64) []int {
	fold := make([]int, n)
	for i, p := range rand.New(rand.NewPCG(seed, 0)).Perm(n) {
		fold[p] = i % k
	}
	return fold
}

// CrossValidate trains a model of cfg and mc on each fold's complement,
// as a Trainer given those documents alone trains it (thresholds and α
// learned by the inner cross-validation of mc.Folds on them), and
// evaluates it on the fold. It refuses folds below 2 or above the number
// of documents (pipeline.ErrConfig), and returns a fold's training error
// naming the fold. Each fold is a training of its own: the cost
// is about opt.Folds trainings on (k−1)/k of the documents.
func CrossValidate(cfg pipeline.Config, mc Config, docs []Document, opt CVOptions) (*CVResult, error) {
	start := time.Now()
	k := opt.Folds
	if k == 0 {
		k = pipeline.DefaultFolds
	}
	if k < 2 || k > len(docs) {
		return nil, fmt.Errorf("%w: %d folds for %d documents, want 2 to %d", pipeline.ErrConfig, k, len(docs), len(docs))
	}
	_, resolved, err := resolve(cfg, mc) // refuses a bad setting before any work
	if err != nil {
		return nil, err
	}
	fold := AssignFolds(len(docs), k, opt.Seed)
	labels, index := corpusLabels(docs)
	pooled := metrics.NewMultiEvaluator(labels)
	r := &CVResult{Multi: resolved}
	var micro, macro, subset, hamming []float64
	for q := range k {
		var train, test []Document
		for i, d := range docs {
			if fold[i] == q {
				test = append(test, d)
			} else {
				train = append(train, d)
			}
		}
		t0 := time.Now()
		mm, sum, err := Train(cfg, mc, train)
		if err != nil {
			return nil, fmt.Errorf("fold %d of %d: %w", q+1, k, err)
		}
		f := CVFold{Train: len(train), Test: len(test), Features: mm.NumFeatures(), Alpha: sum.Alpha, Reweight: sum.Reweight, ReweightRate: sum.ReweightRate, TrainTime: time.Since(t0)}
		// The fold model's label l is the corpus's label at[l].
		at := make([]int, len(mm.Labels))
		for l, name := range mm.Labels {
			at[l] = index[name]
		}
		proba := make([]float64, len(labels))
		var predicted []int
		f.Result = mm.Evaluate(test, func(p Prediction) {
			clear(proba)
			for l, v := range p.Proba {
				proba[at[l]] = v
			}
			predicted = predicted[:0]
			for _, l := range p.Labels {
				predicted = append(predicted, at[l])
			}
			pooled.Add(p.Truth, predicted, proba)
		})
		r.Folds = append(r.Folds, f)
		micro, macro = append(micro, f.Result.MicroF1), append(macro, f.Result.MacroF1)
		subset, hamming = append(subset, f.Result.SubsetAccuracy), append(hamming, f.Result.HammingLoss)
	}
	r.Pooled = pooled.Result()
	r.MicroF1, r.MacroF1 = meanSD(micro), meanSD(macro)
	r.SubsetAccuracy, r.HammingLoss = meanSD(subset), meanSD(hamming)
	r.Elapsed = time.Since(start)
	return r, nil
}

// Evaluate predicts docs and scores the predictions against their labels;
// each prediction is also handed to also, if not nil, in document order.
func (mm *Model) Evaluate(docs []Document, also func(Prediction)) metrics.MultiEvaluation {
	ev := metrics.NewMultiEvaluator(mm.Labels)
	b := mm.NewBatch(func(p Prediction) {
		ev.Add(p.Truth, p.Labels, p.Proba)
		if also != nil {
			also(p)
		}
	})
	for i, d := range docs {
		b.Add(fmt.Sprint(i), d.Labels, d.Text)
	}
	b.Close()
	return ev.Result()
}

// Train trains a model of cfg and mc on docs, as a Trainer given them in
// order does.
func Train(cfg pipeline.Config, mc Config, docs []Document) (*Model, Summary, error) {
	tr, err := NewTrainer(cfg, mc)
	if err != nil {
		return nil, Summary{}, err
	}
	for _, d := range docs {
		if err := tr.Add(d.Labels, d.Text); err != nil {
			tr.Abort()
			return nil, Summary{}, err
		}
	}
	return tr.Finish()
}

// corpusLabels returns the distinct labels of docs in the order first met
// (a Trainer's order) and their indices.
func corpusLabels(docs []Document) ([]string, map[string]int) {
	var labels []string
	index := map[string]int{}
	for _, d := range docs {
		for _, l := range d.Labels {
			if _, ok := index[l]; !ok {
				index[l] = len(labels)
				labels = append(labels, l)
			}
		}
	}
	return labels, index
}

func meanSD(xs []float64) pipeline.MeanSD {
	m, sd := tally.MeanSD(xs)
	return pipeline.MeanSD{Mean: m, SD: sd}
}
