// Package nb implements naive Bayes classifiers: multinomial, complement and
// Bernoulli models for text over sparse document-term matrices
// (vectorize.CSR); prior-shift correction and semi-supervised training.
// The Gaussian and categorical models over dense numeric rows are the
// engine of textnb.Table (textnb.TrainTable), in internal/densenb; they
// share this package's conventions and errors.
//
// # Conventions
//
// The models follow scikit-learn's formulas and are tested against its
// outputs (testdata/golden) to 1e-9:
//
//   - Class priors are NOT smoothed: log P(c) = log n_c − log Σ n_c, as in
//     scikit-learn's fit_prior=True. Spark's NaiveBayes smooths them
//     (log(n_c+λ) − log(N+Kλ)) and skips ComplementNB's weight
//     normalization; this package does neither. A class with no training
//     document therefore gets log prior −Inf. UniformPrior and ClassPrior
//     give scikit-learn's fit_prior=False and class_prior.
//   - Negative feature values are rejected (ErrNegative).
//   - Predictions break ties in favour of the first class.
//   - Add and Merge add to their receiver; on error the receiver is
//     unchanged.
//   - Fit builds a model's scoring table. A model whose fitted fields were
//     set directly (for example decoded from a file) scores correctly
//     without one, only slower: refit it from Counts to build it. Scoring
//     is safe for concurrent use.
//
// # Defaults
//
// The zero value of every setting means its default:
//
//	Multinomial, Complement, Bernoulli               Alpha        DefaultAlpha (0.3; scikit-learn's is 1)
//	Bernoulli                                        Binarize     0: a value > 0 is present
//	SelfTraining                                     K 0.2, Threshold 0.9, Rounds 10
//	EM                                               Lambda 0.1, MaxIter 50, Tol 1e-6
//	PriorEM                                          Tol 1e-6, MaxIter 1000
//	SelfTraining, EM                                 Workers GOMAXPROCS
//
// Any other value is taken as given, except that a positive Alpha below
// MinAlpha (1e-10) is raised to it, as scikit-learn's force_alpha=False
// does. Where a zero would be a setting of its own, ask for it with the
// least positive value: Alpha = MinAlpha is the least smoothing there is
// (what scikit-learn's alpha=0 gives), and a Tol of
// math.SmallestNonzeroFloat64 means no early stop. For the other settings a zero is rejected or useless
// (no rounds, no weight), so it is free to mean the default.
//
// # Training
//
// Counts holds the sufficient statistics of the text models (per-class
// document counts and per-class feature sums). Incremental training
// (scikit-learn's partial_fit) is simply more Counts.Add calls followed by
// Fit; Counts from different shards can be merged. Every Estimator
// (Multinomial, Complement, Bernoulli) is fitted from Counts, which is what
// lets SelfTraining and EM refit any of them cheaply while pseudo-labelled
// documents are added. Create Counts with NewCounts(est, …): Bernoulli
// counts binarized values.
//
// # Prediction
//
// A Model scores one sparse row into per-class joint log-likelihoods;
// Proba and Argmax turn those into posteriors and labels, and
// PredictCSR and LogProbaCSR apply them to a whole matrix on as many
// goroutines as asked for.
//
// # Prior shift and semi-supervised learning
//
// AdjustPriors re-weights posteriors for known new class priors,
// PriorShift does the same one row at a time, and PriorEM estimates
// unknown ones (Saerens, Latinne & Decaestecker 2002). SelfTraining
// implements NSNB and SNB self-training and EM implements Nigam, McCallum,
// Thrun & Mitchell (2000).
package nb
