// Package pipeline composes the stages of textnb — tokenize, vectorize,
// weighting and a naive Bayes model — into one trained Model that reads raw
// text, and stores that Model in a single self-checking file.
//
// A Trainer takes labeled documents one at a time, tokenizes them on several
// goroutines and builds the vocabulary in document order, so a run gives the
// same model, bit for bit, whatever the number of cores.
//
// A Model knows its terms (Terms) and the classifier's weights of each class
// (ClassWeights). Predictor.Explain splits a text's score margin between
// its top class and the runner-up into one signed contribution per term
// plus a bias; Model.Inspect and Table.Inspect describe a model (classes,
// training counts, settings, most indicative terms) as JSON-ready Info.
//
// Settings: the zero value of every config (Config, MultiConfig, Semi,
// TFIDFOptions, Selection, TableConfig) is the default, field by field: a
// zero field means the default its comment names, and a trained Model's
// Config records the tokenizer settings resolved. No field has a useful
// zero of its own, so an explicit value is any non-zero one, and what a
// literal zero would say is spelled otherwise: the least smoothing is
// MinAlpha, keeping every term is Vocab.MinDF 1, no Han character n-grams
// is NoHanChars, and options that default on are turned off by a bool
// named for the change (TFIDFOptions.LinearTF). Negative values are
// refused with ErrConfig.
//
// Enumerations (Classifier, Weighting, Vectorizer, SemiMethod,
// SelectMethod, MultiScore, TableKind) read and write their names with
// UnmarshalText and MarshalText, as flag.TextVar and encoding/json use
// them.
//
// The model file is a magic header, a format version, a JSON description of
// every stage's settings, the binary state (vocabulary, IDF weights, counts
// and log-probability tables) and a CRC-32C checksum over all of it. Save
// writes to a temporary file and renames it into place, so a failed write
// never leaves a half-written model behind.
package pipeline
