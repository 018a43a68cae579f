// Package tokenize turns text into terms: the first stage of textnb.
//
// An Analyzer applies NFKC normalization, splits text into words and runs
// of Han characters, and turns each into terms as its Config says. Han runs
// go to the Chinese word segmenter of package zh and/or become character
// n-grams; Latin-script words are lowercased, filtered by length and stop
// words, and optionally Snowball-stemmed; words of other scripts (kana,
// Hangul, Cyrillic, Arabic, …) are lowercased and length-filtered. Word
// n-grams span the whole mixed stream and are joined with a single space,
// as scikit-learn's CountVectorizer joins them.
//
// Words follow scikit-learn's default token pattern \b\w\w+\b: a word is a
// run of letters, digits, marks and underscores, and the minimum length
// counts runes; unless Config.SplitCompounds is set, a connector between two
// word characters (. ' ’ @ -) joins them into one word.
//
// Conventions: methods append to a destination slice and return it, as
// strconv's Append functions do. Terms may be views of the text, or share
// one allocation per call, so a caller that keeps a few of them for long
// should clone them (strings.Clone). A Config's zero value is the
// default; Analyzer.Config spells the defaults out. Analyzers are safe for
// concurrent use.
//
// ASCII text takes a fast path that skips normalization and Unicode
// decoding and, without stemming, checks words in place; with stemming the
// terms of words already seen are cached, per Analyzer and per worker of
// its pool. The
// Chinese dictionary is loaded on the first Han run of more than one
// character only, so text without Chinese never pays for it (see package
// zh). The engines' own workers, which remember more words, and the
// cutting of long texts into pieces are in internal/tokencore.
package tokenize
