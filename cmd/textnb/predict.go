package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
)

func runPredict(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("predict", "predict -m MODEL [--json] [--top K] [--explain] [--id-field F] [--keep-fields A,B] [--format F] [--priors C=P,…|--estimate-priors] PATH…|-\n\n"+
		"A folder holds one document per file; a .tsv, .csv or .jsonl file (or - with --format) one per\n"+
		"row, read as train and eval read them (--text-field names the text); standard input is one\n"+
		"document per line; any other file is one document. Each prints as its --id-field's value, or\n"+
		"FILE:LINE, or FILE.\n\n"+
		"With a table model (train --model gaussian|categorical) every PATH is a .csv or .tsv table whose\n"+
		"header names the model's feature columns (in any order; other columns, such as the label, are\n"+
		"ignored); each row prints as FILE:LINE", stderr)
	modelPath := fs.String("m", "", "model `file` (required)")
	asJSON := fs.Bool("json", false, "print one JSON object per document with every class's probability, its source, file and line")
	top := fs.Int("top", 1, "print the K most probable classes")
	textField := fs.String("text-field", "text", "text column of .csv/.tsv headers and .jsonl objects")
	idField := fs.String("id-field", "", "column or JSON field whose value names each row (default FILE:LINE)")
	keep := fs.String("keep-fields", "", "with --json: copy these comma-separated `fields` of each row into its \"fields\" object (* for all)")
	format := fs.String("format", "", "read - and every file as tsv, csv, jsonl or lines (one document per line; the default for -), whatever their extension")
	explain := fs.Bool("explain", false, "text models: add the --terms terms that moved each decision, with their contributions "+
		"to the top class's score against the runner-up; multi-label models: to each printed label's score against the labels' mean (textnb explain --help)")
	terms := fs.Int("terms", 5, "with --explain: list the N terms with the largest contributions (0: all)")
	pf := newPriorFlags(fs)
	threshold := thresholdFlag(fs)
	mf := newMailFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || len(pos) == 0 {
		return fmt.Errorf("%w: need -m MODEL and at least one PATH or - (see --help)", errUsage)
	}
	if *top < 1 {
		return fmt.Errorf("%w: --top %d: want K ≥ 1", errUsage, *top)
	}
	ro := rowOptions{corpus: corpus.Options{TextField: *textField, IDField: *idField}, stdin: stdin}
	mf.apply(&ro.corpus)
	if *format != "" {
		if ro.corpus.Format, err = parseFormat(*format); err != nil {
			return usageErr(err)
		}
	}
	if *keep != "" {
		if !*asJSON {
			return fmt.Errorf("%w: --keep-fields needs --json", errUsage)
		}
		ro.corpus.Fields = strings.Split(*keep, ",")
	}
	in := inputs{rows: ro}
	c, err := openClassifier(*modelPath, &in)
	if err != nil {
		return err
	}
	if err := c.setThreshold(threshold); err != nil {
		return err
	}
	if _, text := c.fields(); text != "" && !givenFlags(fs)["text-field"] {
		in.rows.corpus.TextField = text // the column the model was trained from
	}
	input, features := c.mail()
	mf.useStored(fs, &in.rows.corpus, input, features) // mail decoded as the training corpus's was
	classes := c.Classes()
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	p := &printer{classes: classes, w: w, json: *asJSON, top: min(*top, len(classes)), byTop: givenFlags(fs)["top"], threshold: threshold}
	if *explain {
		if p.explain = c.explainer(*terms); p.explain == nil {
			return errTextOnly
		}
	}
	if *explain && pf.given() && c.priors() != nil {
		return fmt.Errorf("%w: --explain explains the model's own scores: it excludes --priors and --estimate-priors", errUsage)
	}
	if *terms < 0 {
		return fmt.Errorf("%w: --terms %d: want N ≥ 0", errUsage, *terms)
	}
	sh, err := pf.shift(classes, c.priors(), c.decide, p.print)
	if err != nil {
		return err
	}
	if err := c.feed(pos, sh.add); err != nil {
		return err
	}
	if err := sh.finish(w, stderr, *asJSON); err != nil {
		return err
	}
	return p.err
}

