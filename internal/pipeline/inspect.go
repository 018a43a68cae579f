package pipeline

import (
	"cmp"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Info describes a trained model for people: what Inspect returns, ready to
// print as JSON.
type Info struct {
	Kind     string      `json:"kind"`     // "text" or "table"
	Settings Settings    `json:"settings"` // with every default resolved
	Features int         `json:"features"` // columns of the classifier
	Terms    int         `json:"terms"`    // vocabulary size; 0 with hashing and for tables
	Columns  []string    `json:"columns,omitempty"`
	Classes  []ClassInfo `json:"classes"`
	// Calibration is how the probabilities are calibrated; nil: they are not.
	Calibration *Calibration `json:"calibration,omitempty"`
	// Chosen is Model.Chosen: what training chose the settings from.
	Chosen *Choice `json:"chosen,omitempty"`
	// Learned is Model.Learned, if the model learned since training.
	Learned *Learned `json:"learned,omitempty"`
}

// Settings are a model's main settings by name. Fields that do not apply
// to the model's kind are left out of the JSON.
type Settings struct {
	Classifier   string  `json:"classifier"` // cnb, mnb, bnb, gaussian or categorical
	Weighting    string  `json:"weighting,omitempty"`
	Vectorizer   string  `json:"vectorizer,omitempty"`
	Alpha        float64 `json:"alpha,omitempty"`
	Norm         bool    `json:"norm,omitempty"`
	UniformPrior bool    `json:"uniform_prior,omitempty"`
	Lang         string  `json:"lang,omitempty"`
	WordNGrams   string  `json:"word_ngrams,omitempty"`
	HanChars     string  `json:"han_chars,omitempty"`
	Stem         bool    `json:"stem,omitempty"`
	Stopwords    string  `json:"stopwords,omitempty"`
	MinDF        int     `json:"min_df,omitempty"`
	MaxDF        float64 `json:"max_df,omitempty"`
	MaxFeatures  int     `json:"max_features,omitempty"`
	Reweight     int     `json:"reweight,omitempty"` // passes made; 0: none
	ReweightRate float64 `json:"reweight_rate,omitempty"`
	Bins         int     `json:"bins,omitempty"`          // Categorical
	VarSmoothing float64 `json:"var_smoothing,omitempty"` // Gaussian
	Threshold    string  `json:"threshold,omitempty"`     // the decision threshold, as LABEL=P
}

// String lists the settings of s that are set, comma-separated, as
// textnb inspect prints them.
func (s Settings) String() string {
	var set []string
	add := func(name string, v any, ok bool) {
		if ok {
			set = append(set, fmt.Sprintf("%s %v", name, v))
		}
	}
	add("alpha", s.Alpha, s.Alpha != 0)
	add("weighting", s.Weighting, s.Weighting != "")
	add("norm", s.Norm, s.Norm)
	add("uniform-prior", s.UniformPrior, s.UniformPrior)
	add("vectorizer", s.Vectorizer, s.Vectorizer != "")
	add("lang", s.Lang, s.Lang != "")
	add("ngrams", s.WordNGrams, s.WordNGrams != "")
	add("char-ngrams", s.HanChars, s.HanChars != "")
	add("stem", s.Stem, s.Stem)
	add("stopwords", s.Stopwords, s.Stopwords != "")
	add("min-df", s.MinDF, s.MinDF != 0)
	add("max-df", s.MaxDF, s.MaxDF != 0)
	add("max-features", s.MaxFeatures, s.MaxFeatures != 0)
	add("reweight", fmt.Sprintf("%d passes at rate %g", s.Reweight, s.ReweightRate), s.Reweight > 0)
	add("bins", s.Bins, s.Bins != 0)
	add("var-smoothing", s.VarSmoothing, s.VarSmoothing != 0)
	return strings.Join(set, ", ")
}

// ClassInfo describes one class of a model.
type ClassInfo struct {
	Name string `json:"name"`
	// Documents is the number of training documents (a weighted sum after
	// EM semi-supervised training).
	Documents float64 `json:"documents"`
	// Prior is the class prior that the model's probabilities assume.
	Prior float64 `json:"prior"`
	// TopWeights are the terms with the largest weights of the classifier
	// for this class (Model.ClassWeights), and TopLogOdds those with the
	// largest smoothed log-odds of the class against the other classes:
	//
	//	log((N_cj+α)/(N_c+Fα)) − log((N_¬cj+α)/(N_¬c+Fα))
	//
	// where N_cj is the term's (weighted) count in the class, N_c the
	// class's total and ¬c the other classes. Both rank only the terms
	// seen in the class's training documents. Text models only.
	TopWeights []TermScore `json:"top_weights,omitempty"`
	TopLogOdds []TermScore `json:"top_log_odds,omitempty"`
	// Columns describe each column within the class. Table models only.
	Columns []ColumnInfo `json:"columns,omitempty"`
}

// TermScore is a term with a score. Term is empty with hashing, whose
// columns do not keep their terms.
type TermScore struct {
	Term    string  `json:"term"`
	Feature int     `json:"feature"`
	Score   float64 `json:"score"`
}

// ColumnInfo describes a table model's column within one class: its mean
// and standard deviation (Gaussian), or its most probable category and that
// probability (Categorical; a binned column's category is its bin, given
// as the range [Low, High)).
type ColumnInfo struct {
	Name     string   `json:"name"`
	Mean     *float64 `json:"mean,omitempty"`
	Std      *float64 `json:"std,omitempty"`
	Category *int     `json:"category,omitempty"`
	Low      *float64 `json:"low,omitempty"`
	High     *float64 `json:"high,omitempty"`
	Prob     *float64 `json:"prob,omitempty"`
}

// Inspect describes m, with the top most indicative terms of each class
// (top ≤ 0: none). It decodes a loaded model's counts for the log-odds,
// whose error it returns.
func (m *Model) Inspect(top int) (info Info, err error) {
	if lerr := m.readLocked(func() { info, err = m.inspect(top) }); lerr != nil {
		return Info{}, lerr
	}
	return info, err
}

// inspect is Inspect; the caller holds m.mu.
func (m *Model) inspect(top int) (Info, error) {
	c := m.Config
	tc := c.Tokenize
	info := Info{
		Kind:     "text",
		Features: m.lin.NumFeatures(),
		Settings: Settings{
			Classifier: c.Classifier.String(), Weighting: c.Weighting.String(), Vectorizer: c.Vectorizer.String(),
			Alpha: c.alpha(), Norm: c.Norm && c.Classifier == Complement, UniformPrior: c.UniformPrior,
			Lang: tc.Lang.String(), WordNGrams: tc.WordNGrams.String(), Stem: tc.Stem,
			MinDF: c.Vocab.MinDF, MaxDF: c.Vocab.MaxDF, MaxFeatures: c.Vocab.MaxFeatures,
		},
	}
	if tc.HanChars.Max > 0 {
		info.Settings.HanChars = tc.HanChars.String()
	}
	if m.reweighted() {
		info.Settings.Reweight, info.Settings.ReweightRate = c.Reweight, c.ReweightRate
	}
	info.Chosen = m.Chosen
	if l := m.Learned; l.Documents+l.Unlearned > 0 || l.Reweighting != "" {
		info.Learned = &l
	}
	if tc.Stopwords != 0 {
		info.Settings.Stopwords = tc.Stopwords.String()
	}
	if c.Classifier == Bernoulli {
		info.Settings.Weighting = "" // Bernoulli sees only presence
	}
	if t := m.Threshold; t != nil {
		info.Settings.Threshold = t.String(m.Classes)
	}
	if m.vocab != nil {
		info.Terms = m.vocab.Len()
	}
	info.Calibration = m.Calibration()
	priors := m.PosteriorPriors()
	for k, name := range m.Classes {
		info.Classes = append(info.Classes, ClassInfo{Name: name, Documents: m.classCount[k], Prior: priors[k]})
	}
	if top <= 0 {
		return info, nil
	}
	counts, err := m.fittedCounts()
	if err != nil {
		return info, err
	}
	t, alpha := m.lin, c.alpha()
	// sums[k] is N_c; total[j] is feature j's count over all classes.
	sums := make([]float64, t.K)
	total := make([]float64, t.Features)
	for j := range t.Features {
		for p := counts.Ptr[j]; p < counts.Ptr[j+1]; p++ {
			sums[counts.Class[p]] += counts.Count[p]
			total[j] += counts.Count[p]
		}
	}
	var grand float64
	for _, s := range sums {
		grand += s
	}
	fa := float64(t.Features) * alpha
	byWeight := make([]topList, t.K)
	byOdds := make([]topList, t.K)
	for k := range t.K {
		byWeight[k].n, byOdds[k].n = top, top
	}
	for j := range t.Features {
		for p := counts.Ptr[j]; p < counts.Ptr[j+1]; p++ {
			k, n := int(counts.Class[p]), counts.Count[p]
			if n <= 0 {
				continue
			}
			odds := math.Log((n+alpha)/(sums[k]+fa)) - math.Log((max(total[j]-n, 0)+alpha)/(max(grand-sums[k], 0)+fa))
			byWeight[k].add(ranked{TermScore{Feature: j, Score: weightOf(t, k, j)}, n})
			byOdds[k].add(ranked{TermScore{Feature: j, Score: odds}, n})
		}
	}
	for k := range info.Classes {
		info.Classes[k].TopWeights = byWeight[k].terms(m)
		info.Classes[k].TopLogOdds = byOdds[k].terms(m)
	}
	return info, nil
}

// ranked is a TermScore with the term's count in the class, which breaks
// ties of the score: with Complement NB every term seen in one class only
// has the same weight.
type ranked struct {
	TermScore
	count float64
}

// before reports whether r ranks before o: the higher score, then the
// larger count, then the lower feature.
func (r ranked) before(o ranked) bool {
	return cmp.Or(cmp.Compare(o.Score, r.Score), cmp.Compare(o.count, r.count), cmp.Compare(r.Feature, o.Feature)) < 0
}

// topList keeps the n first of the terms added, in order.
type topList struct {
	n int
	s []ranked
}

func (l *topList) add(r ranked) {
	if len(l.s) == l.n && !r.before(l.s[len(l.s)-1]) {
		return
	}
	i := sort.Search(len(l.s), func(i int) bool { return r.before(l.s[i]) })
	if len(l.s) < l.n {
		l.s = append(l.s, ranked{})
	}
	copy(l.s[i+1:], l.s[i:len(l.s)-1])
	l.s[i] = r
}

// terms returns the list with the terms' names.
func (l *topList) terms(m *Model) []TermScore {
	out := make([]TermScore, len(l.s))
	for i, r := range l.s {
		out[i] = r.TermScore
		if m.vocab != nil {
			out[i].Term = m.vocab.Term(r.Feature)
		}
	}
	return out
}
