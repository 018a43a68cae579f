package pipeline

import "errors"

// Sentinel errors, for use with errors.Is.
var (
	// ErrConfig: a setting is out of range or names nothing known.
	ErrConfig = errors.New("pipeline: bad configuration")
	// ErrNoDocuments: training saw no documents.
	ErrNoDocuments = errors.New("pipeline: no training documents")
	// ErrFinished: a Trainer was used after Finish.
	ErrFinished = errors.New("pipeline: trainer already finished")
	// ErrOneClass: training saw a single class; a classifier needs two.
	ErrOneClass = errors.New("pipeline: only one class")
	// ErrFormat: a model file is not one textnb wrote, or is damaged.
	ErrFormat = errors.New("pipeline: not a textnb model file")
	// ErrVersion: a model file has a format version this build cannot read.
	ErrVersion = errors.New("pipeline: unsupported model file version")
	// ErrKind: a model file holds another kind of model than asked for.
	ErrKind = errors.New("pipeline: wrong kind of model")
	// ErrChecksum: a model file's checksum does not match its contents.
	ErrChecksum = errors.New("pipeline: model file checksum mismatch (file damaged)")
)
