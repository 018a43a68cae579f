package corpus

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/textnb/textnb/internal/enum"
	"github.com/textnb/textnb/internal/textfile"
)

// Format is the format of a line file (see the package documentation).
type Format uint8

// The formats.
const (
	// FormatAuto reads a file by its extension (see FormatOf).
	FormatAuto Format = iota
	FormatTSV
	FormatCSV
	FormatJSONL
	// FormatLines is one unlabeled document per line, blank lines
	// included, named name:line.
	FormatLines
)

var formatNames = [...]string{"auto", "tsv", "csv", "jsonl", "lines"}

func (f Format) String() string { return enum.String(formatNames[:], int(f)) }

// ParseFormat reads "auto", "tsv", "csv", "jsonl" or "lines".
func ParseFormat(s string) (Format, error) {
	i, err := enum.Parse(ErrUnsupported, "format", formatNames[:], s)
	return Format(i), err
}

// FormatOf returns the format of the file at path by its extension: .tsv,
// .csv, .jsonl or .ndjson; FormatAuto for any other file, which is not a
// line file.
func FormatOf(path string) Format {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tsv":
		return FormatTSV
	case ".csv":
		return FormatCSV
	case ".jsonl", ".ndjson":
		return FormatJSONL
	}
	return FormatAuto
}

// WalkReader reads the stream r as a line file of opt.Format (FormatLines
// for FormatAuto), named name in Sources and errors, and calls fn on each
// document as Walk does.
func WalkReader(r io.Reader, name string, opt Options, fn func(Document) error) (Stats, error) {
	format := opt.Format
	if format == FormatAuto {
		format = FormatLines
	}
	br, enc := textfile.NewReader(r)
	produce, err := streamProducer(io.NopCloser(nil), br, enc, name, format, opt)
	if err != nil {
		return Stats{Encodings: make(map[Encoding]int)}, err
	}
	return walk(name, produce, opt, fn)
}
