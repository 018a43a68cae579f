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
	// ErrEmptyLabel: a training document's label is the empty string.
	ErrEmptyLabel = errors.New("pipeline: empty label")
	// ErrOneClass: training saw a single class; a classifier needs two.
	ErrOneClass = errors.New("pipeline: only one class")
	// ErrFormat: a model file is not one textnb wrote, or is damaged.
	// Every error of a model file that ErrNotModel, ErrDamaged or
	// ErrChecksum describes is also an ErrFormat.
	ErrFormat = errors.New("pipeline: bad model file")
	// ErrNotModel: a file does not start as a textnb model file does: it
	// is something else, or not a regular file at all.
	ErrNotModel error = &formatError{"pipeline: not a textnb model file", ErrFormat}
	// ErrDamaged: a file starts as a textnb model file does but does not
	// hold a well-formed model: it was damaged or written by something else.
	ErrDamaged error = &formatError{"pipeline: damaged model file", ErrFormat}
	// ErrVersion: a model file has a format version this build cannot read.
	ErrVersion = errors.New("pipeline: unsupported model file version")
	// ErrKind: a model file holds another kind of model than asked for.
	ErrKind = errors.New("pipeline: wrong kind of model")
	// ErrChecksum: a model file's checksum does not match its contents.
	ErrChecksum error = &formatError{"pipeline: model file checksum mismatch (file damaged)", ErrDamaged}
)

// formatError is a sentinel that is also its parent, for errors.Is.
type formatError struct {
	msg    string
	parent error
}

func (e *formatError) Error() string { return e.msg }
func (e *formatError) Unwrap() error { return e.parent }
