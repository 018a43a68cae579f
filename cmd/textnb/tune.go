package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
)

// tuneFlags are train's flags for choosing the configuration by
// cross-validation.
type tuneFlags struct {
	tune  *bool
	grid  *string
	folds *int
	seed  *uint64
}

// defaultTuneFolds is the number of folds of --tune. Each held-out document
// is scored once per setting whatever the folds, but every fold refits each
// setting: three keep a grid of dozens of settings within a few trainings.
const defaultTuneFolds = 3

func newTuneFlags(fs *flag.FlagSet) tuneFlags {
	return tuneFlags{
		tune: fs.Bool("tune", false, "choose the settings of --grid by cross-validation on the training corpus, print the table, and train with the best"),
		grid: fs.String("grid", "", "settings for --tune, e.g. 'alpha=0.03,0.1,0.3,1;ngrams=1,1|1,2;char-ngrams=none|1,2|1,3;weighting=tfidf|rennie|counts;model=cnb|mnb' "+
			"(default: 'alpha=0.03,0.1,0.3,1;ngrams=1,1|1,2;weighting=tfidf|counts;model=cnb|mnb;reweight=none|3', and for Chinese char-ngrams=none|1,1|1,2|1,3|2,3; "+
			"reweight-top=N|all: reweighted settings are tried for the N best without reweighting of each tokenization, by default 2 with two classes and none with more; "+
			"race=yes|no: settings far below the best on the first fold are not scored on the others, by default yes)"),
		folds: fs.Int("folds", 0, fmt.Sprintf("cross-validation folds of --tune (default %d), --calibrate (default %d) and --multi-label's thresholds (default %d)",
			defaultTuneFolds, facade.DefaultFolds, defaultMultiFolds)),
		seed: fs.Uint64("seed", 0, "--tune, --calibrate: seed of the shuffle that deals documents to folds"),
	}
}

// foldsOr returns the folds given with --folds, or def if it was not given
// (0); explicit values below 2 are refused.
func foldsOr(folds, def int) (int, error) {
	switch {
	case folds == 0:
		return def, nil
	case folds < 2:
		return 0, fmt.Errorf("%w: --folds %d: want at least 2", errUsage, folds)
	}
	return folds, nil
}

// choose runs --tune, if asked, and returns cfg with the best settings,
// their cross-validation, with held-out scores for calibration, and the
// tuning, whose TrainBest may fit them without reading the corpus again;
// seen gets the labels and read the corpus statistics of one of its
// readings.
func (f tuneFlags) choose(cfg facade.Config, path string, fields fieldFlags, stdout io.Writer, seen *labelStats, read *corpus.Stats) (facade.Config, *facade.CVResult, *facade.TuneResult, error) {
	if !*f.tune {
		if *f.grid != "" {
			return cfg, nil, nil, fmt.Errorf("%w: --grid needs --tune", errUsage)
		}
		return cfg, nil, nil, nil
	}
	if cfg.Semi.Method != facade.NoSemi {
		return cfg, nil, nil, fmt.Errorf("%w: --tune does not combine with --semi", errUsage)
	}
	g := facade.DefaultGrid()
	if *f.grid != "" {
		var err error
		if g, err = parseGrid(*f.grid); err != nil {
			return cfg, nil, nil, usageErr(err)
		}
	}
	folds, err := foldsOr(*f.folds, defaultTuneFolds)
	if err != nil {
		return cfg, nil, nil, err
	}
	r, err := facade.Tune(cfg, g, facade.CVOptions{Folds: folds, Seed: *f.seed, KeepScores: true}, walkDocsSeen(path, fields, seen, read))
	if err != nil {
		return cfg, nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	best := r.Results[r.Best]
	if err := r.WriteText(stdout, *f.seed); err != nil {
		return cfg, nil, nil, err
	}
	return best.Config, best, r, nil
}

// walkDocs reads the corpus at path for the functions that read it more
// than once.
func walkDocs(path string, fields fieldFlags) iter.Seq2[facade.Document, error] {
	return walkDocsSeen(path, fields, nil, nil)
}

// walkDocsSeen is walkDocs that also gives seen the labels and read the
// statistics of the first reading that goes to the end, if not nil. The
// readings must come one at a time.
func walkDocsSeen(path string, fields fieldFlags, seen *labelStats, read *corpus.Stats) iter.Seq2[facade.Document, error] {
	done := seen == nil
	return func(yield func(facade.Document, error) bool) {
		errStop := errors.New("enough")
		var labels *labelStats
		if !done {
			labels = newLabelStats()
		}
		st, err := corpus.Walk(path, fields.options(false), func(d corpus.Document) error {
			if labels != nil {
				labels.add(d.Label)
			}
			if !yield(facade.Document{Label: d.Label, Text: d.Text}, nil) {
				return errStop
			}
			return nil
		})
		switch {
		case err != nil && !errors.Is(err, errStop):
			yield(facade.Document{}, err)
		case err == nil && labels != nil:
			*seen, *read, done = *labels, st, true
		}
	}
}
