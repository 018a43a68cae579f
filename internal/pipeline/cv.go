package pipeline

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// DefaultFolds is the number of folds when CVOptions leaves it zero.
const DefaultFolds = 10

// CVOptions configure cross-validation. The zero value means DefaultFolds
// folds, dealt with seed 0.
type CVOptions struct {
	Folds int
	// Seed shuffles each class before its documents are dealt to the folds
	// (split.StratifiedKFold).
	Seed uint64
	// KeepScores keeps each held-out document's scores in CVResult.HeldOut,
	// for FitCalibration: documents × classes values per setting.
	KeepScores bool
}

func (o CVOptions) folds() int {
	if o.Folds == 0 {
		return DefaultFolds
	}
	return o.Folds
}

// MeanSD is a mean over folds and their standard deviation (divided by the
// number of folds, as numpy's std).
type MeanSD struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

func meanSD(xs []float64) MeanSD {
	m, sd := tally.MeanSD(xs)
	return MeanSD{m, sd}
}

// FoldResult is one fold: the sizes of its two parts, what pruning the
// training part kept, and the scores on the held-out part.
type FoldResult struct {
	Train    int     `json:"train"`
	Test     int     `json:"test"`
	Features int     `json:"features"`
	MinDF    int     `json:"min_df,omitempty"`
	Accuracy float64 `json:"accuracy"`
	MacroF1  float64 `json:"macro_f1"`
	// Setting is the candidate a nested choice took in this fold.
	Setting    string             `json:"setting,omitempty"`
	Evaluation metrics.Evaluation `json:"-"`
}

// CVResult is the outcome of cross-validating one configuration.
type CVResult struct {
	// Config is the configuration as trained: language and tokenizer
	// defaults resolved, alpha spelled out.
	Config   Config       `json:"-"`
	Folds    []FoldResult `json:"folds"`
	Accuracy MeanSD       `json:"accuracy"`
	MacroF1  MeanSD       `json:"macro_f1"`
	// Predicted is each document's label as predicted by the model of the
	// fold that held it out, in the order the documents were added.
	Predicted []string      `json:"-"`
	Elapsed   time.Duration `json:"-"`
	// HeldOut is each document's held-out scores, with CVOptions.KeepScores.
	HeldOut *HeldOut `json:"-"`
	// Choice, when CrossValidate's configuration leaves settings for
	// Finish to choose, is the choice among the candidates made on these
	// folds of the whole corpus, for reference: the scores are the nested
	// choice's (Nested), and Config the whole corpus's winner.
	Choice *Choice `json:"choice,omitempty"`
	// Nested reports that each fold chose its candidate within its own
	// training part, as Finish would on it (FoldResult.Setting): the
	// accuracy is then that of the choice, not optimistic.
	Nested bool `json:"nested,omitempty"`
	// Dropped reports that Tune scored the setting on the first fold only:
	// it trailed that fold's best by too much to win (Folds holds the
	// one fold, Accuracy and MacroF1 its scores).
	Dropped bool `json:"dropped,omitempty"`
}

// CrossValidate runs stratified k-fold cross-validation on the documents
// added, instead of Finish: each fold is predicted by the model that
// training on the other folds would give (the same vocabulary pruning,
// weighting and counts), but the documents are tokenized once. A fold's
// model is fitted from the cached term counts of its training part,
// re-weighted with that part's own document frequencies, so it costs a pass
// over the counts rather than a training. The language is decided once on
// the whole corpus, as Finish would. Semi-supervised configurations are
// refused. A configuration that leaves α or reweighting to Finish's
// choice is evaluated as that choice: each fold makes it within its own
// training part (CVResult.Nested).
func (t *Trainer) CrossValidate(o CVOptions) (*CVResult, error) {
	cands, _ := t.cfg.candidates(len(t.names))
	if cands != nil {
		t.cfg = t.cfg.withChoiceBound()
		for i := range cands {
			cands[i] = cands[i].withChoiceBound()
		}
	}
	d, err := t.cvData(o, len(cands) > 1)
	if err != nil {
		return nil, err
	}
	d.choiceCells = t.given.MaxTableSize
	if cands == nil {
		cands = []Config{t.cfg}
	}
	rs, err := d.run(cands)
	if err != nil {
		return nil, err
	}
	plain := t.cfg.plain().forClasses(len(t.names))
	groups := []choiceGroup{{d, rs, cands, plain}}
	if len(rs) > 1 && t.texts != nil {
		g, err := t.secondGroup(o)
		if err != nil {
			return nil, err
		}
		groups = append(groups, g)
	}
	rss := make([][]*CVResult, len(groups))
	for i, g := range groups {
		rss[i] = g.rs
	}
	gw, win, second := pickGroup(groups, rss, t.texts.short(nil))
	r := groups[gw].rs[win]
	if len(rs) > 1 {
		r.Choice = &Choice{Setting: r.Config.Setting(), CVAccuracy: r.Accuracy.Mean, CVSD: r.Accuracy.SD,
			Folds: len(d.folds)}
		for _, g := range groups {
			r.Choice.Candidates += len(g.rs)
		}
		if second != nil {
			r.Choice.RunnerUp, r.Choice.RunnerUpAccuracy = second.Config.Setting(), second.Accuracy.Mean
		}
		if r, err = nested(groups, r, t.texts.short); err != nil {
			return nil, err
		}
	}
	r.Elapsed = time.Since(t.start)
	return r, nil
}

