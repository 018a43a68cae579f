package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/textfile"
)

// A row is one document predict reads: a file, a line of standard input or
// a row of a line file.
type row struct {
	source string // the id field's value, or file:line, or the file
	file   string // "-" for standard input
	line   int    // 0 for a whole file
	text   string
	fields map[string]any // the kept fields: strings, or raw JSON of a JSONL row
}

// rowFormat is how predict reads a file or standard input.
type rowFormat string

// The formats --format names; whole is a file read as one document.
const (
	formatLines rowFormat = "lines"
	formatTSV   rowFormat = "tsv"
	formatCSV   rowFormat = "csv"
	formatJSONL rowFormat = "jsonl"
	formatWhole rowFormat = ""
)

func parseFormat(s string) (rowFormat, error) {
	switch f := rowFormat(s); f {
	case formatLines, formatTSV, formatCSV, formatJSONL:
		return f, nil
	}
	return "", fmt.Errorf("--format %q: want tsv, csv, jsonl or lines", s)
}

// formatOf returns the format of a file named path by its extension.
func formatOf(path string) rowFormat {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".tsv":
		return formatTSV
	case ".csv":
		return formatCSV
	case ".jsonl", ".ndjson":
		return formatJSONL
	}
	return formatWhole
}

// rowOptions say which fields of a line file predict reads.
type rowOptions struct {
	format    rowFormat // "": by extension, standard input as lines
	textField string
	idField   string   // "": the source is file:line
	keep      []string // fields to keep; "*" alone keeps them all
	stdin     io.Reader
	corpus    corpus.Options // how folders and whole files are read: Input and Mail
}

func (o rowOptions) keepAll() bool { return len(o.keep) == 1 && o.keep[0] == "*" }

// wantsFields reports whether rows must carry more than their text.
func (o rowOptions) wantsFields() bool { return o.idField != "" || len(o.keep) > 0 }

// readDocs calls add for every document at path: "-" is standard input,
// a folder holds one document per file, a line file one per row, any other
// file is one document.
func readDocs(path string, o rowOptions, add func(row) error) error {
	format := o.format
	if path == "-" {
		if format == formatWhole {
			format = formatLines
		}
		return readLineRows(o.stdin, "-", format, o, add)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		if o.wantsFields() {
			return fmt.Errorf("%w: %s: --id-field and --keep-fields need a line file, not a folder", errUsage, path)
		}
		opt := o.corpus
		opt.Unlabeled = true
		return corpus.Walk(path, opt, func(d corpus.Document) error { return add(docRow(d)) })
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file or folder", path)
	}
	if format == formatWhole {
		format = formatOf(path)
	}
	if format == formatWhole {
		if o.wantsFields() {
			return fmt.Errorf("%w: %s: --id-field and --keep-fields need a .tsv, .csv or .jsonl file (or --format)", errUsage, path)
		}
		_, err := corpus.WalkFile(path, o.corpus, func(d corpus.Document) error { return add(docRow(d)) })
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return readLineRows(f, path, format, o, add)
}

// docRow is the row of a document of a folder or a whole file: a message
// is named by its Message-ID.
func docRow(d corpus.Document) row {
	source := d.Source
	if d.ID != "" {
		source = d.ID
	}
	return row{source: source, file: d.Source, text: d.Text}
}

// rowError places err at line of file.
func rowError(file string, line int, err error) error {
	if file == "-" {
		file = "stdin"
	}
	return &corpus.ParseError{File: file, Line: line, Err: err}
}

// readLineRows reads a stream of the given format, named file: lines of any
// length, UTF-16 with a byte order mark transcoded, as train and eval read.
func readLineRows(r io.Reader, file string, format rowFormat, o rowOptions, add func(row) error) error {
	if format == formatCSV {
		br, _ := textfile.NewReader(r) // readCSVRows decodes each field
		return readCSVRows(br, file, o, add)
	}
	var parse func(line string, num int) (row, error)
	if format == formatLines {
		if o.wantsFields() {
			return fmt.Errorf("%w: --id-field and --keep-fields need --format tsv, csv or jsonl", errUsage)
		}
		prefix := file + ":"
		if file == "-" {
			prefix = "stdin:"
		}
		parse = func(line string, num int) (row, error) {
			return row{source: prefix + strconv.Itoa(num), text: line}, nil
		}
	}
	lr := textfile.NewLineReader(r)
	for {
		line, num, _, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", file, err)
		}
		if format != formatLines && strings.TrimSpace(line) == "" {
			continue // as train and eval skip them
		}
		if parse == nil {
			var header bool
			switch format {
			case formatTSV:
				parse, header, err = tsvRows(line, file, o)
			case formatJSONL:
				parse = func(line string, num int) (row, error) { return jsonRow(line, file, num, o) }
			}
			if err != nil {
				return rowError(file, num, err)
			}
			if header {
				continue
			}
		}
		rw, err := parse(line, num)
		if err != nil {
			return rowError(file, num, err)
		}
		rw.file, rw.line = file, num
		if err := add(rw); err != nil {
			return err
		}
	}
}

