package textfile

import (
	"errors"
	"fmt"
)

// Sentinel errors, for use with errors.Is; package corpus exports them.
var (
	// ErrEmptyCorpus: the path holds no documents at all.
	ErrEmptyCorpus = errors.New("corpus: no documents")
	// ErrUnsupported: the path's format is not one textnb reads.
	ErrUnsupported = errors.New("corpus: unsupported input")
	// ErrEmptyLabel: a line of a labeled line file has an empty label.
	ErrEmptyLabel = errors.New("empty label")
	// ErrMissingField: a header or JSON object lacks a required field.
	ErrMissingField = errors.New("missing field")
	// ErrFieldCount: a line has the wrong number of fields.
	ErrFieldCount = errors.New("wrong number of fields")
)

// ParseError locates a malformed line (or CSV record) in a file.
type ParseError struct {
	File string
	Line int // 1-based physical line
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

func (e *ParseError) Unwrap() error { return e.Err }

// FieldCountError wraps ErrFieldCount with what was expected.
func FieldCountError(want, got int) error {
	return fmt.Errorf("%w: expected %d, found %d", ErrFieldCount, want, got)
}