// errTextOnly refuses predict's flags that only text models take.
var errTextOnly = fmt.Errorf("%w: --id-field, --keep-fields, --format, --text-field and --explain apply to text models", errUsage)

type printer struct {
	classes []string
	w       io.Writer
	json    bool
	top     int
	err     error // the first error writing
	// explain explains each prediction (predict --explain) by its top
	// terms: a *facade.TopExplanation, or a multi-label model's explanations
	explain func(scored) any
	// byTop and threshold choose a multi-label model's labels: the top
	// most probable, or those of at least the probability of --threshold
	// P, instead of those above their own thresholds
	byTop     bool
	threshold *thresholdValue
}

type jsonPrediction struct {
	Source  string                 `json:"source"`
	File    string                 `json:"file,omitempty"` // "-" for standard input
	Line    int                    `json:"line,omitempty"` // of a row of a line file
	Label   string                 `json:"label"`
	Proba   map[string]float64     `json:"proba"`
	Top     []jsonClass            `json:"top,omitempty"`
	Fields  map[string]any         `json:"fields,omitempty"`
	Explain *facade.TopExplanation `json:"explain,omitempty"`
}

type jsonClass struct {
	Label string  `json:"label"`
	P     float64 `json:"p"`
}

func (p *printer) print(s scored) {
	switch {
	case p.err != nil:
		return
	case s.labels != nil:
		p.printLabels(s)
		return
	}
	r := s.PipelinePrediction
	order := r.Ranked(p.top)
	var x *facade.TopExplanation
	if p.explain != nil {
		x = p.explain(s).(*facade.TopExplanation)
	}
	if p.json {
		j := jsonPrediction{Source: r.Source, File: s.doc.file, Line: s.doc.line, Label: p.classes[r.Class],
			Proba: map[string]float64{}, Fields: s.doc.fields, Explain: x}
		for c, v := range r.Proba {
			j.Proba[p.classes[c]] = v
		}
		if p.top > 1 {
			for _, c := range order {
				j.Top = append(j.Top, jsonClass{p.classes[c], r.Proba[c]})
			}
		}
		b, err := json.Marshal(j)
		if err != nil {
			p.err = fmt.Errorf("%s: cannot print its probabilities as JSON: %w", plain(r.Source), err)
			return
		}
		_, p.err = fmt.Fprintf(p.w, "%s\n", b)
		return
	}
	fmt.Fprint(p.w, plain(r.Source))
	if order[0] != r.Class { // a decision threshold chose another class: it comes first
		order = slices.Insert(slices.DeleteFunc(order, func(c int) bool { return c == r.Class }), 0, r.Class)[:p.top]
	}
	for _, c := range order {
		fmt.Fprintf(p.w, "\t%s\t%.6g", plain(p.classes[c]), r.Proba[c])
	}
	if x != nil {
		fmt.Fprintf(p.w, "\t%s", x.Inline())
	}
	_, p.err = fmt.Fprintln(p.w)
}

type jsonLabels struct {
	Source       string                    `json:"source"`
	Labels       []jsonClass               `json:"labels"`
	Proba        map[string]float64        `json:"proba"`
	Explanations []facade.LabelExplanation `json:"explanations,omitempty"`
}

