package pipeline

import (
	"fmt"
	"math"
	"slices"

	"github.com/textnb/textnb/tokenize"

	"github.com/textnb/textnb/internal/split"
	"github.com/textnb/textnb/internal/vocab"
)

// ChoiceAlphas are the α that Finish chooses from when Config.Alpha is 0
// (and Config.Fast is not set): α 0.3 beat the fixed two-class 0.1 on
// both balanced sentiment corpora, 0.1 suits short spam, 1 long reviews,
// and 0.01 mail (SpamAssassin 0.9757 → 0.9920, Enron1 0.9807 → 0.9855 by
// nested 10-fold cv; docs/cv.md).
var ChoiceAlphas = []float64{0.01, 0.03, 0.1, 0.3, 1}

// ManyClassAlphas are ChoiceAlphas for three or more classes (Complement
// NB): α 1 scored below both on 20 Newsgroups, and each candidate costs a
// scoring of the corpus, which with many classes is what bounds the cost
// of the choice (docs/cv.md).
var ManyClassAlphas = []float64{0.1, 0.3}

// reweightAlpha is the α of the reweighted candidates when Config.Alpha
// is 0.
const reweightAlpha = 0.1

// ChoiceReweightRates are the rates of the reweighted candidates when
// Config.ReweightRate is 0: 60 won on English spam, 20 on Chinese reviews.
var ChoiceReweightRates = []float64{20, 60}

// ChoiceFolds is the number of cross-validation folds of Finish's choice.
const ChoiceFolds = 5

// maxChoiceEntries bounds the corpus, in non-zero entries of its
// documents' rows, that Finish cross-validates to choose settings: the
// choice holds a copy of the rows (12 bytes an entry) beside the
// vocabulary's, and each fold being fitted a weighted copy of its part.
const maxChoiceEntries = 48 << 20

// Choice is what cross-validation in Finish chose the settings from: the
// winner and the runner-up, each named as Setting names them, by mean
// accuracy over Folds stratified folds dealt with seed 0.
type Choice struct {
	Setting          string  `json:"setting"`
	CVAccuracy       float64 `json:"cv_accuracy"`
	CVSD             float64 `json:"cv_sd"`
	RunnerUp         string  `json:"runner_up,omitempty"`
	RunnerUpAccuracy float64 `json:"runner_up_accuracy,omitempty"`
	Folds            int     `json:"folds"`
	Candidates       int     `json:"candidates"`
}

// String describes the choice as train prints it.
func (c *Choice) String() string {
	s := fmt.Sprintf("chose %s (cv accuracy %.4f ± %.4f", c.Setting, c.CVAccuracy, c.CVSD)
	if c.RunnerUp != "" {
		s += fmt.Sprintf("; runner-up %s %.4f", c.RunnerUp, c.RunnerUpAccuracy)
	}
	return s + fmt.Sprintf("), %d candidates, %d folds", c.Candidates, c.Folds)
}

// Setting names the settings that choice varies, as in "cnb α 0.3
// reweight 3×20" or "mnb α 0.1 plain"; c is concrete (forClasses), as a
// trained model's Config is.
func (c Config) Setting() string {
	s := fmt.Sprintf("%v α %g", c.Classifier, c.Alpha)
	if c.Reweight > 0 {
		s += fmt.Sprintf(" reweight %d×%g", c.Reweight, c.ReweightRate)
	} else {
		s += " plain"
	}
	switch {
	case c.Tokenize.Lang == tokenize.Chinese && c.Tokenize.HanChars == HanUnigrams:
		s += ", Han character unigrams"
	case c.Tokenize.Lang != tokenize.Chinese && c.Tokenize.WordNGrams == WordUnigrams:
		s += ", word unigrams"
	}
	return s
}

