package textnb

import "github.com/textnb/textnb/internal/pipeline"

// The option types of Config's fields, with their values. Each is text
// (MarshalText, UnmarshalText) as flags and model files name it.
type (
	// Weighting is the transform of raw counts before the model
	// (Config.Weighting): TFIDF, RawCounts or Rennie.
	Weighting = pipeline.Weighting
	// Vectorizer is how terms become columns (Config.Vectorizer): Vocab
	// or Hash.
	Vectorizer = pipeline.Vectorizer
	// Estimator names the naive Bayes model of a text model
	// (Config.Classifier): Auto, Complement, Multinomial or Bernoulli. It
	// is not Classifier, which is a trained model of any kind.
	Estimator = pipeline.Classifier
	// TFIDFOptions refines Weighting TFIDF (Config.TFIDFOptions).
	TFIDFOptions = pipeline.TFIDFOptions
	// Selection keeps the best terms by a criterion (Config.Select).
	Selection = pipeline.Selection
	// SelectMethod is Selection's criterion: NoSelect, Chi2, MutualInfo
	// or DocFreq.
	SelectMethod = pipeline.SelectMethod
	// Semi configures semi-supervised training (Config.Semi), of the
	// documents given to Trainer.AddUnlabeled.
	Semi = pipeline.Semi
	// SemiMethod is Semi's method: NoSemi, NSNB, SNB or EM.
	SemiMethod = pipeline.SemiMethod
)

// Weightings.
const (
	TFIDF     = pipeline.TFIDF
	RawCounts = pipeline.RawCounts
	Rennie    = pipeline.Rennie
)

// Vectorizers.
const (
	Vocab = pipeline.Vocab
	Hash  = pipeline.Hash
)

// Estimators. Auto is Complement NB, or Multinomial NB with two classes.
const (
	Auto        = pipeline.Auto
	Complement  = pipeline.Complement
	Multinomial = pipeline.Multinomial
	Bernoulli   = pipeline.Bernoulli
)

// Selection criteria.
const (
	NoSelect   = pipeline.NoSelect
	Chi2       = pipeline.Chi2
	MutualInfo = pipeline.MutualInfo
	DocFreq    = pipeline.DocFreq
)

// Semi-supervised methods.
const (
	NoSemi = pipeline.NoSemi
	NSNB   = pipeline.NSNB
	SNB    = pipeline.SNB
	EM     = pipeline.EM
)

// Defaults of Config's zero fields, and bounds.
const (
	DefaultAlpha        = pipeline.DefaultAlpha
	DefaultBinaryAlpha  = pipeline.DefaultBinaryAlpha
	MinAlpha            = pipeline.MinAlpha
	DefaultMaxTableSize = pipeline.DefaultMaxTableSize
	ChoiceMaxTableSize  = pipeline.ChoiceMaxTableSize // where cross-validation chooses the settings
	DefaultReweight     = pipeline.DefaultReweight
	DefaultReweightRate = pipeline.DefaultReweightRate
	DefaultSemiK        = pipeline.DefaultSemiK
	DefaultSemiLambda   = pipeline.DefaultSemiLambda
)

// The n-grams that the choice's second tokenization of short text tries
// in place of the defaults (docs/cv.md).
var (
	HanUnigrams  = pipeline.HanUnigrams
	WordUnigrams = pipeline.WordUnigrams
)
