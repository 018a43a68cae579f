package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/textnb/textnb/internal/textfile"
)

// MultiDocument is a document with any number of labels.
type MultiDocument struct {
	// Source is as in Document; for a folder corpus, the first of the
	// document's copies in reading order.
	Source string
	// Labels are the document's distinct labels in the order first given;
	// empty when the document has none (a negative example for every label).
	Labels []string
	Text   string
}

// ErrNameClash: two files of a multi-label folder corpus share a name
// (their path within their class folders) but not their text.
var ErrNameClash = errors.New("corpus: same name, different text")

// labelUnit separates the labels of a JSONL array inside a Document's
// Label, between the parser and WalkMulti; an empty array is labelUnit
// alone, so that it is not an empty label.
const labelUnit = "\x1f"

// WalkMulti reads a multi-label corpus and calls fn on each document in
// Walk's order:
//
//   - JSONL: the label field is an array of strings or numbers, or one
//     label (split by opt.LabelSep if set). With no LabelField named, the
//     field is "labels" if the first object has one, else "label".
//   - TSV and CSV: the label column is split by opt.LabelSep (without it,
//     each document has one label).
//   - A folder: a document whose file is copied or linked into several class
//     folders has each of their labels. Copies are recognized by their path
//     within the class folder (usually the file name), and must hold the
//     same text; documents come in the order of their first copy.
//
// Labels are trimmed of white space; empty ones and repeats are dropped.
func WalkMulti(path string, opt Options, fn func(MultiDocument) error) (Stats, error) {
	opt.multi = true
	if opt.LabelField == "" && isJSONL(path) {
		opt.LabelField = jsonlLabelField(path, opt)
	}
	info, err := os.Stat(path)
	if err == nil && info.IsDir() && !opt.Unlabeled {
		return walkFolderMulti(path, opt, fn)
	}
	return Walk(path, opt, func(d Document) error {
		return fn(MultiDocument{Source: d.Source, Labels: splitLabels(d.Label, opt.LabelSep), Text: d.Text})
	})
}

func isJSONL(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jsonl" || ext == ".ndjson"
}

// jsonlLabelField returns "labels" if the first object of path has that
// field, else "label".
func jsonlLabelField(path string, opt Options) string {
	if firstField(path, "labels", opt) != "" {
		return "labels"
	}
	return "label"
}

// IsMultiLabel reports whether path is a JSONL file whose first object
// holds an array of labels: in opt.LabelField if named, else in "labels"
// when it has no "label" field.
func IsMultiLabel(path string, opt Options) bool {
	if !isJSONL(path) {
		return false
	}
	if opt.LabelField == "" {
		if firstField(path, "label", opt) != "" {
			return false
		}
		opt.LabelField = "labels"
	}
	return strings.HasPrefix(firstField(path, opt.LabelField, opt), "[")
}

// firstField returns the raw value of field name in the first non-blank
// line of the line file at path, or "" if that line is not a JSON object
// with it.
func firstField(path, name string, opt Options) string {
	f, r, _, err := textfile.Open(path)
	if err != nil {
		return "" // the read reports it
	}
	defer f.Close()
	lr := textfile.NewLines(r)
	for {
		line, _, err := lr.Next()
		if err != nil {
			return ""
		}
		if blank(line) {
			continue
		}
		s, _ := textfile.DecodeString(string(line))
		raw, _, err := textfile.JSONFields(s, name, opt.textField())
		if err != nil {
			return ""
		}
		return raw
	}
}

// splitLabels returns the labels a Document's Label holds.
func splitLabels(label, sep string) []string {
	var parts []string
	switch {
	case strings.Contains(label, labelUnit):
		parts = strings.Split(label, labelUnit)
	case sep != "":
		parts = strings.Split(label, sep)
	case label != "":
		return []string{strings.TrimSpace(label)}
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// jsonlMultiSetup returns the JSONL parser of WalkMulti, which accepts an
// array of labels and joins them with labelUnit.
func jsonlMultiSetup(_ string, opt Options) (lineParser, bool, error) {
	lf, tf := opt.labelField(), opt.textField()
	return func(line string) (r row, err error) {
		line, r.enc = textfile.DecodeString(line)
		rawLabel, rawText, err := textfile.JSONFields(line, lf, tf)
		if err != nil {
			return r, err
		}
		if rawLabel == "" || rawLabel[0] != '[' || opt.Unlabeled {
			r.label, r.text, r.hasLabel, err = jsonLabelText(rawLabel, rawText, lf, tf, opt.Unlabeled)
			return r, err
		}
		var items []json.RawMessage
		_ = json.Unmarshal([]byte(rawLabel), &items) // valid JSON
		labels := make([]string, 0, len(items))
		for _, it := range items {
			var s string
			var n json.Number
			switch {
			case json.Unmarshal(it, &s) == nil:
			case json.Unmarshal(it, &n) == nil:
				s = n.String()
			default:
				return r, fmt.Errorf("field %q: want an array of strings or numbers, found %.20s", lf, it)
			}
			if strings.Contains(s, labelUnit) {
				return r, fmt.Errorf("field %q: label %q holds a control character", lf, s)
			}
			labels = append(labels, s)
		}
		r.label, r.hasLabel = strings.Join(labels, labelUnit)+labelUnit, true
		r.text, err = jsonText(rawText, tf)
		return r, err
	}, false, nil
}

// walkFolderMulti reads a folder corpus whose documents are identified by
// their path within their class folder, gathering each one's labels.
func walkFolderMulti(root string, opt Options, fn func(MultiDocument) error) (Stats, error) {
	type doc struct {
		MultiDocument
		first string // first copy's path, for errors
	}
	var docs []doc
	byName := map[string]int{}
	st, err := Walk(root, opt, func(d Document) error {
		name, err := filepath.Rel(filepath.Join(root, d.Label), d.Source)
		if err != nil {
			name = d.Source
		}
		i, ok := byName[name]
		if !ok {
			byName[name] = len(docs)
			docs = append(docs, doc{MultiDocument{Source: d.Source, Labels: []string{d.Label}, Text: d.Text}, d.Source})
			return nil
		}
		if docs[i].Text != d.Text {
			return fmt.Errorf("%w: %s and %s (copies of one document must hold the same text)", ErrNameClash, docs[i].first, d.Source)
		}
		if !slices.Contains(docs[i].Labels, d.Label) {
			docs[i].Labels = append(docs[i].Labels, d.Label)
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	st.Docs, st.Empty = len(docs), 0
	for _, d := range docs {
		if strings.TrimSpace(d.Text) == "" {
			st.Empty++
		}
		if err := fn(d.MultiDocument); err != nil {
			return st, err
		}
	}
	return st, nil
}
