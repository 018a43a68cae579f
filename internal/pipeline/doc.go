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
// plus a bias; Model.Inspect describes a model (classes, training counts,
// settings, most indicative terms) as JSON-ready Info, which package table
// fills for its models too.
//
// Settings: the zero value of every config (Config, Semi, TFIDFOptions,
// Selection, and multilabel.Config) is the default, field by field: a
// zero field means the default its comment names, and a trained Model's
// Config records the settings resolved: the tokenizer's, the α applied,
// and the classifier that Auto (the zero Classifier) chose for the number
// of classes. No field has a useful
// zero of its own, so an explicit value is any non-zero one, and what a
// literal zero would say is spelled otherwise: the least smoothing is
// MinAlpha, keeping every term is Vocab.MinDF 1, no Han character n-grams
// is NoHanChars, and options that default on are turned off by a bool
// named for the change (TFIDFOptions.LinearTF). Negative values are
// refused with ErrConfig.
//
// Enumerations (Classifier, Weighting, Vectorizer, SemiMethod,
// SelectMethod, multilabel.Score) read and write their names with
// UnmarshalText and MarshalText, as flag.TextVar and encoding/json use
// them.
//
// A model file (Model.WriteTo, Load) is a magic header, a format version,
// a JSON description of every stage's settings, the binary state
// (vocabulary, IDF weights, counts and log-probability tables) and a
// CRC-32C checksum over all of it. The errors of reading one (ErrFormat and
// the errors it covers) are those of every kind of model file.
//
// Two packages build on this one: multilabel trains and applies models
// that give a document any number of labels, over the same stages, and
// shard trains a Model in parts (on several machines or in a distributed
// engine) that equals one trained at once.
package pipeline
