package pipeline

import (
	"fmt"

	"github.com/textnb/textnb/internal/enum"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// Classifier names a naive Bayes model for text.
type Classifier uint8

// The text classifiers. The zero value, Auto, is the default: it becomes
// Complement NB when the training documents have more than two classes,
// and Multinomial NB with DefaultBinaryAlpha when they have two (see
// Config.Alpha). With two classes, a class's complement is the other class,
// so Complement NB is Multinomial NB without the class prior, which
// imbalanced pairs (spam, one topic against the rest) need. A model always
// records the classifier it was fitted with, never Auto.
const (
	Auto Classifier = iota
	Complement
	Multinomial
	Bernoulli
)

var classifierNames = [...]string{"auto", "cnb", "mnb", "bnb"}

func (c Classifier) String() string { return enum.String(classifierNames[:], int(c)) }

// MarshalText writes the classifier's name: "auto", "cnb", "mnb" or "bnb".
func (c Classifier) MarshalText() ([]byte, error) {
	return enumMarshal("classifier", classifierNames[:], int(c))
}

// UnmarshalText reads a name MarshalText writes, in any letter case.
func (c *Classifier) UnmarshalText(b []byte) error {
	return enumUnmarshal(c, "classifier", classifierNames[:], b)
}

// Weighting names the transform applied to raw counts before the model.
type Weighting uint8

// The weightings. The zero value, TFIDF, is scikit-learn's TfidfTransformer
// with sublinear TF, smooth IDF and L2 rows (TFIDFOptions changes them).
const (
	TFIDF     Weighting = iota
	RawCounts           // the term counts as they are
	Rennie
)

var weightingNames = [...]string{"tfidf", "counts", "rennie"}

func (w Weighting) String() string { return enum.String(weightingNames[:], int(w)) }

// MarshalText writes the weighting's name: "tfidf", "counts" or "rennie".
func (w Weighting) MarshalText() ([]byte, error) {
	return enumMarshal("weighting", weightingNames[:], int(w))
}

// UnmarshalText reads a name MarshalText writes, in any letter case.
func (w *Weighting) UnmarshalText(b []byte) error {
	return enumUnmarshal(w, "weighting", weightingNames[:], b)
}

// Vectorizer names how terms become columns.
type Vectorizer uint8

// The vectorizers. The zero value, Vocab, learns a vocabulary; Hash needs no
// shared state, so models trained apart merge without remapping.
const (
	Vocab Vectorizer = iota
	Hash
)

var vectorizerNames = [...]string{"vocab", "hash"}

func (v Vectorizer) String() string { return enum.String(vectorizerNames[:], int(v)) }

// MarshalText writes the vectorizer's name: "vocab" or "hash".
func (v Vectorizer) MarshalText() ([]byte, error) {
	return enumMarshal("vectorizer", vectorizerNames[:], int(v))
}

// UnmarshalText reads a name MarshalText writes, in any letter case.
func (v *Vectorizer) UnmarshalText(b []byte) error {
	return enumUnmarshal(v, "vectorizer", vectorizerNames[:], b)
}

// Config holds every setting of a pipeline. Its zero value is the default
// configuration: word 1–2-grams, automatic min_df, sublinear TF-IDF and
// Complement NB with alpha 0.3. A zero field means its default (see the
// package documentation).
type Config struct {
	// Tokenize configures the tokenizer; a zero WordNGrams means
	// DefaultWordNGrams here, and a zero HanChars DefaultHanChars for
	// Chinese (see NoHanChars).
	Tokenize   tokenize.Config
	Vectorizer Vectorizer
	// Vocab prunes the vocabulary. MinDF 0 means automatic: 1, raised only
	// as far as needed to keep classes × features within MaxTableSize.
	Vocab vectorize.VocabConfig
	// HashFeatures is the number of hashing columns; 0 means 2^20.
	HashFeatures int
	Weighting    Weighting
	// TFIDFOptions refines Weighting TFIDF. The zero value means sublinear
	// TF (1+ln tf), smooth IDF and L2 normalization.
	TFIDFOptions TFIDFOptions
	Classifier   Classifier
	// Alpha is the additive smoothing; 0 means DefaultAlpha, except that
	// Classifier Auto with two classes takes DefaultBinaryAlpha, and a
	// multilabel.Trainer the α that cross-validation chooses from
	// multilabel.Alphas or PlainAlphas.
	// Values below MinAlpha are raised to it: MinAlpha is the least
	// smoothing there is.
	Alpha float64
	// Norm turns on Complement NB's weight normalization (Rennie et al.).
	Norm bool
	// UniformPrior ignores the class frequencies of the training data.
	UniformPrior bool
	// MaxTableSize bounds classes × features when MinDF is automatic;
	// 0 means ChoiceMaxTableSize where cross-validation chooses the
	// settings (the model records it), DefaultMaxTableSize otherwise, as
	// in earlier builds and with Fast. Model memory grows with the non-zero
	// counts, not with this product; the bound caps the vocabulary, and with
	// it the file size and load time, as classes multiply the terms kept.
	MaxTableSize int
	// Semi is how documents given to Trainer.AddUnlabeled are used.
	Semi Semi
	// NoHanChars keeps Chinese models from adding DefaultHanChars when
	// Tokenize.HanChars is zero.
	NoHanChars bool
	// Select keeps only the best terms by a criterion (vocab vectorizer);
	// Vocab.MaxFeatures is then not applied.
	Select Selection `json:",omitzero"`
	// Calibrate fits a Calibration of the probabilities on k-fold
	// cross-validated scores of this configuration. A Trainer sees each
	// document once and does not: textnb.Train, TrainFrom and the train
	// command read the documents again to cross-validate
	// (CrossValidateDocs with CVOptions.KeepScores, then Model.Calibrate).
	// A calibrated model's Config has it set.
	Calibrate bool `json:",omitzero"`
	// Reweight is the number of passes of discriminative reweighting
	// (package internal/reweight): each pass adds to the complement of a
	// class (Complement NB), or to a document's own class (Multinomial NB),
	// the training documents that the class wrongly takes probability
	// from. 0 means automatic: cross-validation chooses between none and
	// DefaultReweight passes (see Fast); a negative number means none. A
	// Model's Config holds the passes made, -1 for none.
	Reweight int `json:",omitempty"`
	// ReweightRate is the rate η of reweighting, the weight a document
	// gains per unit of probability wrongly taken; 0 means
	// DefaultReweightRate. A Model's Config holds the rate used, 0 without
	// reweighting.
	ReweightRate float64 `json:",omitempty"`
	// Fast trains the fixed defaults of the builds before cross-validated
	// choice: α DefaultAlpha (DefaultBinaryAlpha for Auto with two
	// classes) and no reweighting, where the zero Config has Finish
	// choose α and reweighting by cross-validation (see Choice).
	Fast bool `json:",omitempty"`
}

// DefaultReweight and DefaultReweightRate are the passes and rate of
// reweighting that automatic choice weighs against none, and the rate of
// explicit passes (docs/cv.md).
const (
	DefaultReweight     = 3
	DefaultReweightRate = 20
	maxReweight         = 100
	maxReweightRate     = 1000
)

// reweightRate returns the rate of c's passes.
func (c Config) reweightRate() float64 {
	if c.ReweightRate == 0 {
		return DefaultReweightRate
	}
	return c.ReweightRate
}

// SemiMethod names a semi-supervised training method.
type SemiMethod uint8

// The semi-supervised methods. The zero value, NoSemi, refuses unlabeled
// documents.
const (
	NoSemi SemiMethod = iota
	NSNB              // self-training on the most confident documents (the source paper)
	SNB               // classic self-training above a probability threshold
	EM                // Nigam et al. 2000: unlabeled documents as weighted soft counts
)

var semiNames = [...]string{"none", "nsnb", "snb", "em"}

func (s SemiMethod) String() string { return enum.String(semiNames[:], int(s)) }

// MarshalText writes the method's name: "none", "nsnb", "snb" or "em".
func (s SemiMethod) MarshalText() ([]byte, error) {
	return enumMarshal("semi-supervised method", semiNames[:], int(s))
}

// UnmarshalText reads a name MarshalText writes, in any letter case.
func (s *SemiMethod) UnmarshalText(b []byte) error {
	return enumUnmarshal(s, "semi-supervised method", semiNames[:], b)
}

// Semi configures semi-supervised training. Zero fields mean the defaults:
// K DefaultSemiK, Lambda DefaultSemiLambda, and package nb's Threshold 0.9
// and Rounds 10.
type Semi struct {
	Method    SemiMethod
	K         float64 // NSNB: documents added per round, a count (≥ 1) or a fraction (< 1)
	Threshold float64 // SNB: minimum top probability
	Rounds    int     // NSNB, SNB: maximum rounds; EM: maximum iterations
	Lambda    float64 // EM: weight of the unlabeled documents
	// RawPosteriors makes NSNB rank and pseudo-label by the classifier's
	// own posteriors, as the NSNB paper does, instead of the posteriors of
	// per-class standardized scores (see DefaultSemiK).
	RawPosteriors bool `json:",omitempty"`
}

// TFIDFOptions are the scikit-learn TfidfTransformer options. Each field is
// named so that its zero value is the default.
type TFIDFOptions struct {
	LinearTF bool // raw tf instead of 1+ln(tf)
	NoSmooth bool // ln(n/df)+1 instead of ln((1+n)/(1+df))+1
	Norm     vectorize.Norm
}

// transformer returns the TF-IDF transform these options describe, with
// idf already fitted or nil to be fitted.
func (o TFIDFOptions) transformer(idf []float64) *vectorize.TFIDF {
	return &vectorize.TFIDF{SublinearTF: !o.LinearTF, NoSmoothIDF: o.NoSmooth, Norm: o.Norm, IDF: idf}
}

// Defaults, chosen on 20 Newsgroups and checked on SMS spam and ChnSentiCorp
// (docs/design.md).
const (
	DefaultAlpha        = nb.DefaultAlpha // the same at every layer
	DefaultMaxTableSize = 8 << 20
	// ChoiceMaxTableSize is the bound of the cross-validated default: on
	// 20 Newsgroups, the one corpus measured where the smaller bound
	// pruned (to min_df 2), keeping every term scored 0.9244 → 0.9292 by
	// 5-fold cv, for a model 2.5 times larger (docs/design.md).
	ChoiceMaxTableSize = 32 << 20
	// DefaultBinaryAlpha is the smoothing of Classifier Auto with two
	// classes: with one class against one, less smoothing than
	// DefaultAlpha won by cross-validation on every pair measured
	// (docs/cv.md).
	DefaultBinaryAlpha = 0.1
)

// MinAlpha is the smallest smoothing applied, scikit-learn's: with none, a
// term unseen in a class would make the class impossible.
const MinAlpha = nb.MinAlpha

func (c Config) alpha() float64 {
	if c.Alpha == 0 {
		return DefaultAlpha
	}
	return max(c.Alpha, MinAlpha)
}

// forClasses returns c with Classifier Auto, and the α it implies, made
// concrete for training documents of n classes, and Alpha spelled out.
// Norm, an option of Complement NB, makes Auto Complement NB.
func (c Config) forClasses(n int) Config {
	if c.Classifier == Auto {
		c.Classifier = Complement
		if n == 2 && !c.Norm {
			c.Classifier = Multinomial
			if c.Alpha == 0 {
				c.Alpha = DefaultBinaryAlpha
			}
		}
	}
	c.Alpha, c.Fast = c.alpha(), false // a model records what was fitted, not how it was chosen
	if c.Reweight <= 0 {
		c.Reweight, c.ReweightRate = -1, 0
	} else {
		c.ReweightRate = c.reweightRate()
	}
	return c
}

// withChoiceBound returns c, whose settings cross-validation chooses,
// with a zero MaxTableSize spelled out as ChoiceMaxTableSize.
func (c Config) withChoiceBound() Config {
	if c.MaxTableSize == 0 {
		c.MaxTableSize = choiceCells
	}
	return c
}

// fastCells and choiceCells are DefaultMaxTableSize and
// ChoiceMaxTableSize; tests lower them to corpora of testdata's size.
var fastCells, choiceCells = DefaultMaxTableSize, ChoiceMaxTableSize

func (c Config) maxTableSize() int {
	if c.MaxTableSize <= 0 {
		return fastCells
	}
	return c.MaxTableSize
}

func (c Config) hashFeatures() int {
	if c.HashFeatures <= 0 {
		return vectorize.DefaultHashFeatures
	}
	return c.HashFeatures
}

// enumMarshal names the value i of an enumeration, refusing one out of
// range so that no file records a value no build can read.
func enumMarshal(what string, names []string, i int) ([]byte, error) {
	if i < 0 || i >= len(names) {
		return nil, fmt.Errorf("%w: %s %d", ErrConfig, what, i)
	}
	return []byte(names[i]), nil
}

// enumUnmarshal sets *e to the value that names b, in any letter case; it
// leaves *e alone if no value does.
func enumUnmarshal[E ~uint8](e *E, what string, names []string, b []byte) error {
	i, err := enum.Parse(ErrConfig, what, names, string(b))
	if err == nil {
		*e = E(i)
	}
	return err
}