// choiceGroup is the candidates of one tokenization cross-validated on
// its rows d, with the plain default among them.
type choiceGroup struct {
	d     *cvData
	rs    []*CVResult
	cands []Config
	plain Config
}

// secondGroup returns the choice's candidates with the second
// tokenization (secondTokens), cross-validated on the folds of o.
func (t *Trainer) secondGroup(o CVOptions) (choiceGroup, error) {
	alt, err := t.secondTrainer()
	if err != nil {
		return choiceGroup{}, err
	}
	cands, _ := alt.cfg.candidates(len(t.names))
	alt.cfg = alt.cfg.withChoiceBound() // as CrossValidate's own
	for i := range cands {
		cands[i] = cands[i].withChoiceBound()
	}
	d, err := alt.cvData(o, true)
	if err != nil {
		return choiceGroup{}, err
	}
	d.choiceCells = alt.given.MaxTableSize
	rs, err := d.run(cands)
	if err != nil {
		return choiceGroup{}, err
	}
	return choiceGroup{d, rs, cands, alt.cfg.plain().forClasses(len(t.names))}, nil
}

// pickGroup returns which group's result wins among the results rss, one set
// per group (nil: that group could not choose), as Finish chooses: the
// first group's best (best), unless short holds and the second group's
// best scores above it (secondWins). It returns the winning
// group, its index there, and the runner-up's result (nil if none).
func pickGroup(groups []choiceGroup, rss [][]*CVResult, short bool) (g, w int, second *CVResult) {
	w, s := best(rss[0], groups[0].plain)
	if s >= 0 {
		second = rss[0][s]
	}
	if len(groups) < 2 || !short || rss[1] == nil {
		return 0, w, second
	}
	w2, _ := best(rss[1], groups[1].plain)
	if !secondWins(rss[1][w2], rss[0][w]) {
		if second == nil || byScore(rss[1][w2], second) < 0 {
			second = rss[1][w2]
		}
		return 0, w, second
	}
	return 1, w2, rss[0][w]
}

// nested returns the cross-validation of Finish's choice among the
// groups' candidates, made as Finish makes it within each fold's training
// part (ChoiceFolds folds of it, from the cached rows): each fold scores
// as the candidate it chose, whose result on every fold its group holds.
// whole is the choice on the whole corpus, which the result reports
// beside; short tells whether documents are short text (keptTexts.short).
func nested(groups []choiceGroup, whole *CVResult, short func([]int) bool) (*CVResult, error) {
	d := groups[0].d
	k := len(d.folds)
	out := &CVResult{Config: whole.Config, Folds: make([]FoldResult, k), Predicted: make([]string, len(d.y)), Choice: whole.Choice}
	if h := whole.HeldOut; h != nil { // each fold's scores are its choice's
		out.HeldOut = &HeldOut{Classes: h.Classes, Labels: h.Labels, Scores: make([]float64, len(h.Scores)), Folds: h.Folds}
	}
	for fk := range k {
		g, w := 0, 0 // too small to choose in: the plain default, as Finish falls back
		for i, c := range groups[0].cands {
			if c.Alpha == groups[0].plain.Alpha && c.Reweight <= 0 {
				w = i
			}
		}
		train := split.FoldTrain(nil, d.folds, fk)
		if sub := d.subset(train); sub != nil {
			isShort := short(train)
			rss := make([][]*CVResult, len(groups))
			for j, gr := range groups {
				if j > 0 && !isShort {
					break // Finish tries no second tokenization
				}
				if j > 0 {
					sub = gr.d.subset(train)
				}
				srs, err := sub.run(gr.cands)
				if err != nil {
					return nil, fmt.Errorf("fold %d: choice: %w", fk+1, err)
				}
				rss[j] = srs
			}
			g, w, _ = pickGroup(groups, rss, isShort)
		}
		rs := groups[g].rs
		out.Folds[fk] = rs[w].Folds[fk]
		out.Folds[fk].Setting = rs[w].Config.Setting()
		for _, i := range d.folds[fk] {
			out.Predicted[i] = rs[w].Predicted[i]
			if h := out.HeldOut; h != nil {
				n := len(h.Classes)
				copy(h.Scores[i*n:(i+1)*n], rs[w].HeldOut.Scores[i*n:(i+1)*n])
			}
		}
	}
	acc, f1 := make([]float64, k), make([]float64, k)
	for i, f := range out.Folds {
		acc[i], f1[i] = f.Accuracy, f.MacroF1
	}
	out.Accuracy, out.MacroF1 = meanSD(acc), meanSD(f1)
	out.Nested = true
	return out, nil
}

