package tokenize

import (
	"errors"
	"fmt"
	"strings"

	"github.com/textnb/textnb/internal/enum"
)

// ErrConfig reports an invalid Config value or an unknown name.
var ErrConfig = errors.New("tokenize: invalid config")

// Config selects how an Analyzer turns text into terms. Its zero value is
// the default; Analyzer.Config spells the defaults out. It holds only plain
// values, so it can be stored in a model file as JSON.
type Config struct {
	// MinLen is the minimum length of a word in runes; 0 means 2, as in
	// scikit-learn's token pattern \b\w\w+\b. It does not apply to Han words
	// (see HanMinLen) or to character n-grams.
	MinLen int
	// HanMinLen is the minimum length in runes of a segmented Han word;
	// 0 means 1, because single characters are whole words in Chinese.
	HanMinLen int
	// KeepCase keeps letter case. By default words are lowercased.
	KeepCase bool
	// Stopwords picks the stop word lists to drop; the zero value drops none.
	Stopwords StopwordSet
	// Stem turns on Snowball English stemming of Latin-script words. It is
	// off by default: on 20 Newsgroups it costs 0.9 points of accuracy.
	Stem bool
	// SplitCompounds splits words at the connectors . ' ’ @ - as scikit-learn's
	// \b\w\w+\b does. By default a connector between two word characters
	// joins them into one term ("e-mail", "don't", "jo@example.com", "3.14"):
	// 1.5 points more accuracy on 20 Newsgroups.
	SplitCompounds bool
	// WordNGrams is the range of word n-gram lengths; zero means
	// DefaultWordNGrams.
	WordNGrams NGramRange
	// HanChars is the range of character n-gram lengths taken from each Han
	// run; zero means none.
	HanChars NGramRange
	// NoHanWords turns off Chinese word segmentation. Han runs then yield
	// only their HanChars n-grams or, when HanChars is zero, one word per
	// run as scikit-learn's token pattern does.
	NoHanWords bool
	// Lang records the language the Analyzer was set up for. The Analyzer
	// treats every script the same whatever Lang says; callers resolve Auto
	// (textnb's engines from a sample of the corpus: Chinese when Han
	// characters make up at least a third of its letters) and use Lang to
	// choose other settings.
	Lang Lang
}

// NGramRange is an inclusive range of n-gram lengths.
type NGramRange struct {
	Min, Max int
}

// DefaultWordNGrams is the word n-gram range of a zero Config, here and in
// every package above: bigrams carry negation ("not good") and score
// better (docs/design.md). Words alone are NGramRange{Min: 1, Max: 1}.
var DefaultWordNGrams = NGramRange{Min: 1, Max: 2}

// maxNGram bounds n-gram lengths: longer ones are never useful features
// and their count grows with the product of range and document length.
const maxNGram = 16

// withDefaults returns c with every zero field replaced by its default.
// It is the one place where defaults live.
func (c Config) withDefaults() Config {
	if c.MinLen <= 0 {
		c.MinLen = 2
	}
	if c.HanMinLen <= 0 {
		c.HanMinLen = 1
	}
	if c.WordNGrams == (NGramRange{}) {
		c.WordNGrams = DefaultWordNGrams
	}
	return c
}

// Validate reports a negative or reversed n-gram range, or an unknown
// Stopwords or Lang value. New clamps such values instead of failing.
func (c Config) Validate() error {
	for _, r := range [...]struct {
		name string
		r    NGramRange
	}{{"WordNGrams", c.WordNGrams}, {"HanChars", c.HanChars}} {
		if r.r == (NGramRange{}) {
			continue
		}
		if r.r.Min < 1 || r.r.Max < r.r.Min || r.r.Max > maxNGram {
			return fmt.Errorf("%w: %s %v: want 1 ≤ Min ≤ Max ≤ %d", ErrConfig, r.name, r.r, maxNGram)
		}
	}
	if c.Stopwords&^(EnglishStopwords|ChineseStopwords) != 0 {
		return fmt.Errorf("%w: Stopwords %d", ErrConfig, uint8(c.Stopwords))
	}
	if c.Lang > Chinese {
		return fmt.Errorf("%w: Lang %d", ErrConfig, uint8(c.Lang))
	}
	return nil
}

// clamp makes an n-gram range usable: zero stays zero (none).
func (r NGramRange) clamp() NGramRange {
	if r == (NGramRange{}) {
		return r
	}
	r.Min = min(max(r.Min, 1), maxNGram)
	r.Max = min(max(r.Max, r.Min), maxNGram)
	return r
}

func (r NGramRange) String() string { return fmt.Sprintf("[%d,%d]", r.Min, r.Max) }

// StopwordSet is a set of stop word lists, combined with |.
type StopwordSet uint8

// The stop word lists. The zero value, NoStopwords, drops nothing.
const (
	NoStopwords StopwordSet = 0
	// EnglishStopwords is scikit-learn's ENGLISH_STOP_WORDS (318 words),
	// applied to Latin-script words before stemming.
	EnglishStopwords StopwordSet = 1 << 0
	// ChineseStopwords is package zh's list, applied to Han words and Han
	// character n-grams.
	ChineseStopwords StopwordSet = 1 << 1
)

func (s StopwordSet) String() string {
	switch s {
	case NoStopwords:
		return "none"
	case EnglishStopwords:
		return "en"
	case ChineseStopwords:
		return "zh"
	case EnglishStopwords | ChineseStopwords:
		return "en,zh"
	}
	return fmt.Sprintf("unknown(%d)", uint8(s))
}

// parseStopwordSet reads "none", "en", "zh" or "en,zh" (in either order).
func parseStopwordSet(s string) (StopwordSet, error) {
	var set StopwordSet
	for _, f := range strings.Split(s, ",") {
		switch strings.TrimSpace(f) {
		case "none", "":
		case "en":
			set |= EnglishStopwords
		case "zh":
			set |= ChineseStopwords
		default:
			return 0, fmt.Errorf("%w: stop words %q: want none, en, zh or en,zh", ErrConfig, s)
		}
	}
	return set, nil
}

// MarshalText writes the set as UnmarshalText reads it.
func (s StopwordSet) MarshalText() ([]byte, error) {
	if s&^(EnglishStopwords|ChineseStopwords) != 0 {
		return nil, fmt.Errorf("%w: Stopwords %d", ErrConfig, uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "none", "en", "zh" or "en,zh" (in either order).
func (s *StopwordSet) UnmarshalText(b []byte) error {
	v, err := parseStopwordSet(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Lang is the language of a corpus.
type Lang uint8

// The languages. Auto, the zero value, asks the caller to decide from the
// text (see Config.Lang).
const (
	Auto Lang = iota
	English
	Chinese
)

var langNames = [...]string{"auto", "en", "zh"}

func (l Lang) String() string { return enum.String(langNames[:], int(l)) }

// parseLang reads "auto", "en" or "zh".
func parseLang(s string) (Lang, error) {
	for i, n := range langNames {
		if s == n {
			return Lang(i), nil
		}
	}
	return 0, fmt.Errorf("%w: language %q: want auto, en or zh", ErrConfig, s)
}

// MarshalText writes the language as UnmarshalText reads it.
func (l Lang) MarshalText() ([]byte, error) {
	if int(l) >= len(langNames) {
		return nil, fmt.Errorf("%w: Lang %d", ErrConfig, uint8(l))
	}
	return []byte(langNames[l]), nil
}

// UnmarshalText reads "auto", "en" or "zh".
func (l *Lang) UnmarshalText(b []byte) error {
	v, err := parseLang(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}
