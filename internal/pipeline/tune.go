package pipeline

import (
	"slices"
	"sync"
	"time"

	"github.com/textnb/textnb/internal/parallel"

	"github.com/textnb/textnb/tokenize"
)

// Grid lists the values that Tune tries for each setting; an empty list
// keeps the base configuration's value. A CharNGrams range of zero means
// word segmentation alone; character n-grams are tried for Chinese corpora
// only, since they apply to Han characters.
type Grid struct {
	Alpha      []float64
	NGrams     []tokenize.NGramRange
	CharNGrams []tokenize.NGramRange
	Weighting  []Weighting
	Classifier []Classifier
	// Reweight lists passes of reweighting (−1: none) and ReweightRate
	// their rates; Tune skips passes for the classifiers that reweighting
	// does not support.
	Reweight     []int
	ReweightRate []float64
	// ReweightTop is how many of the settings without reweighting, the
	// best of each tokenization, are tried reweighted too (zero:
	// DefaultReweightTop for two classes and none for more, as train's
	// choice has it; negative: all). Reweighting costs several passes over
	// the training part of every fold; docs/cv.md compares the choices.
	ReweightTop int
	// NoRace scores every setting on every fold. By default the settings
	// without reweighting are raced: a setting that trails the first
	// fold's best by more than three standard errors of their paired
	// difference is not scored on the other folds (CVResult.Dropped).
	NoRace bool
}

// tuneTokenizations is how many tokenizations Tune reads and
// cross-validates at once; tests set 1, the reference of one after
// another.
var tuneTokenizations = 2

// DefaultReweightTop is the ReweightTop of a zero Grid for two classes.
const DefaultReweightTop = 2

// reweightTop is g's ReweightTop for a corpus of the given classes: a zero
// one reweights the best DefaultReweightTop with two classes and none with
// more, where reweighting scored below the plain settings on every corpus
// we tuned (docs/cv.md) and each pass scores every fold's training part
// for every class.
func (g Grid) reweightTop(classes int) int {
	if g.ReweightTop != 0 {
		return g.ReweightTop
	}
	if classes == 2 {
		return DefaultReweightTop
	}
	return 0
}

// DefaultGrid is the grid of train --tune: smoothing from light (short
// texts, Multinomial NB) to strong, unigrams and bigrams, TF-IDF and raw
// counts, and Complement and Multinomial NB; for Chinese also Han character
// unigrams, which carry short texts, up to trigrams. Rennie's weighting is
// left out: it scored within a standard error of TF-IDF on every corpus
// we measured.
func DefaultGrid() Grid {
	return Grid{
		Alpha:      []float64{0.03, 0.1, 0.3, 1},
		NGrams:     []tokenize.NGramRange{{Min: 1, Max: 1}, {Min: 1, Max: 2}},
		CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 1}, {Min: 1, Max: 2}, {Min: 1, Max: 3}, {Min: 2, Max: 3}},
		Weighting:  []Weighting{TFIDF, RawCounts},
		Classifier: []Classifier{Complement, Multinomial},
		Reweight:   []int{-1, DefaultReweight},
	}
}

// TuneResult is the outcome of Tune: one cross-validation per setting
// tried, in grid order (tokenizations outermost, then weighting,
// classifier and alpha), and the one chosen.
type TuneResult struct {
	Results []*CVResult
	// Untried counts the reweighted settings of the grid that were not
	// tried, their settings without reweighting being below the best
	// ReweightTop of their tokenization.
	Untried int
	// ReweightTop is the grid's ReweightTop as applied to the corpus's
	// classes: how many settings of a tokenization were tried reweighted
	// (negative: all).
	ReweightTop int
	// Best is the setting chosen, Top the one with the best scores, and
	// Base the base configuration's own setting, or −1 if the grid does not
	// hold it.
	Best, Top, Base int
	Elapsed         time.Duration
	kept            *tuneKept // for TrainBest
}

// Docs gives a corpus's labeled documents to yield, in the same order each
// time it is called, until yield returns false.
type Docs func(yield func(label, text string) bool) error

