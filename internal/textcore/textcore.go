// Package textcore lends the packages built on pipeline (shard,
// multilabel, internal/serve) the parts of its machinery that they share with
// it and its users do not need: resolving a Config, building a Model from
// statistics, the multi-label model's training and file sections.
//
// pipeline registers a Core when it is initialized. Since this package
// cannot import pipeline, Core's type parameters stand for pipeline's
// Config, *Model and *Trainer; a package that imports pipeline gets its
// Core with Get.
package textcore

import (
	"io"
	"time"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// Core is what pipeline lends: C is its Config, M its *Model and T its
// *Trainer.
type Core[C, M, T any] struct {
	// Decode reads a text model from the bytes of a model file.
	Decode func(data []byte) (M, error)

	// LangSample is how much text Lang Auto reads before it decides.
	LangSample int
	// Validate refuses settings out of range, as NewTrainer does.
	Validate func(C) error
	// Resolve returns cfg for language lang with every default spelled
	// out, as a trained model records it, and its tokenizer.
	Resolve func(cfg C, lang tokenize.Lang) (C, *tokenize.Analyzer)
	// HashFeatures and MaxTableSize return the settings or their defaults.
	HashFeatures, MaxTableSize func(C) int
	// Difference names the first setting in which a and b differ, with
	// the two values, or returns "".
	Difference func(a, b C) (setting string, va, vb any)

	// NewModel returns a model without a classifier over the vocabulary
	// v, or the hashing columns h if v is nil, whose weighting is fitted
	// on the document frequencies df of docs documents.
	NewModel func(cfg C, classes []string, v *vocab.Vocabulary, h featurehash.Hashing, docs int, df []int64) (M, error)
	// Row returns a function that gives a text's weighted row as m
	// computes it; the function is not safe for concurrent use, and its
	// slices are valid until its next call.
	Row func(m M) func(text string) ([]int32, []float64)
	// Estimator returns the classifier that m's configuration names,
	// unfitted.
	Estimator func(m M) nb.Estimator
	// Fit returns a model that shares m's stages, fitted on counts.
	Fit func(m M, counts *compact.Counts) (M, error)

	// Queue adds a document to t without a label of its own: multi-label
	// training keeps the labels and has t tokenize and count.
	Queue func(t T, text string)
	// Stop ends t's tokenizing and counting, which multi-label training
	// does once, whatever becomes of it.
	Stop func(t T)
	// MultiRows finishes stopped t's vocabulary for multi-label training, with
	// feature selection over the label sets, and returns a model whose
	// classes are the labels, without a classifier, and the rows weighted.
	MultiRows func(t T, labels []string, sets [][]int32) (M, MultiRows, error)
	// SetClassifier makes lin, fitted with alpha on counts, m's classifier.
	SetClassifier func(m M, alpha float64, counts *compact.Counts, lin *compact.Linear)
	// WriteMulti writes m as a multi-label model file whose JSON header
	// adds the fields of extra (a JSON object) to a text model's.
	WriteMulti func(m M, w io.Writer, extra []byte) (int64, error)
	// DecodeMulti reads the text model of a multi-label model file, and
	// returns it with the file's JSON header and format version.
	DecodeMulti func(data []byte) (m M, header []byte, version uint32, err error)
	// ScoreRow appends one unnormalized log posterior per class for the
	// weighted row idx, val, as a Predictor scores a text's row.
	ScoreRow func(m M, dst []float64, idx []int32, val []float64) []float64
	// WeightsAt appends to dst class c's weights of features, and returns
	// them with its bias: what m.ClassWeights gives at those features,
	// without computing the others.
	WeightsAt func(m M, dst []float64, c int, features []int32) ([]float64, float64)
}

// MultiRows is what MultiRows returns besides the model.
type MultiRows struct {
	X        *vectorize.CSR // the documents' weighted rows
	MinDF    int            // applied
	Selected int            // terms that selection kept; 0 without it
	Empty    int            // documents without terms
	Start    time.Time      // of training
}

var core any

// Register makes c the Core that Get returns; pipeline calls it once.
func Register[C, M, T any](c *Core[C, M, T]) { core = c }

// Get returns pipeline's Core.
func Get[C, M, T any]() *Core[C, M, T] { return core.(*Core[C, M, T]) }
