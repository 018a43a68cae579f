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

// A MissingFieldError is a header without a column, or a JSON object
// without a field, that a read asks for; it wraps ErrMissingField. Role
// says what for: "label", "text", "id", or "" for a field asked to be kept.
type MissingFieldError struct {
	Role, Name string
	header     bool // a header's column, not a JSON object's field
}

// MissingJSONField reports a JSON object without the field of the given
// role.
func MissingJSONField(role, name string) error { return &MissingFieldError{Role: role, Name: name} }

func (e *MissingFieldError) Error() string {
	switch {
	case !e.header:
		return fmt.Sprintf("%v: no %q", ErrMissingField, e.Name)
	case e.Role == "":
		return fmt.Sprintf("%v: header has no column %q", ErrMissingField, e.Name)
	}
	return fmt.Sprintf("%v: header has no %s column %q", ErrMissingField, e.Role, e.Name)
}

func (e *MissingFieldError) Unwrap() error { return ErrMissingField }