// tsvRows looks at the first line of a TSV stream as train and eval do: it
// is a header if one of its fields is the text field (or the id field);
// otherwise lines are label<TAB>text when the first one has a tab,
// or whole texts.
func tsvRows(first, file string, o rowOptions) (func(string, int) (row, error), bool, error) {
	names := strings.Split(first, "\t")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	ti := textfile.Column(names, o.textField)
	header := ti >= 0 || o.idField != "" && textfile.Column(names, o.idField) >= 0
	if !header {
		if o.wantsFields() {
			return nil, false, fmt.Errorf("%w: --id-field and --keep-fields need a header line naming the columns", corpus.ErrMissingField)
		}
		two := strings.Contains(first, "\t")
		return func(line string, num int) (row, error) {
			rw := row{source: file + ":" + strconv.Itoa(num), text: line}
			if two {
				f := strings.Split(line, "\t")
				if len(f) != 2 {
					return rw, fmt.Errorf("%w: expected 2 (label<TAB>text), found %d", corpus.ErrFieldCount, len(f))
				}
				rw.text = f[1]
			}
			return rw, nil
		}, false, nil
	}
	cols, err := columns(names, o)
	if err != nil {
		return nil, true, err
	}
	return func(line string, num int) (row, error) {
		f := strings.Split(line, "\t")
		if len(f) != len(names) {
			return row{}, textfile.FieldCountError(len(names), len(f))
		}
		return cols.row(f, file, num), nil
	}, true, nil
}

// fieldColumns are the indices of the fields predict reads in a header.
type fieldColumns struct {
	text, id int // id: -1 for none
	keep     []int
	names    []string
}

func columns(names []string, o rowOptions) (fieldColumns, error) {
	c := fieldColumns{text: textfile.Column(names, o.textField), id: -1, names: names}
	if c.text < 0 {
		return c, textfile.MissingColumn("text", o.textField)
	}
	if o.idField != "" {
		if c.id = textfile.Column(names, o.idField); c.id < 0 {
			return c, fmt.Errorf("header has no column %q (--id-field)", o.idField)
		}
	}
	if o.keepAll() {
		for i := range names {
			c.keep = append(c.keep, i)
		}
		return c, nil
	}
	for _, k := range o.keep {
		i := textfile.Column(names, k)
		if i < 0 {
			return c, fmt.Errorf("header has no column %q (--keep-fields)", k)
		}
		c.keep = append(c.keep, i)
	}
	return c, nil
}

func (c fieldColumns) row(f []string, file string, num int) row {
	rw := row{source: file + ":" + strconv.Itoa(num), text: f[c.text]}
	if c.id >= 0 {
		rw.source = f[c.id]
	}
	if len(c.keep) > 0 {
		rw.fields = make(map[string]any, len(c.keep))
		for _, i := range c.keep {
			rw.fields[c.names[i]] = f[i]
		}
	}
	return rw
}

// readCSVRows reads a CSV stream with a header.
func readCSVRows(br *bufio.Reader, file string, o rowOptions, add func(row) error) error {
	name := file
	if file == "-" {
		name = "stdin"
	}
	cr, names, err := textfile.ReadCSVHeader(br, ',')
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return textfile.CSVError(err, name, 0, 0)
	}
	cols, err := columns(names, o)
	if err != nil {
		return textfile.HeaderError(cr, name, err)
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return textfile.CSVError(err, name, len(names), len(rec))
		}
		for i, v := range rec {
			rec[i], _ = textfile.DecodeString(v)
		}
		num, _ := cr.FieldPos(0)
		rw := cols.row(rec, file, num)
		rw.file, rw.line = file, num
		if err := add(rw); err != nil {
			return err
		}
	}
}

// jsonRow reads one JSONL object, scanned as train and eval scan theirs: its
// text field must be a string; the id field's value is its string, or its
// JSON text for another value; kept fields keep their JSON values (null when
// absent). A null text or id is as encoding/json leaves a string: empty, or
// the default source.
func jsonRow(line, file string, num int, o rowOptions) (row, error) {
	rw := row{source: file + ":" + strconv.Itoa(num)}
	all := o.keepAll()
	if len(o.keep) > 0 {
		rw.fields = make(map[string]any, len(o.keep))
	}
	if !all {
		for _, k := range o.keep {
			rw.fields[k] = nil // until the object has it
		}
	}
	var rawText, rawID string
	err := textfile.JSONObject(line, func(key, val string) {
		k := textfile.Unquote(key)
		if k == o.textField {
			rawText = val
		}
		if k == o.idField && o.idField != "" {
			rawID = val
		}
		if _, kept := rw.fields[k]; kept || all {
			rw.fields[k] = json.RawMessage(val)
		}
	})
	if err != nil {
		return row{}, err
	}
	switch {
	case rawText == "":
		return rw, fmt.Errorf("%w: no %q", corpus.ErrMissingField, o.textField)
	case rawText[0] == '"':
		rw.text = textfile.Unquote(rawText)
	case rawText != "null":
		return rw, fmt.Errorf("field %q: want a string, found %.20s", o.textField, rawText)
	}
	if o.idField != "" {
		switch {
		case rawID == "":
			return rw, fmt.Errorf("no field %q (--id-field)", o.idField)
		case rawID[0] == '"':
			rw.source = textfile.Unquote(rawID)
		case rawID != "null":
			rw.source = rawID
		}
	}
	return rw, nil
}

// queue carries what predict and eval know of each document from where it
// is added to a Batch to where its prediction comes out, in the same order,
// on another goroutine.
type queue[T any] struct {
	mu    sync.Mutex
	items []T
	head  int
}

func (q *queue[T]) push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
}

func (q *queue[T]) pop() T {
	q.mu.Lock()
	defer q.mu.Unlock()
	v := q.items[q.head]
	var zero T
	q.items[q.head] = zero
	q.head++
	if q.head > 1024 && q.head*2 > len(q.items) {
		q.items = append(q.items[:0], q.items[q.head:]...)
		q.head = 0
	}
	return v
}