// subset returns the documents docs of d as a corpus of their own, dealt
// into ChoiceFolds folds as Finish's choice deals them, or nil if a class
// has too few of them for those folds.
func (d *cvData) subset(docs []int) *cvData {
	s := &cvData{cfg: d.cfg, names: d.names, terms: d.terms, cols: d.cols, y: make([]int, len(docs))}
	s.cfg.MaxTableSize = d.choiceCells
	counts := make([]int, len(d.names))
	labels := make([]string, len(docs))
	s.ptr, s.df = make([]int, 1, len(docs)+1), make([]int64, d.cols)
	for p, i := range docs {
		s.y[p] = d.y[i]
		counts[d.y[i]]++
		labels[p] = d.names[d.y[i]]
		idx, val := d.row(i)
		s.idx, s.val = append(s.idx, idx...), append(s.val, val...)
		s.ptr = append(s.ptr, len(s.idx))
		for _, j := range idx {
			s.df[j]++
		}
	}
	if slices.Min(counts) < 2*ChoiceFolds {
		return nil
	}
	s.folds = split.StratifiedKFold(labels, ChoiceFolds, 0)
	if d.terms == nil {
		return s
	}
	parent := d.origin
	s.dropRare()
	for c, j := range s.origin { // dropRare numbers d's columns: make them term ids
		s.origin[c] = parent[j]
	}
	if s.cfg.Vocab.MaxFeatures > 0 && !s.cfg.Vocab.Binary {
		s.tf = make([]int64, s.cols)
		for p, j := range s.idx {
			s.tf[j] += int64(s.val[p])
		}
	}
	return s
}

// cvData is a tokenized corpus kept for cross-validation: every document's
// raw term counts over every term seen (or the hashing columns), in the
// order the vectorizer produced them.
type cvData struct {
	cfg Config // language and tokenizer resolved
	// choiceCells is the MaxTableSize of the choice nested in each fold
	// (subset), as Finish's choice on that part has it (choiceData).
	choiceCells int
	names       []string
	y           []int
	ptr         []int // document i's entries are idx, val[ptr[i]:ptr[i+1]]
	idx         []int32
	val         []float64
	cols        int
	df          []int64
	tf          []int64 // total counts, when MaxFeatures needs them
	// terms spells the terms on first use: only max_features' ties
	// need them, and spelling them all costs a copy of the vocabulary;
	// nil with hashing.
	terms func() *vocab.Vocabulary
	// origin maps a column to its term's id in terms
	origin []int32
	minDF  []int // per fold, when automatic
	folds  [][]int
	keep   bool // CVOptions.KeepScores
	// all keeps every column, also those no fold's min_df keeps: a nested
	// choice's subsets decide their own folds' automatic min_df from every
	// term of their documents, as Finish does on a fold's training part.
	all bool
	// lo is the least document frequency of the columns kept (dropRare);
	// finalMinDF is the min_df of Finish's model of all the documents
	// (Trainer.finalVocab), computed while every term is there to count.
	lo, finalMinDF int
}

// cvData ends the input and keeps its raw rows; with all, every column
// (cvData.all), for the nested choice's subsets.
func (t *Trainer) cvData(o CVOptions, all bool) (*cvData, error) {
	k := o.folds()
	if t.cfg.Semi.Method != NoSemi {
		t.stop() // as every other way out: the input ends here
		return nil, fmt.Errorf("%w: cross-validation of semi-supervised training is not supported", ErrConfig)
	}
	if err := t.closeInput(); err != nil {
		return nil, err
	}
	if k < 2 || k > len(t.y) {
		return nil, fmt.Errorf("%w: %d folds for %d documents, want 2 to %d", ErrConfig, k, len(t.y), len(t.y))
	}
	d := &cvData{cfg: t.cfg, names: t.names, y: t.y, keep: o.KeepScores, all: all}
	if d.cfg.Select.Method != NoSelect {
		d.cfg.Vocab.MaxFeatures = 0 // K is the selection's, as in Finish
	}
	labels := make([]string, len(t.y))
	for i, c := range t.y {
		labels[i] = t.names[c]
	}
	d.folds = split.StratifiedKFold(labels, k, o.Seed)
	t.an = nil
	if t.vocab == nil {
		X, err := sparse.StackRows(t.hash.Cols(), t.hashed)
		t.hashed = nil
		if err != nil {
			return nil, err
		}
		d.ptr, d.idx, d.val, d.cols = X.Indptr, X.Indices, X.Data, X.Cols
		d.df = make([]int64, d.cols)
		for _, j := range d.idx {
			d.df[j]++
		}
		return d, nil
	}
	t.vocab.EndInput()
	merged, err := vocab.Merge(t.vocab)
	if err != nil {
		return nil, err
	}
	t.vocab = nil
	d.finalMinDF = t.finalVocab(merged).MinDF
	return d, d.fromVocab(merged, true)
}

