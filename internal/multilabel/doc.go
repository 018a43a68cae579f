// Package multilabel trains and applies multi-label text models: a
// document gets any number of labels, each decided by its own threshold.
//
// A Model is one binary naive Bayes model per label against the rest, over
// the shared stages of a pipeline.Model (tokenizer, vocabulary, weighting),
// which pipeline.Config configures as for single-label training; Config
// adds the multi-label settings, whose zero value is the default. A
// Trainer tokenizes and counts as a pipeline.Trainer does, then learns
// each label's threshold (and α, unless the pipeline.Config names one)
// by cross-validation. Only the vocabulary vectorizer and the Complement
// and Multinomial classifiers, which give the same binary models, are
// supported.
//
// CrossValidate trains a Model per fold of a corpus held in memory and
// evaluates it on the held-out fold; Model.Inspect describes a model
// (settings, thresholds, each label's top terms) and Model.Explain splits
// a label's score for a text into its terms' contributions.
//
// A Model is written as a model file of its own kind (Model.WriteTo,
// Load), which pipeline.Load refuses with pipeline.ErrKind; reading one
// returns the errors of pipeline's model files.
//
// Errors wrap pipeline's sentinels (ErrConfig, ErrEmptyLabel, ErrFinished,
// ErrNoDocuments, ErrOneClass, ErrFormat and those it covers): test them
// with errors.Is.
package multilabel
