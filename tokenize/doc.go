// Package tokenize turns text into terms: the first stage of textnb.
//
// An Analyzer composes small parts in the manner of bleve's analysis
// package: NFKC normalization, a Tokenizer that splits text by script, and
// TokenFilter chains per script. Han runs go to a Chinese word Segmenter
// and/or become character n-grams; Latin words are lowercased, filtered by
// length and stop words, and Snowball-stemmed; words of other scripts
// (kana, Hangul, Cyrillic, Arabic, …) are lowercased and length-filtered.
// Word n-grams span the whole mixed stream and are joined with a single
// space, as scikit-learn's CountVectorizer joins them (Analyzer.Terms);
// Analyzer.Words hands over the stream itself, for a vectorizer that forms
// the n-grams without building their strings.
//
// Words follow scikit-learn's default token pattern \b\w\w+\b: a word is a
// run of letters, digits, marks and underscores, and the minimum length
// counts runes; unless Config.SplitCompounds is set, a connector between two
// word characters (. ' ’ @ -) joins them into one word.
//
// Each ASCII stretch of a document is lowercased at once (Unicode text a
// stretch at a time too); without stemming its words are checked in place,
// as views of it. With stemming a per-Analyzer cache of filter results lets
// the filter chain (and its allocations) run about once per distinct word,
// and each Worker remembers the terms of the words it has seen in a
// pointer-free table of its own: a later occurrence costs one probe of
// memory no other goroutine writes. The ASCII path skips normalization and
// Unicode decoding.
//
// The Chinese dictionary (package zh) is loaded on the first Han run of more
// than one character only, so English-only text never pays its 1.7 s and
// 135 MB.
package tokenize
