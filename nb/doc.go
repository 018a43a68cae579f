// Package nb implements naive Bayes classifiers: multinomial, complement and
// Bernoulli models for text over sparse document-term matrices
// (vectorize.CSR); Gaussian and categorical models over dense numeric rows,
// with a Discretizer for continuous columns; prior-shift correction and
// semi-supervised training.
//
// # Conventions
//
// The models follow scikit-learn's formulas and are tested against its
// outputs (testdata/golden) to 1e-9:
//
//   - Class priors are NOT smoothed: log P(c) = log n_c − log Σ n_c, as in
//     scikit-learn's fit_prior=True. Spark's NaiveBayes smooths them
//     (log(n_c+λ) − log(N+Kλ)) and skips ComplementNB's weight
//     normalization; textnb does neither. A class with no training document
//     therefore gets log prior −Inf. UniformPrior and ClassPrior give
//     scikit-learn's fit_prior=False and class_prior.
//   - Alpha 0 means the default 1.0; a positive alpha below 1e-10 is raised
//     to 1e-10 (scikit-learn's force_alpha=False clipping).
//   - Negative feature values are rejected (ErrNegative).
//   - Predictions break ties in favour of the first class.
//
// # Training
//
// Counts holds the sufficient statistics (per-class document counts and
// per-class feature sums). Incremental training (scikit-learn's partial_fit)
// is simply more Counts.Add calls followed by Fit; Counts from different
// shards can be merged. Every Estimator (Multinomial, Complement, Bernoulli)
// is fitted from a Counts, which is what lets SelfTraining and EM refit any
// of them cheaply while pseudo-labelled documents are added.
//
// Bernoulli needs binarized counts: create them with Bernoulli.NewCounts, or
// NewCountsFor(est, …) when the estimator's type is not known.
//
// # Prediction
//
// A Model scores one sparse row into per-class joint log-likelihoods;
// LogProba, Proba and Argmax turn those into posteriors and labels, and
// PredictCSR / LogProbaCSR (and their Parallel variants) apply them to a
// whole matrix.
//
// Fit precomputes a class-interleaved weight table (Linear) so a document is
// scored as one sparse dot product. A model whose exported fields were set
// directly should call Prepare once; it still scores correctly without it,
// only slower.
//
// # Large vocabularies
//
// Dense tables cost classes × features floats each. SparseCounts keeps only
// the non-zero class-feature counts, and FitCompact (CompactEstimator) fits
// a CompactLinear from them: every weight whose count is zero has the closed
// form P[c]·Base[i] + Q[c], so only the non-zero cells are stored. It scores
// exactly like the dense model (to rounding) in O(features + non-zeros)
// memory; this is what textnb's model files hold.
//
// # Prior shift and semi-supervised learning
//
// AdjustPriors re-weights posteriors for known new class priors and PriorEM
// estimates unknown ones (Saerens, Latinne & Decaestecker 2002).
// SelfTraining implements NSNB and SNB self-training and EM implements
// Nigam, McCallum, Thrun & Mitchell (2000).
package nb
