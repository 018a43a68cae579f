package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	facade "github.com/textnb/textnb"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/tokenize"
)

func runTrain(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("train", "train CORPUS -o MODEL [flags]", stderr)
	out := fs.String("o", "", "write the model to this `file` (required): created or replaced, keeping its mode; a symbolic link's target is replaced")
	text := newTextFlags(fs)
	allowMany := fs.Bool("allow-many-classes", false, "train even when the labels look like text or nearly every document has a class of its own")
	fields := corpusFlags(fs)
	semi := newSemiFlags(fs)
	tune := newTuneFlags(fs)
	table := newTableFlags(fs, text.alpha)
	quiet := quietFlag(fs)
	ml := newMultiFlags(fs, tune.folds)
	spill := newSpillFlags(fs)
	calibrate := fs.Bool("calibrate", false, fmt.Sprintf("fit a temperature to the probabilities on the held-out scores of a k-fold cross-validation "+
		"of these settings (--folds, default %d; --seed), so that they mean what they say; predictions do not change. "+
		"--tune calibrates from its own cross-validation", facade.DefaultFolds))
	statsOnly := fs.Bool("stats-only", false, "write this part's document frequencies, not a model (training in parts: see textnb stats)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	given := givenFlags(fs)
	if len(pos) != 1 || *out == "" {
		return fmt.Errorf("%w: need one CORPUS and -o MODEL (see --help)", errUsage)
	}
	if err := checkOutput(*out, pos[0], *semi.unlabeled); err != nil {
		return err
	}
	if err := explicitAlpha(text.alpha, given["alpha"], stderr); err != nil {
		return err
	}
	if done, err := table.trainTableIf(fs, *text.model, pos[0], *out, stdout); done {
		return err
	}
	cfg, err := text.config(given)
	if err != nil {
		return err
	}
	if cfg.Semi, err = semi.config(given); err != nil {
		return err
	}
	if *statsOnly {
		if given["tune"] || given["multi-label"] || given["select"] || given["calibrate"] {
			return fmt.Errorf("%w: --stats-only writes document frequencies for training in parts; --tune, --multi-label, --select and --calibrate do not combine with it", errUsage)
		}
		if *ml.reweight > 0 {
			return fmt.Errorf("%w: --reweight %d with --stats-only", facade.ErrReweighted, *ml.reweight)
		}
		return writeDocFreqs(cfg, pos[0], fields, *out, stdout)
	}
	if *tune.tune && (*ml.multi || corpus.IsMultiLabel(pos[0], multiOptions(fs, fields, *ml.labelSep))) {
		return fmt.Errorf("%w: --tune searches single-label settings; multi-label training chooses α and reweighting by its own cross-validation "+
			"(textnb cv --multi-label compares other settings)", errUsage)
	}
	if *calibrate && (*ml.multi || corpus.IsMultiLabel(pos[0], multiOptions(fs, fields, *ml.labelSep))) {
		return fmt.Errorf("%w: --calibrate calibrates single-label models; multi-label training fits its thresholds by its own cross-validation", errUsage)
	}
	if *calibrate && cfg.Semi.Method != facade.NoSemi {
		return fmt.Errorf("%w: --calibrate cross-validates, which semi-supervised training does not support", errUsage)
	}
	var cv *facade.CVResult // the chosen settings' cross-validation, to calibrate from
	var tuned *facade.TuneResult
	labels, st := newLabelStats(), corpus.Stats{} // of the corpus as read for the model
	if cfg, cv, tuned, err = tune.choose(cfg, pos[0], fields, stdout, labels, &st); err != nil {
		return err
	}
	cfg.Calibrate = cfg.Calibrate || *calibrate || cv != nil
	if err := ml.selection(&cfg, *text.features); err != nil {
		return err
	}
	if done, err := ml.trainIf(fs, cfg, pos[0], *out, fields, stdout); done {
		return err
	}
	if !*tune.tune {
		if err := ml.textReweight(&cfg); err != nil {
			return err
		}
	}
	// --tune fits its best setting on the corpus as it read it, where it
	// kept that; else the corpus is read again.
	var m *facade.Pipeline
	var sum facade.TrainSummary
	err = facade.ErrNotKept
	if tuned != nil && cfg.Select.Method == facade.NoSelect {
		m, sum, err = tuned.TrainBest()
	}
	checkCorpus := func() error {
		if err := labels.check(pos[0], *allowMany); err != nil {
			return err
		}
		if given["min-df"] && *text.minDF > labels.docs {
			return fmt.Errorf("%w: --min-df %d keeps no term: %s has %d documents (give at most %d)", errUsage, *text.minDF, pos[0], labels.docs, labels.docs)
		}
		return nil
	}
	switch {
	case err == nil:
		if err := checkCorpus(); err != nil {
			return err
		}
	case !errors.Is(err, facade.ErrNotKept):
		return fmt.Errorf("%s: %w", pos[0], err)
	default:
		if m, sum, st, err = trainCorpus(cfg, pos[0], fields, spill, semi, labels, checkCorpus, stderr, *quiet); err != nil {
			return err
		}
	}
	m.LabelField, m.TextField = fields.stored(fs)
	m.MailInput, m.MailFeatures = fields.mail.stored(st)
	// A default that chose its settings is calibrated on the choice's folds
	// already: another cross-validation, reading the corpus again, only
	// when --tune's is at hand or --folds asks for other folds.
	if cfg.Calibrate && (m.Calibration() == nil || cv != nil || given["folds"]) {
		if err := calibrateModel(m, cfg, cv, pos[0], fields, tune, stderr, *quiet); err != nil {
			return err
		}
	}
	if err := storeDecision(semi.threshold, m); err != nil {
		return err
	}
	if err := facade.SaveFile(*out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "trained %s (alpha %g%s) on %d documents (%d empty), %d classes, %d features (min_df %d), lang %v, in %.2fs\n",
		m.Config.Classifier, m.Config.Alpha, reweightNote(m.Config), sum.Documents, sum.Empty, sum.Classes, sum.Features, sum.MinDF, sum.Lang, sum.Elapsed.Seconds())
	switch {
	case sum.Choice != nil:
		fmt.Fprintln(stdout, sum.Choice)
	case sum.Fallback != "":
		fmt.Fprintf(stdout, "the plain default, not chosen by cross-validation: %s\n", sum.Fallback)
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	if st.Mail > 0 {
		fmt.Fprintf(stdout, "read %d of the documents as mail (--input %s, --mail-features %s)\n", st.Mail, m.MailInput, m.MailFeatures)
	}
	semi.report(stdout, sum.Unlabeled, sum.Semi)
	if c := m.Calibration(); c != nil {
		top := ""
		if c.TopLabel != nil {
			top = fmt.Sprintf(" and a top-label map of %d knots", len(c.TopLabel.Confidence))
		}
		fmt.Fprintf(stdout, "calibrated: temperature %.4g%s, %d-fold cross-validated log loss %.4f → %.4f\n",
			c.Temperature, top, c.Folds, c.LogLossBefore, c.LogLossAfter)
	}
	return nil
}

// trainCorpus trains cfg on the corpus at path, counting its labels into
// labels, which check checks once the corpus is read.
func trainCorpus(cfg facade.Config, path string, fields fieldFlags, spill spillFlags, semi semiFlags, labels *labelStats, check func() error, stderr io.Writer, quiet bool) (*facade.Pipeline, facade.TrainSummary, corpus.Stats, error) {
	var sum facade.TrainSummary
	tr, err := facade.NewTrainer(cfg)
	if err != nil {
		return nil, sum, corpus.Stats{}, usageErr(err)
	}
	if err := spill.apply(tr); err != nil {
		return nil, sum, corpus.Stats{}, err
	}
	meter := newMeter(stderr, "train", path, quiet)
	*labels = *newLabelStats()
	st, err := corpus.Walk(path, fields.options(false), func(d corpus.Document) error {
		if err := tr.Add(d.Label, d.Text); err != nil {
			return err
		}
		labels.add(d.Label)
		meter.Add(1, int64(len(d.Text)))
		return nil
	})
	meter.Stop()
	if err != nil {
		return nil, sum, st, err
	}
	if err := check(); err != nil {
		return nil, sum, st, err
	}
	if err := semi.addUnlabeled(tr, fields, stderr, quiet); err != nil {
		return nil, sum, st, err
	}
	meter = newMeter(stderr, "train: fitting", "", quiet)
	m, sum, err := tr.Finish()
	meter.Stop()
	if err != nil {
		return nil, sum, st, fmt.Errorf("%s: %w", path, err)
	}
	return m, sum, st, nil
}

// calibrateModel calibrates m, trained with cfg on the corpus at path, from cv, the
// cross-validation of its settings that --tune ran, or else from a k-fold
// cross-validation run now.
func calibrateModel(m *facade.Pipeline, cfg facade.Config, cv *facade.CVResult, path string, fields fieldFlags, tune tuneFlags, stderr io.Writer, quiet bool) error {
	if cv == nil {
		folds, err := foldsOr(*tune.folds, facade.DefaultFolds)
		if err != nil {
			return err
		}
		meter := newMeter(stderr, "train: calibrating", "", quiet)
		cv, err = facade.CrossValidateDocs(cfg, facade.CVOptions{Folds: folds, Seed: *tune.seed, KeepScores: true}, walkDocs(path, fields))
		meter.Stop()
		if err != nil {
			return fmt.Errorf("%s: --calibrate: %w", path, err)
		}
	}
	if err := m.Calibrate(cv); err != nil {
		return fmt.Errorf("%s: calibration: %w", path, err)
	}
	return nil
}

// reweightNote describes c's reweighting after its α, or is empty.
func reweightNote(c facade.Config) string {
	if c.Reweight <= 0 {
		return ""
	}
	return fmt.Sprintf(", reweighted %d×%g", c.Reweight, c.ReweightRate)
}

func usageErr(err error) error { return fmt.Errorf("%w: %v", errUsage, err) }

// givenFlags returns the names of the flags set on the command line.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// explicitAlpha checks --alpha and, given explicitly below
// facade.MinAlpha (0 included, which the pipeline reads as the default),
// raises it to MinAlpha with a warning, as scikit-learn does.
func explicitAlpha(alpha *float64, given bool, stderr io.Writer) error {
	a := *alpha
	switch {
	case a < 0 || math.IsNaN(a) || math.IsInf(a, 0):
		return fmt.Errorf("%w: --alpha %g: want a finite value ≥ 0", errUsage, a)
	case given && a < facade.MinAlpha:
		fmt.Fprintf(stderr, "textnb: --alpha %g is below %g, the least smoothing; using %g\n", a, facade.MinAlpha, facade.MinAlpha)
		*alpha = facade.MinAlpha
	}
	return nil
}

// explicitVocab refuses pruning flags given explicitly with a value the
// pipeline would read as its default, or that keeps no term.
func explicitVocab(given map[string]bool, minDF int, maxDF float64, features int) error {
	switch {
	case minDF < 0:
		return fmt.Errorf("%w: --min-df %d: want N ≥ 1 (0 and 1 keep every term)", errUsage, minDF)
	case given["max-df"] && !(maxDF > 0 && maxDF <= 1):
		return fmt.Errorf("%w: --max-df %g: want a fraction of the documents in (0, 1]; 0 would drop every term", errUsage, maxDF)
	case given["features"] && features < 1:
		return fmt.Errorf("%w: --features %d: want N ≥ 1", errUsage, features)
	}
	return nil
}

func tokenFlags(t *tokenize.Config, ngrams, charNgrams, stopwords, lang string, stem bool) error {
	var err error
	if ngrams != "" {
		if t.WordNGrams, err = parseRange("--ngrams", ngrams); err != nil {
			return err
		}
	}
	if charNgrams != "" && charNgrams != "none" {
		if t.HanChars, err = parseRange("--char-ngrams", charNgrams); err != nil {
			return err
		}
	}
	if stopwords == "all" {
		stopwords = "en,zh"
	}
	if err := t.Stopwords.UnmarshalText([]byte(stopwords)); err != nil {
		return err
	}
	if err := t.Lang.UnmarshalText([]byte(lang)); err != nil {
		return err
	}
	t.Stem = stem
	return nil
}

func parseRange(flag, s string) (tokenize.NGramRange, error) {
	lo, hi, ok := strings.Cut(s, ",")
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	b, err2 := strconv.Atoi(strings.TrimSpace(hi))
	if !ok || err1 != nil || err2 != nil || a < 1 || b < a {
		return tokenize.NGramRange{}, fmt.Errorf("%s %q: want MIN,MAX with 1 ≤ MIN ≤ MAX", flag, s)
	}
	return tokenize.NGramRange{Min: a, Max: b}, nil
}

// fieldFlags are the column-naming and mail flags shared by train, eval
// and cv.
type fieldFlags struct {
	label, text *string
	mail        *mailFlags
}

func corpusFlags(fs *flag.FlagSet) fieldFlags {
	return fieldFlags{
		label: fs.String("label-field", "label", "label column of .csv/.tsv headers and .jsonl objects"),
		text:  fs.String("text-field", "text", "text column of .csv/.tsv headers and .jsonl objects"),
		mail:  newMailFlags(fs),
	}
}

func (f fieldFlags) options(unlabeled bool) corpus.Options {
	opt := corpus.Options{LabelField: *f.label, TextField: *f.text, Unlabeled: unlabeled}
	f.mail.apply(&opt)
	return opt
}

// stored returns the field names a model keeps: those that are not the
// flags' defaults ("" for a default).
func (f fieldFlags) stored(fs *flag.FlagSet) (label, text string) {
	if *f.label != fs.Lookup("label-field").DefValue {
		label = *f.label
	}
	if *f.text != fs.Lookup("text-field").DefValue {
		text = *f.text
	}
	return label, text
}

// useStored sets in opt the columns that c's model was trained from, for
// the field flags not given, and reports whether opt changed.
func (f fieldFlags) useStored(fs *flag.FlagSet, opt *corpus.Options, c classifier) bool {
	given := givenFlags(fs)
	before := *opt
	label, text := c.fields()
	if label != "" && !given["label-field"] {
		opt.LabelField = label
	}
	if text != "" && !given["text-field"] {
		opt.TextField = text
	}
	input, features := c.mail()
	f.mail.useStored(fs, opt, input, features)
	return !reflect.DeepEqual(*opt, before) // Options holds a slice: not comparable
}
