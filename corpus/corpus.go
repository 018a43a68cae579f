package corpus

import (
	"errors"
	"time"

	"github.com/textnb/textnb/internal/textfile"
	"github.com/textnb/textnb/mail"
)

// Document is one text with its label.
type Document struct {
	// Source is "path" for a document read from its own file,
	// "path:line" for one read from a line of a TSV, CSV or JSONL file,
	// and "path:N" for the Nth message of an mbox file.
	Source string
	// Label is the class name; "" when reading unlabeled.
	Label string
	// Text is the decoded UTF-8 text; it may be empty. A message's text
	// is what mail.Decode renders of it.
	Text string
	// ID is a message's Message-ID, if it has one.
	ID string
	// Mail reports a document read from a message.
	Mail bool
	// Date is a message's date (mail.Message.Date); zero for text and
	// for a message without one.
	Date time.Time
}

// Options configures reading. The zero value reads labeled documents with
// the column names "label" and "text" on GOMAXPROCS workers.
type Options struct {
	// LabelField and TextField name the label and text columns of TSV
	// headers, CSV headers and JSONL objects; "" means "label" and "text".
	LabelField, TextField string
	// Unlabeled reads documents without labels: a folder of files (flat, or
	// class subfolders whose names are then ignored), a line file without a
	// label column, or a single .txt file. Labels found in a line file are
	// ignored and reported in Stats.LabelsIgnored.
	Unlabeled bool
	// Workers is the number of goroutines reading and decoding ahead of the
	// callback; 0 or less means runtime.GOMAXPROCS(0).
	Workers int
	// LabelSep splits a label field into several labels (WalkMulti only):
	// "spam,promo" with LabelSep "," is two labels.
	LabelSep string

	// Input says whether files are read as mail; the zero value,
	// InputAuto, detects messages and mbox files (see Input).
	Input Input
	// Mail configures the decoding of messages; its zero value renders
	// every feature group (see package mail).
	Mail mail.Config

	multi bool // WalkMulti: a JSONL label field may be an array
}

func (o Options) labelField() string {
	if o.LabelField == "" {
		return "label"
	}
	return o.LabelField
}

func (o Options) textField() string {
	if o.TextField == "" {
		return "text"
	}
	return o.TextField
}

// Stats summarizes one read.
type Stats struct {
	// Docs is the number of documents passed to the callback.
	Docs int
	// Empty counts documents whose text is empty or only white space.
	Empty int
	// LabelsIgnored is set when an unlabeled read met labels in a line file
	// (a label column or a label field) and dropped them.
	LabelsIgnored bool
	// Mail counts the documents read from messages.
	Mail int
	// Encodings counts documents by the encoding their text was decoded from.
	Encodings map[Encoding]int
}

// Sentinel errors, for use with errors.Is.
var (
	// ErrEmptyCorpus: the path holds no documents at all.
	ErrEmptyCorpus = textfile.ErrEmptyCorpus
	// ErrEmptyClass: a class folder holds no documents; the error names it.
	ErrEmptyClass = errors.New("corpus: empty class folder")
	// ErrUnsupported: the path's format is not one this package reads.
	ErrUnsupported = textfile.ErrUnsupported
	// ErrEmptyLabel: a line of a labeled line file has an empty label.
	ErrEmptyLabel = textfile.ErrEmptyLabel
	// ErrMissingField: a header or JSON object lacks a required field.
	ErrMissingField = textfile.ErrMissingField
	// ErrFieldCount: a line has the wrong number of fields.
	ErrFieldCount = textfile.ErrFieldCount
)

// ParseError locates a malformed line (or CSV record) in a file: its
// fields are File, Line (the 1-based physical line) and Err, which it
// unwraps to.
type ParseError = textfile.ParseError

// Encoding is the character encoding a text was decoded from (see the
// package documentation); its String method names it.
type Encoding = textfile.Encoding

// The encodings.
const (
	UTF8    = textfile.UTF8    // UTF-8, with any byte order mark stripped
	GB18030 = textfile.GB18030 // GB18030 (a superset of GBK and GB2312)
	Latin1  = textfile.Latin1  // ISO-8859-1: the fallback, which never fails
	UTF16LE = textfile.UTF16LE // UTF-16, little-endian, with a byte order mark
	UTF16BE = textfile.UTF16BE // UTF-16, big-endian, with a byte order mark
)