// Tune cross-validates every setting of g, the rest of base kept, and
// picks the one with the best mean accuracy (then macro-F1; then the
// first), unless the base configuration's own setting is within a standard
// error of it (the fold accuracies' standard deviation over √folds): a
// difference that small is noise, and the defaults hold across corpora.
// The corpus is read and tokenized once per tokenization of the grid;
// the settings of one tokenization share its folds' sums. A reweighted
// setting is tried after the settings without reweighting, and only if
// its own without is among the best g.ReweightTop (DefaultReweightTop if
// zero) of the tokenization. The language is
// decided first, as Trainer does, unless base names it. Two tokenizations
// are cross-validated at once: docs is called from more than one
// goroutine, but one call at a time.
func Tune(base Config, g Grid, o CVOptions, docs Docs) (*TuneResult, error) {
	start := time.Now()
	if base.Tokenize.Lang == tokenize.Auto {
		lang, err := detectLang(docs)
		if err != nil {
			return nil, err
		}
		base.Tokenize.Lang = lang
	}
	resolved := base.tokenizeConfig(base.Tokenize.Lang)
	ngrams := orKeep(g.NGrams, resolved.WordNGrams)
	chars := []tokenize.NGramRange{resolved.HanChars}
	if base.Tokenize.Lang == tokenize.Chinese && len(g.CharNGrams) > 0 {
		chars = g.CharNGrams
	}
	var settings []Config
	for _, w := range orKeep(g.Weighting, base.Weighting) {
		for _, c := range orKeep(g.Classifier, base.Classifier) {
			for _, a := range orKeep(g.Alpha, base.Alpha) {
				for _, p := range orKeep(g.Reweight, base.Reweight) {
					for _, rate := range orKeep(g.ReweightRate, base.ReweightRate) {
						s := base
						s.Weighting, s.Classifier, s.Alpha, s.Reweight, s.ReweightRate = w, c, a, p, rate
						if p <= 0 {
							s.ReweightRate = 0
						}
						if s.validateReweight() != nil || p <= 0 && rate != orKeep(g.ReweightRate, base.ReweightRate)[0] {
							continue // not reweighted, or once without
						}
						settings = append(settings, s)
					}
				}
			}
		}
	}
	plainOf := plainSettings(settings)
	type tokenization struct {
		cfg        Config
		baseTokens bool
		rs         []*CVResult
		untried    int
		top        int       // the ReweightTop applied
		base       int       // the index of the base setting in rs, or −1
		kept       *tuneKept // of the base tokenization, for TrainBest
		err        error
	}
	var toks []*tokenization
	for _, ng := range ngrams {
		for _, ch := range chars {
			cfg := base
			cfg.Tokenize.WordNGrams, cfg.Tokenize.HanChars = ng, ch
			if base.Tokenize.Lang == tokenize.Chinese && len(g.CharNGrams) > 0 {
				cfg.NoHanChars = ch == (tokenize.NGramRange{})
			}
			toks = append(toks, &tokenization{cfg: cfg, baseTokens: ng == resolved.WordNGrams && ch == resolved.HanChars})
		}
	}
	// Two tokenizations at a time: reading the corpus and merging one's
	// vocabulary, which run on one core or wait on the disk, overlap the
	// other's cross-validation. Each is cross-validated as it would be
	// alone; the results are taken in grid order.
	var reading sync.Mutex // docs is called one call at a time
	oneAtATime := func(yield func(label, text string) bool) error {
		reading.Lock()
		defer reading.Unlock()
		return docs(yield)
	}
	parallel.For(len(toks), tuneTokenizations, func(i int) {
		x := toks[i]
		t, err := trainerOn(x.cfg, oneAtATime)
		if err != nil {
			x.err = err
			return
		}
		d, err := t.cvData(o, false)
		if err != nil {
			t.Abort() // lets go of the documents added
			x.err = err
			return
		}
		x.top = g.reweightTop(len(d.names))
		b := base.forClasses(len(d.names))
		var keep []bool // the base setting is never raced out: the noise rule compares with it
		if !g.NoRace {
			keep = make([]bool, len(settings))
			for i, s := range settings {
				keep[i] = x.baseTokens && sameSetting(d.settingConfig(s).forClasses(len(d.names)), b)
			}
		}
		if x.rs, x.untried, x.err = d.runStaged(settings, plainOf, x.top, keep); x.err != nil {
			return
		}
		x.base = -1
		if x.baseTokens {
			x.kept = &tuneKept{t: t, d: d}
			for i, c := range x.rs { // c.Config is resolved as b is
				if sameSetting(c.Config, b) {
					x.base = i
				}
			}
		}
		// Only the tokenization's best and the base setting can be kept
		// in the end (dropScores): the others' scores go now.
		keepTop := top(x.rs)
		for i, c := range x.rs {
			if i != keepTop && i != x.base {
				c.HeldOut = nil
			}
		}
	})
	r := &TuneResult{Base: -1}
	for _, x := range toks {
		if x.err != nil {
			return nil, x.err
		}
		r.Untried += x.untried
		r.ReweightTop = x.top
		if x.base >= 0 {
			r.Base = len(r.Results) + x.base
		}
		if x.kept != nil {
			r.kept, x.kept.from, x.kept.to = x.kept, len(r.Results), len(r.Results)+len(x.rs)
		}
		r.Results = append(r.Results, x.rs...)
		r.dropScores()
	}
	r.Top = top(r.Results)
	r.Best = r.Top
	if r.Base >= 0 {
		if withinNoise(r.Results[r.Top], r.Results[r.Base]) {
			r.Best = r.Base
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// sameSetting reports whether resolved configurations a and b have the
// same setting of a grid but for the tokenization.
func sameSetting(a, b Config) bool {
	return a.Weighting == b.Weighting && a.Classifier == b.Classifier && a.Alpha == b.Alpha && a.Reweight == b.Reweight && a.ReweightRate == b.ReweightRate
}

// plainSettings returns, for each reweighted setting, the index of the
// same setting without reweighting, and −1 for the others and for a
// reweighted setting whose plain one the grid does not hold.
func plainSettings(settings []Config) []int {
	plainOf := make([]int, len(settings))
	for i, s := range settings {
		plainOf[i] = -1
		if s.Reweight <= 0 {
			continue
		}
		for j, p := range settings {
			if p.Reweight <= 0 && p.Weighting == s.Weighting && p.Classifier == s.Classifier && p.Alpha == s.Alpha {
				plainOf[i] = j
				break
			}
		}
	}
	return plainOf
}

// runStaged cross-validates settings on d: first every setting that
// plainOf marks −1, raced unless keep is nil (cvData.race: keep marks the
// settings never dropped), then the reweighted settings whose plain
// setting is among the best topN of the first (negative: all). It returns
// the results of the settings tried, in their order, and how many were not
// tried.
func (d *cvData) runStaged(settings []Config, plainOf []int, topN int, keep []bool) ([]*CVResult, int, error) {
	var first, second []int
	for i, p := range plainOf {
		if p < 0 {
			first = append(first, i)
		}
	}
	results := make([]*CVResult, len(settings))
	if err := d.runSome(settings, first, results, keep); err != nil {
		return nil, 0, err
	}
	var ranked []int // the plain settings that have reweighted ones
	for _, p := range plainOf {
		if p >= 0 && !slices.Contains(ranked, p) {
			ranked = append(ranked, p)
		}
	}
	slices.SortStableFunc(ranked, func(a, b int) int { return byScore(results[a], results[b]) })
	if topN >= 0 && len(ranked) > topN {
		ranked = ranked[:topN]
	}
	untried := 0
	for i, p := range plainOf {
		switch {
		case p < 0:
		case slices.Contains(ranked, p):
			second = append(second, i)
		default:
			untried++
		}
	}
	if err := d.runSome(settings, second, results, nil); err != nil {
		return nil, 0, err
	}
	var out []*CVResult
	for _, x := range results {
		if x != nil {
			out = append(out, x)
		}
	}
	return out, untried, nil
}

// runSome cross-validates the settings at which and puts their results
// there in results.
func (d *cvData) runSome(settings []Config, which []int, results []*CVResult, keep []bool) error {
	if len(which) == 0 {
		return nil
	}
	sub := make([]Config, len(which))
	var subKeep []bool
	if keep != nil {
		subKeep = make([]bool, len(which))
	}
	for i, s := range which {
		sub[i] = settings[s]
		if keep != nil {
			subKeep[i] = keep[s]
		}
	}
	rs, err := d.race(sub, subKeep)
	if err != nil {
		return err
	}
	for i, s := range which {
		results[s] = rs[i]
	}
	return nil
}

// orKeep returns values, or just v if there are none.
func orKeep[T any](values []T, v T) []T {
	if len(values) == 0 {
		return []T{v}
	}
	return slices.Clip(values)
}

// detectLang decides the language from the first documents, as Trainer
// does.
func detectLang(docs Docs) (tokenize.Lang, error) {
	d := tokens.NewLangDetector()
	n := 0
	err := docs(func(_, text string) bool {
		d.Add(text)
		n += len(text)
		return n < langSample
	})
	return d.Lang(), err
}
