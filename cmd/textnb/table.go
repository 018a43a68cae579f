package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/pipeline"
)

// tableTrainFlags are the flags train accepts with a table model; any other
// flag given explicitly is a usage error.
var tableTrainFlags = map[string]bool{"o": true, "model": true, "label-field": true, "bins": true, "alpha": true}

// newTableFlags adds train's table-only flags.
func newTableFlags(fs *flag.FlagSet) {
	fs.Int("bins", 0, "categorical: quantile bins per continuous column (default 5)")
}

// trainTableIf trains a table model when --model names one and reports
// whether it did (or failed trying).
func trainTableIf(fs *flag.FlagSet, model, path, out string, stdout io.Writer) (bool, error) {
	kind, err := pipeline.ParseTableKind(model)
	var given []*flag.Flag
	fs.Visit(func(f *flag.Flag) { given = append(given, f) }) // in name order: errors are deterministic
	if err != nil {
		if slices.ContainsFunc(given, func(f *flag.Flag) bool { return f.Name == "bins" }) {
			return true, fmt.Errorf("%w: --bins applies only to --model categorical", errUsage)
		}
		return false, nil
	}
	cfg := pipeline.TableConfig{Kind: kind}
	for _, f := range given {
		if err := setTableFlag(&cfg, f); err != nil {
			return true, err
		}
	}
	return true, trainTable(path, out, fs.Lookup("label-field").Value.String(), cfg, stdout)
}

// setTableFlag applies one flag given explicitly to a table model's
// configuration, or reports why the flag does not apply.
func setTableFlag(cfg *pipeline.TableConfig, f *flag.Flag) error {
	name, v := f.Name, f.Value.String()
	var err error
	switch {
	case !tableTrainFlags[name]:
		return fmt.Errorf("%w: --%s applies only to text models, not --model %v", errUsage, name, cfg.Kind)
	case cfg.Kind == pipeline.Gaussian && (name == "bins" || name == "alpha"):
		return fmt.Errorf("%w: --%s applies only to --model categorical", errUsage, name)
	case name == "bins":
		cfg.Bins, err = strconv.Atoi(v)
	case name == "alpha":
		cfg.Alpha, err = strconv.ParseFloat(v, 64)
	}
	if err != nil {
		return fmt.Errorf("%w: --%s %s: %v", errUsage, name, v, err)
	}
	return nil
}

func trainTable(path, out, labelField string, cfg pipeline.TableConfig, stdout io.Writer) error {
	t, err := corpus.ReadTable(path, labelField)
	if err != nil {
		return err
	}
	m, err := pipeline.TrainTable(t, cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := pipeline.Save(out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained %v on %d rows, %d classes, %d feature columns\nwrote %s\n",
		cfg.Kind, len(t.Labels), len(m.Classes), len(m.Features), out)
	return nil
}

// predictTable classifies the rows of .csv/.tsv tables with a table model.
func predictTable(modelPath string, pos []string, pf priorFlags, p printer, stderr io.Writer) error {
	m, err := pipeline.LoadTable(modelPath)
	if err != nil {
		return err
	}
	p.classes, p.top = m.Classes, min(p.top, len(m.Classes))
	bw := bufio.NewWriter(p.w)
	defer bw.Flush()
	p.w = bw
	sh, err := pf.shift(m.Classes, m.TrainingPriors(), p.print)
	if err != nil {
		return err
	}
	for _, path := range pos {
		err := readRows(path, m, "", func(source, _ string, x []float64) error {
			proba, best, err := m.Proba(nil, x)
			if err == nil {
				sh.add(pipeline.Prediction{Source: source, Class: best, Proba: proba})
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return sh.finish(bw, stderr, p.json)
}

// evalTable scores a table model on a labeled table.
func evalTable(modelPath, path, labelField string, pf priorFlags, asJSON bool, stdout, stderr io.Writer) error {
	m, err := pipeline.LoadTable(modelPath)
	if err != nil {
		return err
	}
	ev := pipeline.NewEvaluator(m.Classes)
	sh, err := pf.shift(m.Classes, m.TrainingPriors(), func(p pipeline.Prediction) { ev.Add(p.Truth, m.Classes[p.Class]) })
	if err != nil {
		return err
	}
	err = readRows(path, m, labelField, func(source, label string, x []float64) error {
		proba, best, err := m.Proba(nil, x)
		if err == nil {
			sh.add(pipeline.Prediction{Source: source, Truth: label, Class: best, Proba: proba})
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := sh.finish(stdout, stderr, asJSON); err != nil {
		return err
	}
	return writeEvaluation(stdout, ev.Result(), asJSON)
}

// tableComma is the field separator of each table file extension.
var tableComma = map[string]rune{".csv": ',', ".tsv": '\t'}

// readRows calls fn on every row of a .csv or .tsv table with a header,
// with the source "path:line", the label of column labelField (none if
// labelField is "") and the model's feature columns in model order. Other
// columns are ignored unparsed, so a table may carry ids or notes.
func readRows(path string, m *pipeline.Table, labelField string, fn func(source, label string, x []float64) error) error {
	comma, ok := tableComma[strings.ToLower(filepath.Ext(path))]
	if !ok {
		return fmt.Errorf("%s: a table model reads .csv or .tsv files", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReader(f))
	cr.Comma, cr.ReuseRecord = comma, true
	header, err := cr.Read()
	if err != nil {
		return fmt.Errorf("%s: header: %w", path, emptyEOF(err))
	}
	header = slices.Clone(header) // the reader reuses its record
	li := -1
	for i, h := range header {
		header[i] = strings.TrimSpace(decode(h))
		if header[i] == labelField {
			li = i
		}
	}
	if labelField != "" && li < 0 {
		return fmt.Errorf("%s:1: %w: header has no label column %q (see --label-field)", path, corpus.ErrMissingField, labelField)
	}
	cols, err := m.Columns(nil, header)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	x := make([]float64, len(cols))
	for rows := 0; ; rows++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) && rows == 0 {
			return fmt.Errorf("%w: %s has a header but no rows", corpus.ErrEmptyCorpus, path)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		for j, c := range cols {
			v, err := strconv.ParseFloat(strings.TrimSpace(rec[c]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s:%d: column %q: %q is not a finite number", path, line, header[c], rec[c])
			}
			x[j] = v
		}
		var label string
		if li >= 0 {
			if label = decode(rec[li]); label == "" {
				return fmt.Errorf("%s:%d: %w", path, line, corpus.ErrEmptyLabel)
			}
		}
		if err := fn(path+":"+strconv.Itoa(line), label, x); err != nil {
			return err
		}
	}
}

// decode reads a cell as the corpus package does: UTF-8 without a byte
// order mark, or GB18030 or Latin-1.
func decode(s string) string {
	t, _ := corpus.Decode([]byte(s))
	return t
}

func emptyEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return corpus.ErrEmptyCorpus
	}
	return err
}
