package pipeline

import (
	"errors"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
)

// Sentinel errors, for use with errors.Is.
var (
	// ErrConfig: a setting is out of range or names nothing known.
	ErrConfig = errors.New("pipeline: bad configuration")
	// ErrNoDocuments: training saw no documents.
	ErrNoDocuments = errors.New("pipeline: no training documents")
	// ErrFinished: a Trainer was used after Finish.
	ErrFinished = errors.New("pipeline: trainer already finished")
	// ErrEmptyLabel: a training document's label is the empty string. It
	// is corpus.ErrEmptyLabel, so that one test catches it whichever stage
	// finds it: the corpus reader or a Trainer.
	ErrEmptyLabel = corpus.ErrEmptyLabel
	// ErrOneClass: training saw a single class; a classifier needs two.
	ErrOneClass = errors.New("pipeline: only one class")
	// ErrFormat: a model file is not one textnb wrote, or is damaged.
	// Every error of a model file that ErrNotModel, ErrDamaged or
	// ErrChecksum describes is also an ErrFormat.
	ErrFormat = modelfile.ErrFormat
	// ErrNotModel: a file does not start as a textnb model file does: it
	// is something else, or not a regular file at all.
	ErrNotModel = modelfile.ErrNotModel
	// ErrDamaged: a file starts as a textnb model file does but does not
	// hold a well-formed model: it was damaged or written by something else.
	ErrDamaged = modelfile.ErrDamaged
	// ErrVersion: a model file has a format version this build cannot read.
	ErrVersion = modelfile.ErrVersion
	// ErrKind: a model file holds another kind of model than asked for.
	ErrKind = modelfile.ErrKind
	// ErrChecksum: a model file's checksum does not match its contents.
	ErrChecksum = modelfile.ErrChecksum
	// ErrOutput: a path to save a model to names something that is not a
	// model file it may replace, such as a directory, a device or a FIFO.
	ErrOutput = modelfile.ErrOutput
	// ErrReweighted: a reweighted model cannot be merged or trained in
	// parts, since its gains depend on the whole corpus.
	ErrReweighted = errors.New("pipeline: reweighted models cannot be merged or trained in parts: reweighting gains depend on the whole corpus")
)

// checkClassNames reports a class name that is empty or repeated.
var checkClassNames = modelfile.CheckClassNames
