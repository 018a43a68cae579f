// Package shard trains a pipeline.Model in parts, exactly: on several
// machines, in a distributed engine (see beam/) or over a corpus read
// twice, and with every weighting.
//
// The weightings need corpus-wide document frequencies (IDF, pruning)
// before any row can be weighted, and an L2-normalized row's weights
// depend on every IDF in it, so class sums of weighted rows cannot be
// computed before the document frequencies of the whole corpus are known.
// Training in parts therefore takes two passes over the parts, each of
// which any number of workers may do:
//
//  1. A DocFreqCounter counts each part's DocFreqs; MergeDocFreqs combines
//     them (associative, in any grouping; class order follows part order).
//  2. DocFreqs.Prepare fixes the vocabulary, its pruning and the weighting
//     from the merged DocFreqs; a Summer per part weights its rows with
//     them and sums them per class; MergeClassSums combines those
//     ClassSums; Prepared.Build makes the model.
//
// The model equals one trained on the parts in order, except that its
// vocabulary ids follow term order and that class sums are added in
// another order (a relative difference of about 1e-15 in the weights).
// Every pipeline.Config that a pipeline.Trainer accepts without unlabeled
// documents trains in parts; Lang Auto must decide the same language in
// every part. DocFreqs and ClassSums are written and read as files
// (WriteTo, ReadDocFreqs, ReadClassSums) to pass them between workers.
//
// A Featurizer gives the terms of a document exactly as a Trainer with the
// same Config counts them, for engines that count terms themselves.
package shard
