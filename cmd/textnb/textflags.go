package main

import (
	"flag"
	"fmt"

	facade "github.com/textnb/textnb"
)

// textFlags are the flags that configure a text pipeline, shared by train
// and cv.
type textFlags struct {
	model                               *string
	set                                 *facade.Config // the flags read into it as they are: --weighting, --vectorizer
	ngrams, charNgrams, stopwords, lang *string
	alpha, maxDF                        *float64
	norm, stem, noStem, fast            *bool
	features, minDF                     *int
	binary                              *bool
}

func newTextFlags(fs *flag.FlagSet) textFlags {
	set := new(facade.Config)
	fs.TextVar(&set.Weighting, "weighting", facade.TFIDF, "feature weighting: tfidf (sublinear, L2), counts, rennie")
	fs.TextVar(&set.Vectorizer, "vectorizer", facade.Vocab, "vocab (learned vocabulary) or hash (murmur3 feature hashing)")
	return textFlags{
		set: set,
		model: fs.String("model", "auto", "classifier: auto (mnb for two classes, cnb for more), cnb (Complement NB), mnb (Multinomial), bnb (Bernoulli); "+
			"for a numeric .csv/.tsv table (every column but --label-field a feature): gaussian, categorical (with --bins, --alpha 1 by default)"),
		alpha: fs.Float64("alpha", 0, fmt.Sprintf("additive smoothing (default: chosen by cross-validation from %v; with --fast %g, or %g for --model auto with two classes)",
			facade.ChoiceAlphas, facade.DefaultAlpha, facade.DefaultBinaryAlpha)),
		fast: fs.Bool("fast", false, fmt.Sprintf("train the fixed defaults (α %g, %g for two classes, no reweighting) without the %d-fold cross-validation that chooses α and reweighting",
			facade.DefaultAlpha, facade.DefaultBinaryAlpha, facade.ChoiceFolds)),
		norm:       fs.Bool("norm", false, "Complement NB weight normalization (Rennie et al. 2003)"),
		features:   fs.Int("features", 0, "hash: number of columns (default 2^20); vocab: keep at most N most frequent terms (default all)"),
		minDF:      fs.Int("min-df", 0, "drop terms in fewer than N training documents (default automatic: 1, raised only to bound model size)"),
		maxDF:      fs.Float64("max-df", 0, "drop terms in more than this fraction of documents (default 1.0: keep)"),
		binary:     fs.Bool("binary", false, "count a term once per document, present or not (Boolean attributes, scikit-learn's binary=True), in training and prediction; vocab vectorizer only"),
		ngrams:     fs.String("ngrams", "", "word n-gram range `MIN,MAX` (default 1,2; a choice of the default may take 1,1 for short text)"),
		charNgrams: fs.String("char-ngrams", "", "Han character n-gram range `MIN,MAX`, or none (default: 2,3 for Chinese models, none otherwise)"),
		stem:       fs.Bool("stem", false, "stem English words (Snowball)"),
		noStem:     fs.Bool("no-stem", false, "do not stem English words (the default)"),
		stopwords:  fs.String("stopwords", "none", "stopword list: none, en, zh, all (en,zh)"),
		lang:       fs.String("lang", "auto", "language: auto (decide from the corpus), en, zh"),
	}
}

// config returns the text pipeline the flags describe; given names the
// flags set on the command line, whose values mean what they say (see
// explicitVocab; --alpha is checked by explicitAlpha first).
func (f textFlags) config(given map[string]bool) (facade.Config, error) {
	cfg := *f.set
	if *f.stem && *f.noStem {
		return cfg, fmt.Errorf("%w: --stem and --no-stem contradict each other", errUsage)
	}
	if err := explicitVocab(given, *f.minDF, *f.maxDF, *f.features); err != nil {
		return cfg, err
	}
	cfg.Alpha, cfg.Norm = *f.alpha, *f.norm
	cfg.Vocab.MinDF, cfg.Vocab.MaxDF = *f.minDF, *f.maxDF
	if given["min-df"] && *f.minDF == 0 {
		cfg.Vocab.MinDF = 1 // keep every term: no automatic raise
	}
	// --model names table models too, so it is read here, not by the flag.
	if err := cfg.Classifier.UnmarshalText([]byte(*f.model)); err != nil {
		return cfg, fmt.Errorf("%w: --model %q: want auto, cnb, mnb or bnb for text, or gaussian or categorical for a numeric table", errUsage, *f.model)
	}
	cfg.Vocab.Binary = *f.binary
	if *f.binary && cfg.Vectorizer == facade.Hash {
		return cfg, fmt.Errorf("%w: --binary applies to the vocab vectorizer, not hash", errUsage)
	}
	if cfg.Vectorizer == facade.Hash {
		cfg.HashFeatures = *f.features
	} else {
		cfg.Vocab.MaxFeatures = *f.features
	}
	if err := tokenFlags(&cfg.Tokenize, *f.ngrams, *f.charNgrams, *f.stopwords, *f.lang, *f.stem); err != nil {
		return cfg, usageErr(err)
	}
	cfg.NoHanChars = *f.charNgrams == "none"
	cfg.Fast = *f.fast
	return cfg, nil
}