// fromVocab keeps the raw rows of merged, taking them from it if consume
// is set, else copying them so that merged can still train.
func (d *cvData) fromVocab(merged *vocab.Counts, consume bool) error {
	// Counts even with Vocab.Binary: rows are made binary as they are
	// weighted (rowWeights.binary), and the counts serve the totals.
	prune := merged.Prune
	if consume {
		prune = merged.PruneConsume
	}
	p, err := prune(vocab.Config{})
	if err != nil {
		return err
	}
	d.terms, d.cols, d.df = sync.OnceValue(p.Provisional), p.Len(), p.DF()
	// Pruning by nothing keeps every term, so each row takes the place of
	// its distinct terms, and the rows are written in parallel.
	n := p.Rows()
	d.ptr = make([]int, n+1)
	for i := range n {
		d.ptr[i+1] = d.ptr[i] + p.RowCap(i)
	}
	d.idx, d.val = make([]int32, d.ptr[n]), make([]float64, d.ptr[n])
	var short atomic.Bool
	parallel.Chunks(n, 256, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			at, to := d.ptr[i], d.ptr[i+1]
			if idx, _ := p.Row(i, d.idx[at:at:to], d.val[at:at:to]); len(idx) != to-at {
				short.Store(true)
			}
		}
	})
	if short.Load() {
		return errors.New("pipeline: a vocabulary pruned by nothing dropped terms")
	}
	d.dropRare()
	if d.cfg.Vocab.MaxFeatures > 0 && !d.cfg.Vocab.Binary {
		d.tf = make([]int64, d.cols)
		for p, j := range d.idx {
			d.tf[j] += int64(d.val[p])
		}
	}
	return nil
}

// dropRare drops the columns that no fold's pruning can keep, those in
// fewer documents than the lowest min_df of any fold, and numbers the
// others from the most frequent down, so that the folds' passes over the
// rows find the columns they touch most in cache. Rows keep their order.
func (d *cvData) dropRare() {
	lo := d.cfg.Vocab.MinDF
	if lo == 0 { // each fold's, while every term is there to count
		d.minDF = make([]int, len(d.folds))
		h := newDFHistogram(d.df)
		parallel.For(len(d.folds), 0, func(k int) {
			d.minDF[k] = d.foldMinDF(k, h)
		})
		lo = slices.Min(d.minDF)
	}
	if d.all {
		lo = 1
	}
	d.lo = lo
	order := byDFDescending(d.df, int64(lo))
	to, df := renumber(d.cols, order, d.df)
	w, start := 0, 0
	for i := range len(d.y) {
		end := d.ptr[i+1]
		for p := start; p < end; p++ {
			if c := to[d.idx[p]]; c >= 0 {
				d.idx[w], d.val[w] = c, d.val[p]
				w++
			}
		}
		start, d.ptr[i+1] = end, w
	}
	d.idx, d.val = slices.Clip(d.idx[:w]), slices.Clip(d.val[:w])
	d.cols, d.df, d.origin = len(order), df, order
}