// candidates returns the settings that Finish chooses among for c, whose
// corpus has n classes, each concrete (forClasses), or nil if c leaves
// nothing to choose (Fast, or every choice given) or holds a setting the
// choice does not cover, with why in the second result.
func (c Config) candidates(n int) ([]Config, string) {
	if c.Fast {
		return nil, ""
	}
	alphas := ChoiceAlphas
	if n > 2 {
		alphas = ManyClassAlphas
	}
	if c.Alpha != 0 {
		alphas = []float64{c.Alpha}
	}
	passes := []int{-1, DefaultReweight}
	switch {
	case c.Reweight != 0:
		passes = []int{c.Reweight}
	case n > 2:
		// Each pass scores every fold's training part: with many classes,
		// more than the choice may cost (docs/cv.md), and on 20 Newsgroups
		// it did not win.
		passes = []int{-1}
	}
	if len(alphas)*len(passes) == 1 {
		return nil, ""
	}
	r := c.forClasses(n)
	switch {
	case c.Semi.Method != NoSemi:
		return nil, "semi-supervised"
	case c.Vectorizer == Hash:
		return nil, "hashing"
	case c.Select.Method != NoSelect:
		return nil, "feature selection"
	case r.Classifier == Bernoulli:
		return nil, "Bernoulli NB"
	case r.Norm:
		passes = []int{-1} // not reweighted
	}
	var out []Config
	for _, p := range passes {
		as, rates := alphas, []float64{c.ReweightRate}
		if p > 0 {
			// α 0.1: with reweighting it won on every two-class corpus
			// measured (docs/cv.md).
			as = alphas[:1]
			if c.Alpha == 0 {
				as = []float64{reweightAlpha}
			}
			if c.ReweightRate == 0 {
				rates = ChoiceReweightRates
			}
		}
		for _, a := range as {
			for _, r := range rates {
				s := c
				s.Alpha, s.Reweight, s.ReweightRate = a, p, r
				out = append(out, s.forClasses(n))
			}
		}
	}
	if n == 2 && c.Classifier == Auto && c.Reweight == 0 && !c.Norm {
		// Complement NB of two classes is multinomial NB without the
		// class prior: on imbalanced mail it led (docs/cv.md).
		for _, a := range alphas {
			s := c
			s.Classifier, s.Alpha, s.Reweight = Complement, a, -1
			out = append(out, s.forClasses(n))
		}
	}
	if len(out) == 1 {
		return nil, ""
	}
	return out, ""
}

// plain returns c as Fast trains it: the defaults where c leaves them.
func (c Config) plain() Config {
	c.Fast = true
	return c
}

// choose cross-validates the candidates on merged, the vocabulary of t's
// documents, which it leaves for training, and returns the winner's
// result with the Choice; with a reason instead, the corpus does not
// allow a choice (too small for the folds, too large to hold twice).
func (t *Trainer) choose(merged *vocab.Counts, candidates []Config) (*CVResult, *Choice, string, error) {
	counts := make([]int, len(t.names))
	for _, c := range t.y {
		counts[c]++
	}
	if slices.Min(counts) < 2*ChoiceFolds {
		return nil, nil, fmt.Sprintf("a class of %d documents, fewer than 2 per fold of %d", slices.Min(counts), ChoiceFolds), nil
	}
	if merged.Entries() > int64(maxChoiceEntries) {
		return nil, nil, fmt.Sprintf("%d row entries, more than the %d that choice holds", merged.Entries(), maxChoiceEntries), nil
	}
	d, err := t.choiceData(merged)
	if err != nil {
		return nil, nil, "", err
	}
	rs, err := d.run(candidates)
	if err != nil {
		return nil, nil, "", err
	}
	win, second := best(rs, t.cfg)
	c := &Choice{Setting: rs[win].Config.Setting(), CVAccuracy: rs[win].Accuracy.Mean, CVSD: rs[win].Accuracy.SD,
		Folds: ChoiceFolds, Candidates: len(rs)}
	if second >= 0 {
		c.RunnerUp, c.RunnerUpAccuracy = rs[second].Config.Setting(), rs[second].Accuracy.Mean
	}
	return rs[win], c, "", nil
}

