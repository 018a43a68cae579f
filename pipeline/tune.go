package pipeline

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

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
}

// DefaultGrid is the grid of train --tune: smoothing from light (short
// texts, Multinomial NB) to strong, unigrams and bigrams, TF-IDF and raw
// counts, and Complement and Multinomial NB; for Chinese also Han character
// unigrams, which carry short texts, up to trigrams. Rennie's weighting is
// left out: it scored within a standard error of TF-IDF on every corpus
// we measured.
func DefaultGrid() Grid {
	return Grid{
		Alpha:      []float64{0.01, 0.03, 0.1, 0.3, 1},
		NGrams:     []tokenize.NGramRange{{Min: 1, Max: 1}, {Min: 1, Max: 2}},
		CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 1}, {Min: 1, Max: 2}, {Min: 1, Max: 3}, {Min: 2, Max: 3}},
		Weighting:  []Weighting{TFIDF, RawCounts},
		Classifier: []Classifier{Complement, Multinomial},
	}
}

// ParseGrid reads a grid written as
//
//	alpha=0.03,0.1,0.3,1;ngrams=1,1|1,2;char-ngrams=none|1,2|1,3;weighting=tfidf|rennie|counts;model=cnb|mnb
//
// Settings it does not name keep the base configuration's value.
func ParseGrid(s string) (Grid, error) {
	var g Grid
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, list, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(list) == "" {
			return g, fmt.Errorf("%w: grid %q: want NAME=VALUE|VALUE…", ErrConfig, part)
		}
		key = strings.TrimSpace(key)
		var err error
		switch key {
		case "alpha":
			for _, v := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == '|' }) {
				a, e := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if e != nil || !(a > 0) {
					return g, fmt.Errorf("%w: grid alpha %q: want positive numbers", ErrConfig, v)
				}
				g.Alpha = append(g.Alpha, a)
			}
		case "ngrams":
			g.NGrams, err = parseRanges(key, list, false)
		case "char-ngrams":
			g.CharNGrams, err = parseRanges(key, list, true)
		case "weighting":
			g.Weighting, err = parseEach(list, parseText[Weighting])
		case "model":
			g.Classifier, err = parseEach(list, parseText[Classifier])
		default:
			return g, fmt.Errorf("%w: grid names %q: want alpha, ngrams, char-ngrams, weighting or model", ErrConfig, key)
		}
		if err != nil {
			return g, err
		}
	}
	return g, nil
}

func parseEach[T any](list string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, v := range strings.Split(list, "|") {
		x, err := parse(strings.TrimSpace(v))
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// parseText reads a value of an enumeration by its name.
func parseText[E any, P interface {
	*E
	UnmarshalText([]byte) error
}](s string) (E, error) {
	var e E
	err := P(&e).UnmarshalText([]byte(s))
	return e, err
}

func parseRanges(key, list string, none bool) ([]tokenize.NGramRange, error) {
	return parseEach(list, func(v string) (tokenize.NGramRange, error) {
		if none && v == "none" {
			return tokenize.NGramRange{}, nil
		}
		lo, hi, ok := strings.Cut(v, ",")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if !ok || err1 != nil || err2 != nil || a < 1 || b < a {
			return tokenize.NGramRange{}, fmt.Errorf("%w: grid %s %q: want MIN,MAX with 1 ≤ MIN ≤ MAX", ErrConfig, key, v)
		}
		return tokenize.NGramRange{Min: a, Max: b}, nil
	})
}

// TuneResult is the outcome of Tune: one cross-validation per setting, in
// grid order (tokenizations outermost, then weighting, classifier and
// alpha), and the one chosen.
type TuneResult struct {
	Results []*CVResult
	// Best is the setting chosen, Top the one with the best scores, and
	// Base the base configuration's own setting, or −1 if the grid does not
	// hold it.
	Best, Top, Base int
	Elapsed         time.Duration
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
// the settings of one tokenization share its folds' sums. The language is
// decided first, as Trainer does, unless base names it.
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
				s := base
				s.Weighting, s.Classifier, s.Alpha = w, c, a
				settings = append(settings, s)
			}
		}
	}
	r := &TuneResult{Base: -1}
	for _, ng := range ngrams {
		for _, ch := range chars {
			baseTokens := ng == resolved.WordNGrams && ch == resolved.HanChars
			cfg := base
			cfg.Tokenize.WordNGrams, cfg.Tokenize.HanChars = ng, ch
			if base.Tokenize.Lang == tokenize.Chinese && len(g.CharNGrams) > 0 {
				cfg.NoHanChars = ch == (tokenize.NGramRange{})
			}
			t, err := NewTrainer(cfg)
			if err != nil {
				return nil, err
			}
			var addErr error
			err = docs(func(label, text string) bool { addErr = t.Add(label, text); return addErr == nil })
			if err = cmp.Or(err, addErr); err != nil {
				t.Abort() // stops its tokenizing goroutines
				return nil, err
			}
			d, err := t.cvData(o)
			if err != nil {
				t.Abort() // lets go of the documents added
				return nil, err
			}
			rs, err := d.run(settings)
			if err != nil {
				return nil, err
			}
			if baseTokens {
				for i, s := range settings {
					if s.Weighting == base.Weighting && s.Classifier == base.Classifier && s.alpha() == base.alpha() {
						r.Base = len(r.Results) + i
					}
				}
			}
			r.Results = append(r.Results, rs...)
		}
	}
	for i, x := range r.Results {
		b := r.Results[r.Top]
		if x.Accuracy.Mean > b.Accuracy.Mean || x.Accuracy.Mean == b.Accuracy.Mean && x.MacroF1.Mean > b.MacroF1.Mean {
			r.Top = i
		}
	}
	r.Best = r.Top
	if r.Base >= 0 {
		b, d := r.Results[r.Top], r.Results[r.Base]
		if b.Accuracy.Mean-d.Accuracy.Mean <= b.Accuracy.SD/math.Sqrt(float64(len(b.Folds))) {
			r.Best = r.Base
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
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
	var d tokenize.LangDetector
	n := 0
	err := docs(func(_, text string) bool {
		d.Add(text)
		n += len(text)
		return n < langSample
	})
	return d.Lang(), err
}