// printLabels prints a multi-label prediction: its labels, and their
// explanations, if asked for.
func (p *printer) printLabels(s scored) {
	switch {
	case p.byTop:
		s.labels = s.Ranked(p.top)
	case p.threshold.given:
		s.labels = s.AtLeast(p.threshold.p)
	}
	var es []facade.LabelExplanation
	if p.explain != nil {
		es = p.explain(s).([]facade.LabelExplanation)
	}
	if p.json {
		j := jsonLabels{Source: s.Source, Labels: []jsonClass{}, Proba: map[string]float64{}, Explanations: es}
		for _, l := range s.labels {
			j.Labels = append(j.Labels, jsonClass{p.classes[l], s.Proba[l]})
		}
		for l, v := range s.Proba {
			j.Proba[p.classes[l]] = v
		}
		out, _ := json.Marshal(j)
		fmt.Fprintf(p.w, "%s\n", out)
		return
	}
	fmt.Fprint(p.w, plain(s.Source)) // as a single-label prediction prints
	for _, l := range s.labels {
		fmt.Fprintf(p.w, "\t%s\t%.6g", plain(p.classes[l]), s.Proba[l])
	}
	for i, e := range es { // label: term +w, term −w; label: …
		sep := "\t"
		if i > 0 {
			sep = "; "
		}
		fmt.Fprint(p.w, sep, e.Inline())
	}
	fmt.Fprintln(p.w)
}

// A row is one document predict and learn read: a file, a line of standard
// input or a row of a line file.
type row struct {
	source string // the id field's value, or file:line, or the file
	file   string // "-" for standard input
	line   int    // 0 for a whole file
	text   string
	fields map[string]any // the kept fields: strings, or raw JSON of a JSONL row
}

// rowOptions say how predict and learn read files and standard input.
type rowOptions struct {
	corpus corpus.Options // Format, TextField, IDField, Fields, Input and Mail
	stdin  io.Reader
}

// wantsFields reports whether rows must carry more than their text.
func (o rowOptions) wantsFields() bool { return o.corpus.IDField != "" || len(o.corpus.Fields) > 0 }

// parseFormat reads --format.
func parseFormat(s string) (corpus.Format, error) {
	f, err := corpus.ParseFormat(s)
	if err != nil || f == corpus.FormatAuto {
		return 0, fmt.Errorf("--format %q: want tsv, csv, jsonl or lines", s)
	}
	return f, nil
}

// readDocs calls add for every document at path: "-" is standard input,
// a folder holds one document per file, a line file one per row, any other
// file is one document.
func readDocs(path string, o rowOptions, add func(row) error) error {
	opt := o.corpus
	opt.Unlabeled = true
	format := opt.Format
	if path == "-" {
		format = cmp.Or(format, corpus.FormatLines)
	} else {
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			if o.wantsFields() {
				return fmt.Errorf("%w: %s: --id-field and --keep-fields need a line file, not a folder", errUsage, path)
			}
		} else if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file or folder", path)
		} else if format = cmp.Or(format, corpus.FormatOf(path)); format == corpus.FormatAuto {
			if o.wantsFields() {
				return fmt.Errorf("%w: %s: --id-field and --keep-fields need a .tsv, .csv or .jsonl file (or --format)", errUsage, path)
			}
			opt.Whole = true
		}
		if fi.IsDir() || opt.Whole {
			_, err := corpus.Walk(path, opt, func(d corpus.Document) error { return add(docRow(d)) })
			return err
		}
	}
	if format == corpus.FormatLines && o.wantsFields() {
		return fmt.Errorf("%w: --id-field and --keep-fields need --format tsv, csv or jsonl", errUsage)
	}
	rows := func(d corpus.Document) error {
		r := row{source: d.Source, file: path, line: d.Line, text: d.Text}
		if opt.IDField != "" {
			r.source = d.ID
		}
		if len(d.Fields) > 0 {
			r.fields = make(map[string]any, len(d.Fields))
			for _, f := range d.Fields {
				if format == corpus.FormatJSONL {
					r.fields[f.Name] = json.RawMessage(f.Value) // printed with its JSON type
				} else {
					r.fields[f.Name] = f.Value
				}
			}
		}
		return add(r)
	}
	var err error
	if path == "-" {
		_, err = corpus.WalkReader(o.stdin, "stdin", opt, rows)
	} else {
		opt.Format = format
		_, err = corpus.Walk(path, opt, rows)
	}
	if errors.Is(err, corpus.ErrEmptyCorpus) {
		return nil // a line file without rows holds no documents to predict
	}
	return err
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