// byDFDescending returns the columns whose document frequency df is at
// least lo, from the most frequent down, columns of equal frequency in
// increasing order: a counting sort, since frequencies are at most the
// number of documents.
func byDFDescending(df []int64, lo int64) []int32 {
	var hi int64
	n := 0
	for _, v := range df {
		if v >= lo {
			hi = max(hi, v)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	at := make([]int, hi-lo+2) // at[hi−v]: where the columns of frequency v start
	for _, v := range df {
		if v >= lo {
			at[hi-v+1]++
		}
	}
	for i := 1; i < len(at); i++ {
		at[i] += at[i-1]
	}
	order := make([]int32, n)
	for j, v := range df {
		if v >= lo {
			order[at[hi-v]] = int32(j)
			at[hi-v]++
		}
	}
	return order
}

// renumber returns the map of cols columns to their positions in keep, -1
// for the columns not kept, and the document frequencies df of the kept
// columns in keep's order.
func renumber(cols int, keep []int32, df []int64) (to []int32, keptDF []int64) {
	to = make([]int32, cols)
	for j := range to {
		to[j] = -1
	}
	keptDF = make([]int64, len(keep))
	for c, j := range keep {
		to[j], keptDF[c] = int32(c), df[j]
	}
	return to, keptDF
}

// foldClasses returns the number of classes in fold k's training part.
func (d *cvData) foldClasses(k int) int {
	left := make([]int, len(d.names))
	for _, c := range d.y {
		left[c]++
	}
	for _, i := range d.folds[k] {
		left[d.y[i]]--
	}
	n := 0
	for _, v := range left {
		n += tally.BoolInt(v > 0)
	}
	return n
}

// foldDF returns the document frequencies of fold k's training part: the
// corpus's less the held-out part's.
func (d *cvData) foldDF(k int) []int64 {
	df := slices.Clone(d.df)
	for _, i := range d.folds[k] {
		idx, _ := d.row(i)
		for _, j := range idx {
			df[j]--
		}
	}
	return df
}

// row returns document i's raw entries.
func (d *cvData) row(i int) ([]int32, []float64) {
	return d.idx[d.ptr[i]:d.ptr[i+1]], d.val[d.ptr[i]:d.ptr[i+1]]
}

// foldData is what the training part of a fold makes of the corpus: its
// classes (in the order it meets them), its labels, and its columns.
type foldData struct {
	k           int
	train, test []int
	classes     []string
	y           []int   // per training document, into classes
	colmap      []int32 // raw column → model column, or −1; nil: the same
	features    int
	df          []int64 // per model column
	minDF       int
}

// rowWeights weights the rows of a fold's model as its weighting would,
// with the same operations in the same order, as it picks out the model's
// columns.
type rowWeights struct {
	colmap []int32 // raw column → model column, or −1; nil: the same
	binary bool    // values 1 before weighting
	tf     func(v float64) float64
	small  *[256]float64 // tf of the counts 0 to 255
	idf    []float64     // nil: no weighting
	norm   vectorize.Norm
}

// newRowWeights returns the weights of m, whose weighting is fitted, for
// the columns of f.
func newRowWeights(m *Model, f *foldData, binary bool) rowWeights {
	w := rowWeights{colmap: f.colmap, binary: binary, norm: vectorize.NoNorm}
	switch t := m.weight.(type) {
	case *vectorize.TFIDF:
		w.idf, w.norm, w.tf = t.IDF, t.Norm, func(v float64) float64 { return v }
		if t.SublinearTF {
			w.tf = func(v float64) float64 { return 1 + math.Log(v) } // counts are > 0
		}
	case *vectorize.Rennie:
		w.idf, w.norm, w.tf = t.IDF, vectorize.L2, math.Log1p
	}
	if w.tf != nil {
		w.small = new([256]float64)
		for k := range w.small {
			w.small[k] = w.tf(float64(k))
		}
	}
	return w
}

// tfOf returns the weighting's tf of count v, looked up for the counts 0
// to 255: only for those does uint8(v) equal v.
func (w *rowWeights) tfOf(v float64) float64 {
	if k := uint8(v); float64(k) == v {
		return w.small[k]
	}
	return w.tf(v)
}

// row appends raw row i's entries that the model has, weighted.
func (w *rowWeights) row(d *cvData, i int, idx []int32, val []float64) ([]int32, []float64) {
	ri, rv := d.row(i)
	n := len(idx)
	if w.colmap == nil {
		idx, val = append(idx, ri...), append(val, rv...)
	} else {
		idx, val = slices.Grow(idx, len(ri))[:n+len(ri)], slices.Grow(val, len(ri))[:n+len(ri)]
		k := n
		for p, j := range ri {
			c := w.colmap[j]
			idx[k], val[k] = c, rv[p]
			k += int(^uint32(c) >> 31) // without a branch: whether a column is kept is not predictable
		}
		idx, val = idx[:k], val[:k]
	}
	if w.binary {
		for p := n; p < len(val); p++ {
			val[p] = 1
		}
	}
	if w.idf == nil {
		return idx, val
	}
	for p := n; p < len(val); p++ {
		val[p] = w.tfOf(val[p]) * w.idf[idx[p]]
	}
	vectorize.NormalizeRow(val[n:], w.norm)
	return idx, val
}

// fold prepares fold k: the training part's classes and labels, its
// document frequencies (the corpus's less the held-out part's), and the
// columns that pruning the training part's vocabulary would keep.
func (d *cvData) fold(k int) (*foldData, error) {
	f := &foldData{k: k, test: d.folds[k], train: split.FoldTrain(nil, d.folds, k)}
	classOf := make([]int, len(d.names))
	for c := range classOf {
		classOf[c] = -1
	}
	f.y = make([]int, len(f.train))
	for p, i := range f.train {
		c := d.y[i]
		if classOf[c] < 0 {
			classOf[c] = len(f.classes)
			f.classes = append(f.classes, d.names[c])
		}
		f.y[p] = classOf[c]
	}
	if len(f.classes) < 2 {
		return nil, fmt.Errorf("%w: fold %d trains on class %q alone", ErrOneClass, k+1, f.classes[0])
	}
	df := d.foldDF(k)
	if d.terms == nil { // hashing: every column stays
		f.features, f.df = d.cols, df
		return f, nil
	}
	keep, err := d.kept(f, df)
	if err == nil && d.cfg.Select.Method != NoSelect {
		keep, err = d.selectFold(f, keep, df)
	}
	if err != nil {
		return nil, fmt.Errorf("fold %d: %w", k+1, err)
	}
	f.colmap, f.df = renumber(d.cols, keep, df)
	f.features = len(keep)
	return f, nil
}

// kept returns the raw columns, increasing, that the vocabulary pruning of
// Trainer.Finish keeps for the fold's training part, whose document
// frequencies are df: automatic min_df (vocab.Counts.MinDFFor), min_df and
// max_df (as union.kept), then max_features (as union.limit: the largest
// totals, ties to the term first in byte order).
func (d *cvData) kept(f *foldData, df []int64) ([]int32, error) {
	vc, n := d.cfg.Vocab, len(f.train)
	f.minDF = vc.MinDF
	if f.minDF == 0 {
		f.minDF = d.minDF[f.k]
	}
	maxDF := vc.MaxDF
	if maxDF == 0 {
		maxDF = 1
	}
	maxCount := maxDF * float64(n)
	if maxCount < float64(f.minDF) {
		return nil, fmt.Errorf("%w: max_df %g is %g of %d documents, fewer than min_df %d",
			ErrConfig, maxDF, maxCount, n, f.minDF)
	}
	lo, hi := int64(f.minDF), int64(math.Floor(maxCount))
	var keep []int32
	for j, v := range df {
		if v >= lo && v <= hi {
			keep = append(keep, int32(j))
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%w: no term of %d documents is in %d to %d of them", vectorize.ErrEmptyVocabulary, n, lo, hi)
	}
	if vc.MaxFeatures == 0 || len(keep) <= vc.MaxFeatures {
		return keep, nil
	}
	terms := d.terms()
	out := vocab.Largest(keep, d.totals(f, df), vc.MaxFeatures, func(tied []int32) []int32 {
		slices.SortFunc(tied, func(a, b int32) int {
			return strings.Compare(terms.Term(int(d.origin[a])), terms.Term(int(d.origin[b])))
		})
		return tied
	})
	return out, nil
}

// totals returns each raw column's total count in the fold's training
// part, or its document frequency df there with binary counts.
func (d *cvData) totals(f *foldData, df []int64) []int64 {
	if d.cfg.Vocab.Binary {
		return df
	}
	tf := slices.Clone(d.tf)
	for _, i := range f.test {
		idx, val := d.row(i)
		for p, j := range idx {
			tf[j] -= int64(val[p])
		}
	}
	return tf
}

// run cross-validates every setting, which differ from d.cfg only in
// Weighting, TFIDFOptions, Classifier, Alpha, Norm, UniformPrior, Reweight
// and ReweightRate. The settings that weight alike share each fold's sums;
// the others only refit them.
func (d *cvData) run(settings []Config) ([]*CVResult, error) {
	return d.race(settings, nil)
}

// raceZ is how many standard errors of the paired difference on the first
// fold a raced setting must trail that fold's best by to be dropped.
const raceZ = 3

// race is run, but with keep non-nil it races the settings: it scores the
// first fold alone, then drops each setting that keep does not hold whose
// paired difference from the first fold's best (the held-out documents
// one of the two gets right, McNemar's b − c) exceeds raceZ standard errors
// (√(b + c)), and scores the other folds only for the rest. A dropped
// setting's result holds the first fold (CVResult.Dropped).
func (d *cvData) race(settings []Config, keep []bool) ([]*CVResult, error) {
	for i := range settings {
		if err := settings[i].validate(); err != nil {
			return nil, err
		}
	}
	groups := groupSettings(settings)
	k := len(d.folds)
	preds := make([][]string, len(settings))
	for s := range preds {
		preds[s] = make([]string, len(d.y))
	}
	scores := d.newScores(len(settings))
	folds := make([][]FoldResult, len(settings))
	for s := range folds {
		folds[s] = make([]FoldResult, k)
	}
	var x *cvCells // nil: cells numbered by int32 would overflow, and the folds count through CountRows
	if len(d.idx) <= math.MaxInt32 {
		x = d.cells()
	}
	all := make([]int, k)
	for fk := range all {
		all[fk] = fk
	}
	dropped := make([]bool, len(settings))
	if keep == nil || k < 2 {
		if err := d.runFolds(x, all, settings, groups, preds, scores, folds); err != nil {
			return nil, err
		}
	} else {
		if err := d.runFolds(x, all[:1], settings, groups, preds, scores, folds); err != nil {
			return nil, err
		}
		dropped = d.raceOut(preds, keep)
		var rest [][]int // the groups of the settings kept
		for _, g := range groups {
			var kept []int
			for _, s := range g {
				if !dropped[s] {
					kept = append(kept, s)
				}
			}
			if len(kept) > 0 {
				rest = append(rest, kept)
			}
		}
		if err := d.runFolds(x, all[1:], settings, rest, preds, scores, folds); err != nil {
			return nil, err
		}
	}
	out := make([]*CVResult, len(settings))
	for s, cfg := range settings {
		r := &CVResult{Config: d.settingConfig(cfg).forClasses(len(d.names)), Folds: folds[s], Predicted: preds[s], HeldOut: d.heldOut(scores[s])}
		if dropped[s] {
			r.Folds, r.HeldOut, r.Dropped = folds[s][:1], nil, true
		}
		acc, f1 := make([]float64, len(r.Folds)), make([]float64, len(r.Folds))
		for i, f := range r.Folds {
			acc[i], f1[i] = f.Accuracy, f.MacroF1
		}
		r.Accuracy, r.MacroF1 = meanSD(acc), meanSD(f1)
		out[s] = r
	}
	return out, nil
}

// raceOut returns which settings the first fold's predictions drop (race).
func (d *cvData) raceOut(preds [][]string, keep []bool) []bool {
	right := func(s int) []bool {
		r := make([]bool, len(d.folds[0]))
		for p, i := range d.folds[0] {
			r[p] = preds[s][i] == d.names[d.y[i]]
		}
		return r
	}
	best, bestRight := -1, -1
	rights := make([][]bool, len(preds))
	for s := range preds {
		rights[s] = right(s)
		n := 0
		for _, ok := range rights[s] {
			if ok {
				n++
			}
		}
		if n > bestRight {
			best, bestRight = s, n
		}
	}
	dropped := make([]bool, len(preds))
	for s := range preds {
		if keep[s] || s == best {
			continue
		}
		b, c := 0, 0 // documents only the best gets right, only s gets right
		for p, ok := range rights[s] {
			switch {
			case rights[best][p] && !ok:
				b++
			case ok && !rights[best][p]:
				c++
			}
		}
		dropped[s] = float64(b-c) > raceZ*math.Sqrt(float64(b+c))
	}
	return dropped
}

// runFolds scores the folds given for every group of settings. Each fold
// and group is a task: with a few folds and several groups that keeps
// every core busy. A fold's columns (and selection) are the same for
// every group: the first of its tasks makes them, the last lets go of
// them.
func (d *cvData) runFolds(x *cvCells, fks []int, settings []Config, groups [][]int, preds [][]string, scores [][]float64, folds [][]FoldResult) error {
	type sharedFold struct {
		get  func() (*foldData, error)
		left atomic.Int32
	}
	shared := make([]sharedFold, len(fks))
	for i, fk := range fks {
		shared[i].get = sync.OnceValues(func() (*foldData, error) { return d.fold(fk) })
		shared[i].left.Store(int32(len(groups)))
	}
	errs := make([]error, len(fks)*len(groups))
	parallel.For(len(errs), 0, func(i int) {
		s, gi := &shared[i/len(groups)], i%len(groups)
		f, err := s.get()
		if err == nil {
			err = d.runFold(x, f, settings, groups[gi], preds, scores, folds)
		}
		errs[i] = err
		if s.left.Add(-1) == 0 {
			s.get = nil
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// settingConfig is d's configuration with the fields a setting may change
// taken from s.
func (d *cvData) settingConfig(s Config) Config {
	c := d.cfg
	c.Weighting, c.TFIDFOptions, c.Classifier = s.Weighting, s.TFIDFOptions, s.Classifier
	c.Alpha, c.Norm, c.UniformPrior = s.Alpha, s.Norm, s.UniformPrior
	c.Reweight, c.ReweightRate = s.Reweight, s.ReweightRate
	return c
}

// groupSettings groups the indices of settings whose fold sums are the
// same: Bernoulli's (binary, unweighted) apart from the others', which
// differ by weighting.
func groupSettings(settings []Config) [][]int {
	type key struct {
		bernoulli bool
		w         Weighting
		o         TFIDFOptions
	}
	at := map[key]int{}
	var groups [][]int
	for i, s := range settings {
		k := key{bernoulli: s.Classifier == Bernoulli}
		if !k.bernoulli {
			k.w = s.Weighting
			if k.w == TFIDF {
				k.o = s.TFIDFOptions
			}
		}
		g, ok := at[k]
		if !ok {
			g = len(groups)
			at[k] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// foldRows returns the rows of documents docs as w weights them, laid end
// to end in one matrix of features columns, which holds room for their raw
// entries (at least as many as w keeps) from the start.
func (d *cvData) foldRows(w *rowWeights, features int, docs []int) *vectorize.CSR {
	n := 0
	for _, i := range docs {
		n += d.ptr[i+1] - d.ptr[i]
	}
	X := &vectorize.CSR{Cols: features, Rows: len(docs), Indptr: make([]int, 1, len(docs)+1),
		Indices: make([]int32, 0, n), Data: make([]float64, 0, n)}
	for _, i := range docs {
		X.Indices, X.Data = w.row(d, i, X.Indices, X.Data)
		X.Indptr = append(X.Indptr, len(X.Indices))
	}
	return X
}

// runFold fits fold f's training part once for the group g of settings,
// refits the sums for each setting of the group and predicts the held-out
// part. f is only read.
func (d *cvData) runFold(x *cvCells, f *foldData, settings []Config, g []int, preds [][]string, scores [][]float64, folds [][]FoldResult) error {
	fk := f.k
	var err error
	n := len(f.classes)
	m := &Model{Config: d.settingConfig(settings[g[0]]).forClasses(n), Classes: f.classes}
	if err := m.fitWeightingDF(len(f.train), func() []int64 { return f.df }); err != nil {
		return fmt.Errorf("fold %d: %w", fk+1, err)
	}
	w := newRowWeights(m, f, d.cfg.Vocab.Binary && d.terms != nil) // hashing counts, as Finish does
	counts, ok := (*compact.Counts)(nil), false
	if x != nil && n <= compact.MaxClasses {
		counts, ok = d.foldCounts(x, f, &w, m.newEstimator())
	}
	if ok {
		m.counts = counts
		err = m.refitLazy()
	} else { // CountRows reports what is wrong
		err = m.fitCounts(f.features, f.y, func(i int, idx []int32, val []float64) ([]int32, []float64) {
			return w.row(d, f.train[i], idx, val)
		})
	}
	if err != nil {
		return fmt.Errorf("fold %d: %w", fk+1, err)
	}
	var train *vectorize.CSR // the training part's rows, weighted, if a setting reweights them
	for _, s := range g {
		if settings[s].Reweight > 0 {
			train = d.foldRows(&w, f.features, f.train)
			break
		}
	}
	test := d.foldRows(&w, f.features, f.test) // weighted, binary as a model predicts them; unsorted
	at := d.scoreColumns(f)                    // nil unless scores are kept
	pred := make([]int, len(f.test))
	base, changed := m.counts, false // reweighting may change m's counts
	var prev *compact.Scorer
	for gi, s := range g {
		if gi > 0 || changed {
			m.Config, m.counts = d.settingConfig(settings[s]).forClasses(n), base
			if err := m.refit(); err != nil {
				return fmt.Errorf("fold %d: %w", fk+1, err)
			}
		}
		if m.reweighted() {
			if err := m.reweigh(len(f.train), f.y, train.Row); err != nil {
				return fmt.Errorf("fold %d: %w", fk+1, err)
			}
			changed = true
		}
		sc := prev // laid out once for the settings that share the fold's cells (not reweighted)
		if prev == nil {
			sc = m.scorer()
		} else if sc, err = m.linear().ScorerLike(prev); err != nil {
			return fmt.Errorf("fold %d: %w", fk+1, err)
		}
		prev = sc
		// In chunks on every core: the last of the folds runs alone.
		parallel.Chunks(len(f.test), 128, 0, func(lo, hi int) {
			var jll []float64
			for r := lo; r < hi; r++ {
				ri, rv := test.Row(r)
				jll = sc.JointLogLikelihood(jll[:0], ri, rv)
				c := nb.Argmax(jll)
				pred[r] = c
				d.keepScores(scores[s], at, f.test[r], jll)
			}
		})
		ev := metrics.NewEvaluator(f.classes)
		for r, i := range f.test {
			ev.AddProba(d.names[d.y[i]], pred[r], nil)
			preds[s][i] = f.classes[pred[r]]
		}
		e := ev.Result()
		folds[s][fk] = FoldResult{Train: len(f.train), Test: len(f.test), Features: f.features, MinDF: f.minDF,
			Accuracy: e.Accuracy, MacroF1: e.MacroF1, Evaluation: e}
	}
	return nil
}
