package textnb

import (
	"io"
	"iter"

	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/shard"
)

// The engine behind Model, for programs that need more control or speed
// than Model gives, as the textnb command does: a Trainer fed one document
// at a time, cross-validation and tuning, destination-first scoring with
// reusable buffers (Pipeline.NewPredictor), ordered batches, and models
// trained in parts. The types are the engine's own; their methods are
// documented with them (go doc github.com/textnb/textnb/internal/pipeline),
// and the types that only their methods and fields name are not named
// here.
type (
	// Pipeline is a trained text model as the engine holds it: a Model
	// wraps one. It is safe for concurrent use; each goroutine should use
	// its own Predictor (Pipeline.NewPredictor).
	Pipeline = pipeline.Model
	// PipelinePrediction is the result for one document of a
	// Pipeline.NewBatch: a class index and the probabilities.
	PipelinePrediction = pipeline.Prediction
	// Trainer builds a Pipeline from labeled documents given one at a
	// time (Add, then Finish).
	Trainer = pipeline.Trainer
	// TopExplanation is an Explanation cut to its top terms
	// (Explanation.Cut), with the probabilities of its two classes, as
	// textnb explain prints it.
	TopExplanation = pipeline.TopExplanation
	// DocError is the error of one document of a LearnBatch or
	// UnlearnBatch.
	DocError = pipeline.DocError
	// CVOptions configure cross-validation; the zero value means
	// DefaultFolds folds, dealt with seed 0.
	CVOptions = pipeline.CVOptions
	// CVResult is the outcome of cross-validating one configuration.
	CVResult = pipeline.CVResult
	// Grid lists the values that Tune tries for each setting.
	Grid = pipeline.Grid
	// TuneResult is the outcome of Tune; its TrainBest fits the best
	// setting on the corpus as Tune read it.
	TuneResult = pipeline.TuneResult
	// TrainSummary is what training did: the documents, classes and
	// features, and the choice it made, if any.
	TrainSummary = pipeline.Summary
	// OnlineReport is an EvalOnline, with how its corpus was read, as
	// textnb eval --online prints it.
	OnlineReport = pipeline.OnlineReport
)

// Cross-validation and tuning.
const (
	// DefaultFolds is the number of folds when CVOptions leaves it zero.
	DefaultFolds = pipeline.DefaultFolds
	// ChoiceFolds is the number of folds of the choice of α and
	// reweighting that a zero Config has training make.
	ChoiceFolds = pipeline.ChoiceFolds
	// DefaultReweightTop is the ReweightTop of a zero Grid for two classes.
	DefaultReweightTop = pipeline.DefaultReweightTop
)

// ChoiceAlphas are the α that training chooses from when Config.Alpha is
// 0.
var ChoiceAlphas = pipeline.ChoiceAlphas

// NewTrainer returns a Trainer of cfg.
func NewTrainer(cfg Config) (*Trainer, error) { return pipeline.NewTrainer(cfg) }

// Merge combines models trained with the same configuration on disjoint
// parts of a corpus into the model trained on their union.
func Merge(models ...*Pipeline) (*Pipeline, error) { return pipeline.Merge(models...) }

// CrossValidateDocs cross-validates cfg on docs, which it reads more than
// once, in the same order each time.
func CrossValidateDocs(cfg Config, o CVOptions, docs iter.Seq2[Document, error]) (*CVResult, error) {
	return pipeline.CrossValidateDocs(cfg, o, engineDocs(docs))
}

// Tune cross-validates every setting of g, the rest of base kept, and
// picks the best. It ranges over docs more than once, from more than one
// goroutine, one range at a time.
func Tune(base Config, g Grid, o CVOptions, docs iter.Seq2[Document, error]) (*TuneResult, error) {
	return pipeline.Tune(base, g, o, engineDocs(docs))
}

// engineDocs gives docs to the engine's functions that read a corpus more
// than once; the first error of docs ends the reading and is returned.
func engineDocs(docs iter.Seq2[Document, error]) pipeline.Docs {
	return func(yield func(label, text string) bool) error {
		for d, err := range docs {
			if err != nil {
				return err
			}
			if !yield(d.Label, d.Text) {
				break
			}
		}
		return nil
	}
}

