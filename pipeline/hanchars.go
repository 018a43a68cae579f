package pipeline

import (
	"time"

	"github.com/textnb/textnb/tokenize"
)

// HanUnigrams is the Han character range of the second tokenization that
// the choice tries on short Chinese text, in place of DefaultHanChars:
// single characters carry short reviews (waimai_10k 0.8877 → 0.8901 by
// 5-fold cv) but not longer ones (ChnSentiCorp 0.9133 → 0.9123), so
// cross-validation decides (docs/cv.md).
var HanUnigrams = tokenize.NGramRange{Min: 1, Max: 1}

const (
	// shortHanText is the mean document length, in bytes, up to which a
	// Chinese corpus counts as short text (reviews, sentences, headlines:
	// about 330 Han characters).
	shortHanText = 1000
	// maxKeptText bounds the text a Trainer keeps for the second
	// tokenization.
	maxKeptText = 64 << 20
)

// keptTexts holds a corpus's texts, in the order added, for a second
// tokenization.
type keptTexts struct {
	text  []string
	bytes int
}

// hanCandidate reports whether the choice for c may try HanUnigrams: c
// leaves the Han character n-grams and the choice to their defaults, and
// the corpus may be Chinese.
func (c Config) hanCandidate() bool {
	return !c.Fast && c.Tokenize.HanChars == (tokenize.NGramRange{}) && !c.NoHanChars &&
		(c.Tokenize.Lang == tokenize.Auto || c.Tokenize.Lang == tokenize.Chinese) &&
		c.Vectorizer == Vocab && c.Semi.Method == NoSemi && c.Select.Method == NoSelect
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
	if k == nil || len(k.text) == 0 {
		return false
	}
	if docs == nil {
		return k.bytes <= shortHanText*len(k.text)
	}
	n := 0
	for _, i := range docs {
		n += len(k.text[i])
	}
	return len(docs) > 0 && n <= shortHanText*len(docs)
}

// hanTrainer returns a Trainer given t's documents, whose choice is made
// with HanUnigrams.
func (t *Trainer) hanTrainer() (*Trainer, error) {
	cfg := t.given
	cfg.Tokenize.Lang, cfg.Tokenize.HanChars = tokenize.Chinese, HanUnigrams
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

// tryHanChars trains t's documents again with HanUnigrams and returns
// that model if its choice's winner leads m's beyond noise (withinNoise),
// else m, whose Choice then counts the other candidates too. m's choice
// was made (m.Chosen).
func (t *Trainer) tryHanChars(m *Model, s Summary) (*Model, Summary, error) {
	alt, err := t.hanTrainer()
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
	if withinNoise(alt.chosen, t.chosen) {
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
