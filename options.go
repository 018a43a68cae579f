package textnb

import "github.com/textnb/textnb/internal/pipeline"

// The option types of Config's fields that are structs, but for
// TFIDFOptions, which only its field names. The enumerated
// fields take the values below; each enumeration is text (MarshalText,
// UnmarshalText) as flags and model files name it.
type (
	// Selection keeps the best terms by a criterion (Config.Select).
	Selection = pipeline.Selection
	// Semi configures semi-supervised training (Config.Semi), of the
	// documents given to Trainer.AddUnlabeled.
	Semi = pipeline.Semi
)

// Weightings, of Config.Weighting: the transform of raw counts before
// the model.
const (
	TFIDF     = pipeline.TFIDF
	RawCounts = pipeline.RawCounts
	Rennie    = pipeline.Rennie
)

// Vectorizers, of Config.Vectorizer: how terms become columns.
const (
	Vocab = pipeline.Vocab
	Hash  = pipeline.Hash
)

// Estimators, of Config.Classifier: the naive Bayes model of a text model.
// Auto is Complement NB, or Multinomial NB with two classes.
const (
	Auto        = pipeline.Auto
	Complement  = pipeline.Complement
	Multinomial = pipeline.Multinomial
	Bernoulli   = pipeline.Bernoulli
)

// Selection criteria, of Selection.Method.
const (
	NoSelect   = pipeline.NoSelect
	Chi2       = pipeline.Chi2
	MutualInfo = pipeline.MutualInfo
	DocFreq    = pipeline.DocFreq
)

// Semi-supervised methods, of Semi.Method.
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
