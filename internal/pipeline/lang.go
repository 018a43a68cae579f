package pipeline

import "github.com/textnb/textnb/tokenize"

// DefaultWordNGrams is the word n-gram range when Config leaves it zero,
// as in package tokenize.
var DefaultWordNGrams = tokenize.DefaultWordNGrams

// DefaultHanChars is the Han character n-gram range added to segmented
// words for Chinese: it makes up for segmentation errors and unknown words
// (docs/performance.md).
var DefaultHanChars = tokenize.NGramRange{Min: 2, Max: 3}

// tokenizeConfig resolves the tokenizer defaults for lang, so the model file
// records exactly how it tokenized.
func (c Config) tokenizeConfig(lang tokenize.Lang) tokenize.Config {
	t := c.Tokenize
	t.Lang = lang
	if t.WordNGrams == (tokenize.NGramRange{}) {
		t.WordNGrams = DefaultWordNGrams
	}
	if lang == tokenize.Chinese && t.HanChars == (tokenize.NGramRange{}) && !c.NoHanChars {
		t.HanChars = DefaultHanChars
	}
	return t
}
