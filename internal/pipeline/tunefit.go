package pipeline

import (
	"errors"
	"reflect"
	"slices"
	"time"

	"github.com/textnb/textnb/vectorize"
)

// ErrNotKept is TrainBest's when Tune did not keep the documents of the
// best setting's tokenization, or they cannot give its model.
var ErrNotKept = errors.New("pipeline: the best setting's documents were not kept")

// tuneKept is what Tune keeps of its base tokenization for TrainBest: the
// trainer, whose input has ended, and its documents' rows.
type tuneKept struct {
	t        *Trainer
	d        *cvData
	from, to int // the tokenization's results in TuneResult.Results
}

// TrainBest fits the best setting, Results[Best].Config, on the corpus
// as Tune kept it, and returns the model and summary that a Trainer of
// that Config given the same documents would, without reading and
// tokenizing them again (Summary.Elapsed is the fit's alone). Tune keeps
// the documents of the base configuration's tokenization only, until
// TrainBest is called: for a best setting of another, or one whose
// vocabulary they lack (max_df, max_features, binary counts, feature
// selection, or an automatic min_df below what cross-validation kept),
// TrainBest returns ErrNotKept and the corpus must be trained on again.
func (r *TuneResult) TrainBest() (*Model, Summary, error) {
	k := r.kept
	r.kept = nil
	if k == nil || r.Best < k.from || r.Best >= k.to {
		return nil, Summary{}, ErrNotKept
	}
	return k.train(r.Results[r.Best].Config)
}

// train fits cfg, a setting of k's tokenization as cross-validation
// resolved it, as Finish would: the vocabulary pruned by cfg's min_df,
// in the builder's order, each document's entries in the builder's order,
// and the rows weighted and summed per class in document order.
func (k *tuneKept) train(cfg Config) (*Model, Summary, error) {
	start := time.Now()
	t, d := k.t, k.d
	n := len(d.names)
	vc := cfg.Vocab
	if c, why := cfg.candidates(n); c != nil || why != "" || d.terms == nil || cfg.Vectorizer != Vocab ||
		cfg.Select.Method != NoSelect || cfg.Semi.Method != NoSemi || vc.MaxDF != 0 || vc.MaxFeatures != 0 || vc.Binary ||
		!reflect.DeepEqual(d.settingConfig(cfg).forClasses(n), cfg) {
		return nil, Summary{}, ErrNotKept
	}
	minDF := d.finalMinDF // cfg's Vocab is d's (above)
	if minDF < max(d.lo, 1) {
		return nil, Summary{}, ErrNotKept // cross-validation dropped terms the model keeps
	}
	// The model's features are the columns of at least minDF documents in
	// the builder's order, which d.origin gives.
	var cols []int32
	for c, v := range d.df {
		if v >= int64(minDF) {
			cols = append(cols, int32(c))
		}
	}
	slices.SortFunc(cols, func(a, b int32) int { return int(d.origin[a]) - int(d.origin[b]) })
	ids := make([]int32, len(cols))
	for f, c := range cols {
		ids[f] = d.origin[c]
	}
	v, err := d.terms().Select(ids)
	if err != nil {
		return nil, Summary{}, err
	}
	colmap, df := renumber(d.cols, cols, d.df)
	raw := rowWeights{colmap: colmap, norm: vectorize.NoNorm} // the counts, in the model's columns
	m := t.newModel(cfg)
	m.Config.Vocab.MinDF = minDF
	m.vocab = v
	err = m.fitRows(len(cols), func() []int64 { return df }, d.y, func(i int, idx []int32, val []float64) ([]int32, []float64) {
		return raw.row(d, i, idx, val)
	})
	if err == nil {
		err = m.finite()
	}
	if err != nil {
		return nil, Summary{}, err
	}
	s := Summary{Features: len(cols), MinDF: minDF}
	t.summarize(&s, time.Since(start))
	return m, s, nil
}