// best returns the index of the result of the best mean accuracy (then
// macro-F1, then the first) and of the next best, −1 if there is none;
// but the plain default (the setting Fast trains, when a candidate) wins
// if the best leads it by no more than a standard error of their paired
// fold differences: a lead that small is noise, and the default holds
// across corpora. The candidates share their folds, so the fold-wise
// differences, not each setting's spread over folds (which mostly
// measures how hard each fold is), tell noise from a real lead.
func best(rs []*CVResult, plain Config) (win, second int) {
	win, second = topTwo(rs)
	for i, r := range rs {
		c := r.Config
		if i == win || c.Reweight > 0 || c.Alpha != plain.Alpha || c.Classifier != plain.Classifier {
			continue
		}
		if withinNoise(rs[win], r) {
			return i, win
		}
	}
	return win, second
}

// withinNoise reports whether a's lead over b, cross-validated on the
// same folds, is at most a standard error of their fold-wise differences.
func withinNoise(a, b *CVResult) bool {
	d := make([]float64, len(a.Folds))
	for k := range d {
		d[k] = a.Folds[k].Accuracy - b.Folds[k].Accuracy
	}
	lead := meanSD(d)
	return lead.Mean <= lead.SD/math.Sqrt(float64(len(d)))
}

// topTwo returns the indices of the best result and the next best.
func topTwo(rs []*CVResult) (win, second int) {
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return byScore(rs[a], rs[b]) })
	second = -1
	if len(order) > 1 {
		second = order[1]
	}
	return order[0], second
}

// byScore orders results best first: by mean accuracy, then macro-F1;
// the settings raced out (Dropped) come last.
func byScore(x, y *CVResult) int {
	if x.Dropped != y.Dropped {
		if x.Dropped {
			return 1
		}
		return -1
	}
	if x.Accuracy.Mean != y.Accuracy.Mean {
		return cmpDesc(x.Accuracy.Mean, y.Accuracy.Mean)
	}
	return cmpDesc(x.MacroF1.Mean, y.MacroF1.Mean)
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// choiceData returns t's documents as cross-validation keeps them, from
// merged, which it leaves whole.
func (t *Trainer) choiceData(merged *vocab.Counts) (*cvData, error) {
	// The held-out scores calibrate the winner (chooseFor). The choice
	// cross-validates within the bound given (DefaultMaxTableSize for
	// none), which costs a quarter of the larger vocabulary the winner is
	// then fitted on (ChoiceMaxTableSize).
	d := &cvData{cfg: t.cfg, names: t.names, y: t.y, keep: true}
	d.cfg.MaxTableSize = t.given.MaxTableSize
	labels := make([]string, len(t.y))
	for i, c := range t.y {
		labels[i] = t.names[c]
	}
	d.folds = split.StratifiedKFold(labels, ChoiceFolds, 0)
	return d, d.fromVocab(merged, false)
}

// chooseFor chooses m's settings among cands by cross-validation on
// merged, the vocabulary of the builder b, and sets them in m.Config (and
// Chosen) and t.cfg; or it returns why it cannot, leaving m's plain
// defaults. direct is whether training fits from the rows as they are.
//
// The winner's held-out scores are kept for Finish to calibrate m.
func (t *Trainer) chooseFor(m *Model, merged *vocab.Counts, b *vocab.Builder, cands []Config, direct bool) (string, error) {
	why := "the documents' rows spilled to disk"
	var r *CVResult
	var c *Choice
	var err error
	if direct && !b.Spilled() {
		r, c, why, err = t.choose(merged, cands)
	}
	if err != nil || why != "" {
		// The plain default, as Fast trains it.
		t.cfg.MaxTableSize, m.Config.MaxTableSize = t.given.MaxTableSize, t.given.MaxTableSize
		return why, err
	}
	m.Config = setChosen(m.Config, r.Config)
	t.cfg = setChosen(t.cfg, r.Config)
	m.Chosen = c
	t.winner = r
	t.calibrate = calibrateLater(r) // Finish calibrates m once its weights are checked
	return "", nil
}

// setChosen returns c with the settings that choice varies taken from w.
func setChosen(c, w Config) Config {
	c.Classifier, c.Alpha, c.Reweight, c.ReweightRate = w.Classifier, w.Alpha, w.Reweight, w.ReweightRate
	return c
}
