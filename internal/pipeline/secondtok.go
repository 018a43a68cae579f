package pipeline

import (
	"time"

	"github.com/textnb/textnb/tokenize"
)

// The choice's second tokenization of short text, which cross-validation
// keeps where it wins (docs/cv.md): for Chinese, HanUnigrams in place of
// DefaultHanChars (single characters carry short reviews: waimai_10k
// 0.8877 → 0.8901 by 5-fold cv, but ChnSentiCorp 0.9133 → 0.9123); for
// other languages, WordUnigrams in place of DefaultWordNGrams (AG News
// 0.8816 → 0.8857, but SMS 0.9853 → 0.9842).
var (
	HanUnigrams  = tokenize.NGramRange{Min: 1, Max: 1}
	WordUnigrams = tokenize.NGramRange{Min: 1, Max: 1}
)

const (
	// shortText is the mean document length, in bytes, up to which a
	// corpus counts as short text (reviews, sentences, headlines: about
	// 170 English words or 330 Han characters).
	shortText = 1000
	// maxKeptText bounds the text a Trainer keeps for the second
	// tokenization.
	maxKeptText = 64 << 20
)

// minSecondDocs is the least corpus the second tokenization is tried on:
// on fewer documents, cross-validation's lead of one tokenization over
// another is a handful of documents (testdata's 240 news: 4), which a
// held-out set reversed. Tests lower it.
var minSecondDocs = 1000

// keptTexts holds a corpus's texts, in the order added, for a second
// tokenization.
type keptTexts struct {
	text  []string
	bytes int
}

// secondTokens returns the tokenizer settings of the choice's second
// tokenization for c in language lang (Auto: not yet known, any), and
// whether it has one: c leaves the n-grams it varies to their defaults.
func (c Config) secondTokens(lang tokenize.Lang) (tokenize.Config, bool) {
	t := c.Tokenize
	t.Lang = lang
	if c.Fast || c.Vectorizer != Vocab || c.Semi.Method != NoSemi || c.Select.Method != NoSelect {
		return t, false
	}
	han := t.HanChars == (tokenize.NGramRange{}) && !c.NoHanChars
	words := t.WordNGrams == (tokenize.NGramRange{})
	switch {
	case lang == tokenize.Auto:
		return t, han || words
	case lang == tokenize.Chinese && han:
		t.HanChars = HanUnigrams
	case lang != tokenize.Chinese && words:
		t.WordNGrams = WordUnigrams
	default:
		return t, false
	}
	return t, true
}

// keep adds text, returning k, or nil once the texts outgrow maxKeptText
// or a document has no label.
func (k *keptTexts) keep(class int, text string) *keptTexts {
	if class < 0 || k.bytes+len(text) > maxKeptText {
		return nil
	}
	k.text = append(k.text, text)
	k.bytes += len(text)
	return k
}

// short reports whether the documents docs of k (nil: all) are short text
// on average; false for a nil k.
func (k *keptTexts) short(docs []int) bool {
	if k == nil || len(k.text) == 0 || len(k.text) < minSecondDocs || docs != nil && len(docs) < minSecondDocs {
		return false
	}
	if docs == nil {
		return k.bytes <= shortText*len(k.text)
	}
	n := 0
	for _, i := range docs {
		n += len(k.text[i])
	}
	return len(docs) > 0 && n <= shortText*len(docs)
}

// secondTrainer returns a Trainer given t's documents, whose choice is
// made with the second tokenization (secondTokens).
func (t *Trainer) secondTrainer() (*Trainer, error) {
	cfg := t.given
	cfg.Tokenize, _ = cfg.secondTokens(t.cfg.Tokenize.Lang)
	alt, err := NewTrainer(cfg)
	if err != nil {
		return nil, err
	}
	for i, text := range t.texts.text {
		if err := alt.Add(t.names[t.y[i]], text); err != nil {
			return nil, err
		}
	}
	return alt, nil
}

// trySecond trains t's documents again with the second tokenization and returns
// that model if its choice's winner scores above m's (secondWins),
// else m, whose Choice then counts the other candidates too. m's choice
// was made (m.Chosen).
func (t *Trainer) trySecond(m *Model, s Summary) (*Model, Summary, error) {
	alt, err := t.secondTrainer()
	if err != nil {
		return nil, Summary{}, err
	}
	t.texts = nil
	am, as, err := alt.Finish()
	if err != nil {
		return nil, Summary{}, err
	}
	if am.Chosen == nil { // the same documents: cannot happen, but then m stands
		return m, s, nil
	}
	mc, ac := m.Chosen, am.Chosen
	n := mc.Candidates + ac.Candidates
	if !secondWins(alt.winner, t.winner) {
		if ac.CVAccuracy > mc.RunnerUpAccuracy {
			mc.RunnerUp, mc.RunnerUpAccuracy = ac.Setting, ac.CVAccuracy
		}
		mc.Candidates = n
		return m, s, nil
	}
	ac.RunnerUp, ac.RunnerUpAccuracy, ac.Candidates = mc.Setting, mc.CVAccuracy, n
	as.Elapsed = time.Since(t.start)
	return am, as, nil
}

// secondWins reports whether the second tokenization's winner a beats
// the first's, b: by mean accuracy, then macro-F1; and, outside Chinese,
// word unigrams also win when b's lead is within noise (withinNoise), as
// the simpler model. Unlike the plain default's α, the default n-grams are
// not kept on such a lead: on AG News word unigrams led in 10-fold cv
// (0.8897 against 0.8863), yet a lead by mean alone kept 1–2-grams in 3 of
// the 10 folds' own choices. Han character unigrams are no simpler words
// than 2–3-grams, and within noise they lost on ChnSentiCorp (docs/cv.md).
func secondWins(a, b *CVResult) bool {
	if byScore(a, b) < 0 {
		return true
	}
	return a.Config.Tokenize.Lang != tokenize.Chinese && withinNoise(b, a)
}
