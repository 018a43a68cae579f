package textnb

import (
	"errors"
	"fmt"
	"iter"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/table"
)

// Document is a labeled text.
type Document struct {
	Label, Text string
}

// Config holds every setting of a text model; its zero value is the
// default. The values of its option fields are below (Weightings,
// Vectorizers, Estimators, …), with the struct types Selection and Semi.
type Config = pipeline.Config

// TableConfig holds the settings of TrainTable; its zero value is
// Gaussian naive Bayes with scikit-learn's defaults, over a table whose
// label column is named "label".
type TableConfig struct {
	// Kind is TableGaussian (the zero value: every column normal within a
	// class) or TableCategorical (category ids, or quantile bins of
	// continuous columns).
	Kind table.Kind
	// LabelField names the label column; "" means "label".
	LabelField string
	// Bins is the number of quantile bins per continuous column of a
	// Categorical model; 0 means 5.
	Bins int
	// Alpha is Categorical's additive smoothing; 0 means 1.
	Alpha float64
	// VarSmoothing is Gaussian's variance floor; 0 means 1e-9, as in
	// scikit-learn.
	VarSmoothing float64
}

// The kinds of table model, for TableConfig.Kind.
const (
	TableGaussian    = table.Gaussian
	TableCategorical = table.Categorical
)

// Errors, for errors.Is. The errors returned wrap them with details such
// as the document or the file.
var (
	// ErrEmptyLabel: a training document has no label.
	ErrEmptyLabel = pipeline.ErrEmptyLabel
	// ErrNoDocuments: training saw no documents.
	ErrNoDocuments = pipeline.ErrNoDocuments
	// ErrOneClass: every training document has the same label.
	ErrOneClass = pipeline.ErrOneClass
	// ErrConfig: a setting is out of range.
	ErrConfig = pipeline.ErrConfig
	// ErrFormat: a file is not a textnb model, or is damaged.
	ErrFormat = pipeline.ErrFormat
	// ErrNotModel, ErrDamaged, ErrChecksum, ErrVersion: the ways a file
	// is not a usable model file, each an ErrFormat (docs/model-files.md).
	ErrNotModel = pipeline.ErrNotModel
	ErrDamaged  = pipeline.ErrDamaged
	ErrChecksum = pipeline.ErrChecksum
	ErrVersion  = pipeline.ErrVersion
	// ErrKind: a model file holds a table model where a text model was
	// asked for, or the other way round; or a Classifier was given a row
	// where it classifies texts, or a text where it classifies rows.
	ErrKind = pipeline.ErrKind
	// ErrThreshold: a decision threshold names no class of the model, is
	// not a probability, or is given to a model of more than two classes.
	ErrThreshold = pipeline.ErrThreshold
	// ErrColumns: a table lacks a column the table model was trained on.
	ErrColumns = table.ErrColumns
	// ErrOverflow: a row is so far from a table model's training data
	// (|x| near 1e154 for Gaussian NB) that every class scores −Inf.
	ErrOverflow = table.ErrOverflow
	// ErrNewClass: Learn was given a label that is not a class of a
	// calibrated model, or of one with a threshold.
	ErrNewClass = pipeline.ErrNewClass
	// ErrNotLearned: Unlearn was given a document the model does not
	// hold.
	ErrNotLearned = pipeline.ErrNotLearned
	// ErrReweighted: a reweighted model cannot be merged or trained in
	// parts.
	ErrReweighted = pipeline.ErrReweighted
	// ErrNotKept: TuneResult.TrainBest cannot fit the best setting from
	// what Tune kept of the corpus, which must then be read again.
	ErrNotKept = pipeline.ErrNotKept
	// ErrNotLearnable: a Classifier of a kind that does not learn (only
	// text models learn and unlearn documents).
	ErrNotLearnable = errors.New("only text models learn")
	// ErrNotExplainable: a table model has no terms to explain a
	// prediction by.
	ErrNotExplainable = errors.New("a table model has no terms to explain a prediction by")
)

// Train trains a text model on docs with cfg.
func Train(docs []Document, cfg Config) (*Model, error) {
	return TrainFrom(func(yield func(Document, error) bool) {
		for _, d := range docs {
			if !yield(d, nil) {
				return
			}
		}
	}, cfg)
}

// TrainFrom trains a text model on a sequence of documents, such as
// ReadCorpus returns, without holding them in memory. It stops at the
// first error of the sequence and returns it. With cfg.Calibrate it goes
// through the sequence a second time, for a k-fold cross-validation
// (DefaultFolds) that calibrates the probabilities.
func TrainFrom(docs iter.Seq2[Document, error], cfg Config) (*Model, error) {
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		return nil, err
	}
	n := 0
	for d, err := range docs {
		n++
		if err == nil {
			if err = tr.Add(d.Label, d.Text); err != nil {
				err = fmt.Errorf("document %d: %w", n, err)
			}
		}
		if err != nil {
			tr.Abort()
			return nil, err
		}
	}
	m, _, err := tr.Finish()
	if err != nil {
		return nil, err
	}
	if cfg.Calibrate {
		r, err := pipeline.CrossValidateDocs(cfg, pipeline.CVOptions{KeepScores: true}, engineDocs(docs))
		if err == nil {
			err = m.Calibrate(r)
		}
		if err != nil {
			return nil, fmt.Errorf("calibration: %w", err)
		}
	}
	return newModel(m), nil
}

// ReadCorpus returns the documents of a corpus on disk: a folder with one
// subfolder per label, or a .tsv, .csv or .jsonl file with "label" and
// "text" columns. Package corpus reads other column names and reports
// statistics. A read error ends the sequence.
func ReadCorpus(path string) iter.Seq2[Document, error] {
	return func(yield func(Document, error) bool) {
		stop := errors.New("stop")
		_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
			if !yield(Document{Label: d.Label, Text: d.Text}, nil) {
				return stop
			}
			return nil
		})
		if err != nil && !errors.Is(err, stop) {
			yield(Document{}, err)
		}
	}
}