// DefaultGrid is the Grid of textnb tune.
func DefaultGrid() Grid { return pipeline.DefaultGrid() }

// The engine of MultiLabel, named as the text engine's parts with a
// MultiLabel prefix.
type (
	// MultiLabelPipeline is a trained multi-label model as the engine
	// holds it: a MultiLabel wraps one.
	MultiLabelPipeline = multilabel.Model
	// MultiLabelConfig holds the multi-label settings of a model, beside
	// the Config of its tokenizer, vocabulary and weighting; its zero
	// value is the default.
	MultiLabelConfig = multilabel.Config
	// MultiLabelDocument is a text with its labels.
	MultiLabelDocument = multilabel.Document
	// MultiLabelTrainer builds a MultiLabelPipeline from documents given
	// one at a time.
	MultiLabelTrainer = multilabel.Trainer
	// MultiLabelPrediction is the result for one document of a
	// MultiLabelPipeline.NewBatch.
	MultiLabelPrediction = multilabel.Prediction
	// MultiLabelCVResult is what CrossValidateMultiLabel returns.
	MultiLabelCVResult = multilabel.CVResult
)

// The multi-label scores, of MultiLabelConfig.Score: how a multi-label
// model scores each label.
const (
	ComplementScore = multilabel.ComplementScore
	OddsScore       = multilabel.OddsScore
)

// DefaultMultiLabelReweight is the number of reweighting passes that a
// zero MultiLabelConfig.Reweight lets cross-validation choose.
const DefaultMultiLabelReweight = multilabel.DefaultReweight

// NewMultiLabelTrainer returns a MultiLabelTrainer of cfg and mc.
func NewMultiLabelTrainer(cfg Config, mc MultiLabelConfig) (*MultiLabelTrainer, error) {
	return multilabel.NewTrainer(cfg, mc)
}

// CrossValidateMultiLabel trains a model of cfg and mc on each fold's
// complement and evaluates it on the fold. Of o it reads Folds and Seed,
// which deals the documents to folds as AssignFolds does.
func CrossValidateMultiLabel(cfg Config, mc MultiLabelConfig, docs []MultiLabelDocument, o CVOptions) (*MultiLabelCVResult, error) {
	return multilabel.CrossValidate(cfg, mc, docs, multilabel.CVOptions{Folds: o.Folds, Seed: o.Seed})
}

// AssignFolds deals n multi-label documents to k folds by a shuffle
// seeded with seed: fold[i] is document i's fold.
func AssignFolds(n, k int, seed uint64) []int { return multilabel.AssignFolds(n, k, seed) }

// Training in parts, for distributed engines: each part counts its
// DocFreqs, which merge; the merged statistics, prepared, sum each
// part's ClassSums, which merge into the model (textnb stats).
type (
	// DocFreqs are the statistics of the first pass over a part of a
	// corpus.
	DocFreqs = shard.DocFreqs
	// DocFreqCounter counts the DocFreqs of a part of a corpus.
	DocFreqCounter = shard.DocFreqCounter
	// ClassSums are the class sums of a part's weighted rows.
	ClassSums = shard.ClassSums
)

// NewDocFreqCounter returns a DocFreqCounter for cfg.
func NewDocFreqCounter(cfg Config) (*DocFreqCounter, error) { return shard.NewDocFreqCounter(cfg) }

// MergeDocFreqs returns the statistics of a's documents followed by b's.
func MergeDocFreqs(a, b *DocFreqs) (*DocFreqs, error) { return shard.MergeDocFreqs(a, b) }

// ReadDocFreqs reads statistics that DocFreqs.WriteTo wrote.
func ReadDocFreqs(r io.Reader) (*DocFreqs, error) { return shard.ReadDocFreqs(r) }

// ReadClassSums reads sums that ClassSums.WriteTo wrote.
func ReadClassSums(r io.Reader) (*ClassSums, error) { return shard.ReadClassSums(r) }
