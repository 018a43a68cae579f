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
	// ID is a message's Message-ID, if it has one, or a line file row's
	// Options.IDField.
	ID string
	// Line is the line of a line file's row (the first of a CSV record);
	// 0 for a document that is a whole file or a message.
	Line int
	// Fields are the fields of a line file's row that Options.Fields
	// asks for.
	Fields []Field
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
	// ignored and reported in Stats.LabelsIgnored. A JSONL text that is
	// null is then empty, as encoding/json leaves a string, rather than an
	// error: every row is a document to classify.
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

	// IDField names a column of TSV and CSV headers, or a field of JSONL
	// objects, whose value is each row's Document.ID: for JSONL, a
	// string's value or another value's JSON text, and the row's Source
	// for null. A row without it is an error; "" reads no id.
	IDField string
	// Fields names further columns (or JSONL fields) to keep in each row's
	// Document.Fields, in this order; a single "*" keeps every one of the
	// row's, in its order. A header without one is an error; a JSONL
	// object without one keeps null. IDField and Fields need a line file
	// with a header (JSONL has none).
	Fields []string
	// Format reads a file of any extension, and WalkReader's stream, as
	// a line file of that format; FormatAuto reads a file by its
	// extension (see FormatOf) and a stream as FormatLines. Folders'
	// files are documents whatever it says.
	Format Format
	// Whole reads the path given to Walk or ReadAll as a
	// folder's file is read, whatever its name: one document or, as Input
	// says, the messages of a mail file. It implies Unlabeled.
	Whole bool

	multi bool // WalkMulti: a JSONL label field may be an array
}

// A Field is a field of a line file's row that Options.Fields asks for.
// Its Value is a TSV or CSV field's text, or a JSONL field's JSON text as
// written (for a string, quoted and escaped).
type Field struct{ Name, Value string }

// keepAll reports whether Options.Fields asks for every field.
func (o Options) keepAll() bool { return len(o.Fields) == 1 && o.Fields[0] == "*" }

// rowFields reports whether rows carry more than their label and text.
func (o Options) rowFields() bool { return o.IDField != "" || len(o.Fields) > 0 }

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

// A MissingFieldError is a header without a column, or a JSON object
// without a field, that a read asks for; it wraps ErrMissingField. Role
// says what for: "label", "text", "id" (Options.IDField), or "" for one
// of Options.Fields; Name is the column's or field's name.
type MissingFieldError = textfile.MissingFieldError

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
