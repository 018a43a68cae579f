package main

import (
	"flag"
	"fmt"
	"io"
	"slices"

	facade "github.com/textnb/textnb"
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
	cfg := facade.TableConfig{LabelField: fs.Lookup("label-field").Value.String()}
	err := cfg.Kind.UnmarshalText([]byte(model))
	var given []string
	fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) }) // in name order: errors are deterministic
	if err != nil {
		if slices.Contains(given, "bins") {
			return true, fmt.Errorf("%w: --bins applies only to --model categorical", errUsage)
		}
		return false, nil
	}
	for _, name := range given {
		switch {
		case !tableTrainFlags[name]:
			return true, fmt.Errorf("%w: --%s applies only to text models, not --model %v", errUsage, name, cfg.Kind)
		case cfg.Kind == facade.TableGaussian && (name == "bins" || name == "alpha"):
			return true, fmt.Errorf("%w: --%s applies only to --model categorical", errUsage, name)
		case name == "bins" && *tf.bins < 1: // 0 would mean the default
			return true, fmt.Errorf("%w: --bins %d: want N ≥ 1", errUsage, *tf.bins)
		case name == "bins":
			cfg.Bins = *tf.bins
		case name == "alpha": // given: the text models' default is not the table's
			cfg.Alpha = *tf.alpha
		}
	}
	t, err := facade.TrainTable(path, cfg)
	if err == nil {
		err = t.Save(out)
	}
	if err != nil {
		return true, err
	}
	info, _ := t.Inspect(0)
	rows := 0.0
	for _, c := range info.Classes {
		rows += c.Documents
	}
	fmt.Fprintf(stdout, "trained %v on %d rows, %d classes, %d feature columns\nwrote %s\n",
		cfg.Kind, int(rows), len(info.Classes), len(t.Columns()), out)
	return true, nil
}
