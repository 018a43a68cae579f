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
// A model file (Model.WriteTo, Load) is a magic header, a format version,
// a JSON description of every stage's settings, the binary state
// (vocabulary, IDF weights, counts and log-probability tables) and a
// CRC-32C checksum over all of it. The errors of reading one (ErrFormat and
// the errors it covers) are those of every kind of model file.
package pipeline
