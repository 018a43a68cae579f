package main

import (
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/numtable"
	"github.com/textnb/textnb/internal/table"
)

// tableTrainFlags are the flags train accepts with a table model; any other
// flag given explicitly is a usage error. --quiet (no progress: a table
// trains without) and --fast (the fixed defaults: a table's always are)
// mean the same for every kind.
var tableTrainFlags = map[string]bool{"o": true, "model": true, "label-field": true, "bins": true, "alpha": true,
	"quiet": true, "fast": true}

// tableFlags are the values of train's flags that table models read.
type tableFlags struct {
	bins  *int
	alpha *float64
}

// newTableFlags adds train's table-only flags; alpha is train's own.
func newTableFlags(fs *flag.FlagSet, alpha *float64) tableFlags {
	return tableFlags{bins: fs.Int("bins", 0, "categorical: quantile bins per continuous column (default 5)"), alpha: alpha}
}

// trainTableIf trains a table model when --model names one and reports
// whether it did (or failed trying).
func (tf tableFlags) trainTableIf(fs *flag.FlagSet, model, path, out string, stdout io.Writer) (bool, error) {
	var kind table.Kind
	err := kind.UnmarshalText([]byte(model))
	var given []string
	fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) }) // in name order: errors are deterministic
	if err != nil {
		if slices.Contains(given, "bins") {
			return true, fmt.Errorf("%w: --bins applies only to --model categorical", errUsage)
		}
		return false, nil
	}
	cfg := table.Config{Kind: kind}
	for _, name := range given {
		switch {
		case !tableTrainFlags[name]:
			return true, fmt.Errorf("%w: --%s applies only to text models, not --model %v", errUsage, name, kind)
		case kind == table.Gaussian && (name == "bins" || name == "alpha"):
			return true, fmt.Errorf("%w: --%s applies only to --model categorical", errUsage, name)
		case name == "bins" && *tf.bins < 1: // 0 would mean the default
			return true, fmt.Errorf("%w: --bins %d: want N ≥ 1", errUsage, *tf.bins)
		case name == "bins":
			cfg.Bins = *tf.bins
		case name == "alpha": // given: the text models' default is not the table's
			cfg.Alpha = *tf.alpha
		}
	}
	return true, trainTable(path, out, fs.Lookup("label-field"), cfg, stdout)
}

// trainTable trains on the table at path with labels in the column that
// label names; the model keeps the name if it is not the default.
func trainTable(path, out string, label *flag.Flag, cfg table.Config, stdout io.Writer) error {
	t, err := table.Read(path, label.Value.String())
	if err != nil {
		return err
	}
	m, err := table.Train(t, cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if label.Value.String() != label.DefValue {
		m.LabelField = label.Value.String()
	}
	if err := modelfile.Save(out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained %v on %d rows, %d classes, %d feature columns\nwrote %s\n",
		cfg.Kind, len(t.Labels), len(m.Classes), len(m.Features), out)
	return nil
}

// readRows calls fn on every row of a .csv or .tsv table with a header,
// with the line where it starts, the label of column labelField (none if
// labelField is "") and the model's feature columns in model order. Other
// columns are ignored unparsed, so a table may carry ids or notes.
func readRows(path string, m *table.Table, labelField string, fn func(line int, label string, x []float64) error) error {
	r, err := numtable.OpenTable(path, labelField)
	if err != nil {
		return err
	}
	defer r.Close()
	cols, err := m.Columns(nil, r.Header)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	x := make([]float64, len(cols))
	for r.Next() {
		for j, c := range cols {
			if x[j], err = r.Float(c); err != nil {
				return err
			}
		}
		label, err := r.Label()
		if err != nil {
			return err
		}
		if err := fn(r.Line(), label, x); err != nil {
			return err
		}
	}
	return r.Err()
}
