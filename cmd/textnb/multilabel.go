package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
)

// multiFlags are train's multi-label and feature selection flags.
type multiFlags struct {
	multi, allowEmpty *bool
	labelSep          *string
	mc                *facade.MultiLabelConfig // --multi-score read into it
	folds, title      *int
	reweight          *reweightFlag
	rate              *rateFlag
	sel               *facade.Selection // --select read into its Method
}

// defaultMultiFolds is the number of folds that learn a multi-label
// model's thresholds.
const defaultMultiFolds = 5

// newMultiFlags defines the multi-label flags; folds is --folds, which
// --tune shares.
func newMultiFlags(fs *flag.FlagSet, folds *int) multiFlags {
	mc, sel := new(facade.MultiLabelConfig), new(facade.Selection)
	fs.TextVar(&mc.Score, "multi-score", facade.ComplementScore, "multi-label score: complement (each label's rest model, a softmax over labels) or odds (each label's log-odds)")
	fs.TextVar(&sel.Method, "select", facade.NoSelect, "keep only --features K terms by chi2, mi (mutual information) or df (document frequency); per label with --multi-label")
	return multiFlags{
		mc:  mc,
		sel: sel,
		multi: fs.Bool("multi-label", false, "documents have any number of labels (a .jsonl labels array, --label-sep, "+
			"or a file copied into several class folders): one binary model per label, thresholds by cross-validation"),
		allowEmpty: fs.Bool("allow-empty", false, "multi-label: a document may get no label (default: a document no threshold admits gets its most probable label)"),
		labelSep:   labelSepFlag(fs),
		folds:      folds,
		title: fs.Int("title", 0, "multi-label: times the first line (title) of a document of several lines counts; "+
			"1 counts it as any other line (default 2)"),
		reweight: newReweightFlag(fs),
		rate:     newRateFlag(fs),
	}
}

// reweightFlag is --reweight: facade.MultiLabelConfig.Reweight, where 0 is
// "auto" and none is -1, written as the CLI says them: auto, or a number
// of passes with 0 for none.
type reweightFlag int

func newReweightFlag(fs *flag.FlagSet) *reweightFlag {
	r := new(reweightFlag)
	fs.Var(r, "reweight", "`auto|N` passes of discriminative reweighting, which add to each class's complement (a label's rest) "+
		"the training documents it scores too high; 0 or none fits the plain counts (faster, smaller model); auto: multi-label 10 or 0, "+
		"whichever the threshold cross-validation scores better, text models 3 or 0 as train's cross-validated choice decides (default auto)")
	return r
}

// rateFlag is --reweight-rate: facade.MultiLabelConfig.ReweightRate, 0 written
// as auto.
type rateFlag float64

func newRateFlag(fs *flag.FlagSet) *rateFlag {
	r := new(rateFlag)
	fs.Var(r, "reweight-rate", "the `auto|R` rate of reweighting, how much of a document a class's complement gains per unit of "+
		"probability the class wrongly takes; auto: multi-label 40, text models 20 (default auto)")
	return r
}

func (r *rateFlag) String() string {
	if r == nil || *r == 0 {
		return "auto"
	}
	return strconv.FormatFloat(float64(*r), 'g', -1, 64)
}

func (r *rateFlag) Set(s string) error {
	if s == "auto" {
		*r = 0
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 1) {
		return errors.New("want auto or a rate above 0")
	}
	*r = rateFlag(v)
	return nil
}

func (r *reweightFlag) String() string {
	switch {
	case r == nil || *r == 0:
		return "auto"
	case *r < 0:
		return "0"
	}
	return strconv.Itoa(int(*r))
}

func (r *reweightFlag) Set(s string) error {
	switch s {
	case "auto":
		*r = 0
		return nil
	case "none":
		*r = -1
		return nil
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil || n < 0:
		return errors.New("want auto or a number of passes, 0 or more")
	case n == 0:
		*r = -1
	default:
		*r = reweightFlag(n)
	}
	return nil
}

func labelSepFlag(fs *flag.FlagSet) *string {
	return fs.String("label-sep", "", "multi-label: separator of several labels in a .tsv/.csv label field (e.g. \",\")")
}

// selection sets cfg.Select from --select and --features.
func (f multiFlags) selection(cfg *facade.Config, features int) error {
	m := f.sel.Method
	if m == facade.NoSelect {
		return nil
	}
	if features < 1 {
		return fmt.Errorf("%w: --select %v needs --features K", errUsage, m)
	}
	cfg.Select = facade.Selection{Method: m, K: features}
	cfg.Vocab.MaxFeatures = 0
	return nil
}

// config reports whether the corpus at path is read multi-label
// (--multi-label, or detected: a JSONL file of label arrays) and if so
// returns the multi-label settings of the flags, with innerFolds folds
// learning the thresholds; it makes cfg's α the one cross-validation
// chooses unless --alpha is given. Without multi-label it refuses the
// flags that need it.
func (f multiFlags) config(fs *flag.FlagSet, cfg *facade.Config, path string, opt corpus.Options, innerFolds int) (on, detected bool, mc facade.MultiLabelConfig, err error) {
	detected = !*f.multi && corpus.IsMultiLabel(path, opt)
	if !*f.multi && !detected {
		if *f.labelSep != "" || *f.allowEmpty || givenFlags(fs)["title"] {
			return false, false, mc, fmt.Errorf("%w: --label-sep, --allow-empty and --title need --multi-label", errUsage)
		}
		return false, false, mc, f.textReweight(cfg)
	}
	if !givenFlags(fs)["alpha"] {
		cfg.Alpha = 0 // chosen by cross-validation
	}
	mc = facade.MultiLabelConfig{AllowEmpty: *f.allowEmpty, Score: f.mc.Score, Title: *f.title}
	if givenFlags(fs)["title"] && *f.title < 1 {
		return true, detected, mc, fmt.Errorf("%w: --title %d, want at least 1", errUsage, *f.title)
	}
	mc.Reweight, mc.ReweightRate = int(*f.reweight), float64(*f.rate)
	if mc.Reweight < 0 && mc.ReweightRate != 0 {
		return true, detected, mc, fmt.Errorf("%w: --reweight-rate %g with --reweight 0, which makes no pass", errUsage, mc.ReweightRate)
	}
	if mc.Folds, err = foldsOr(innerFolds, defaultMultiFolds); err != nil {
		return true, detected, mc, err
	}
	return true, detected, mc, nil
}

// textReweight sets a text model's reweighting from --reweight and
// --reweight-rate, which mean for it what they mean for multi-label
// training.
func (f multiFlags) textReweight(cfg *facade.Config) error {
	cfg.Reweight, cfg.ReweightRate = int(*f.reweight), float64(*f.rate)
	if cfg.Reweight < 0 && cfg.ReweightRate != 0 {
		return fmt.Errorf("%w: --reweight-rate %g with --reweight none, which makes no pass", errUsage, cfg.ReweightRate)
	}
	return nil
}

// trainIf trains a multi-label model if --multi-label is set or the corpus
// is a JSONL file of label arrays; done reports whether it did.
func (f multiFlags) trainIf(fs *flag.FlagSet, cfg facade.Config, path, out string, fields fieldFlags, stdout io.Writer) (done bool, err error) {
	opt := multiOptions(fs, fields, *f.labelSep)
	on, detected, mc, err := f.config(fs, &cfg, path, opt, *f.folds)
	if !on || err != nil {
		return on || err != nil, err
	}
	if th, ok := lookupThreshold(fs); ok && th.label != "" {
		return true, fmt.Errorf("%w: --threshold %s: a multi-label model learns a threshold per label", errUsage, th)
	}
	tr, err := facade.NewMultiLabelTrainer(cfg, mc)
	if err != nil {
		return true, usageErr(err)
	}
	st, err := corpus.WalkMulti(path, opt, func(d corpus.MultiDocument) error {
		return tr.Add(d.Labels, d.Text)
	})
	if err != nil {
		return true, err
	}
	mm, sum, err := tr.Finish()
	if err != nil {
		return true, fmt.Errorf("%s: %w", path, err)
	}
	if err := facade.SaveFile(out, mm); err != nil {
		return true, err
	}
	if detected {
		fmt.Fprintf(stdout, "multi-label corpus detected (label arrays in %s): training one model per label (--multi-label says so)\n", path)
	}
	if err := sum.WriteText(stdout, mm, st.Empty); err != nil {
		return true, err
	}
	fmt.Fprintf(stdout, "wrote %s\n", out)
	return true, nil
}

// multiOptions returns the corpus options of a multi-label read: an
// unnamed label field lets a JSONL file's "labels" array be found.
func multiOptions(fs *flag.FlagSet, fields fieldFlags, sep string) corpus.Options {
	opt := fields.options(false)
	if !givenFlags(fs)["label-field"] {
		opt.LabelField = ""
	}
	opt.LabelSep = sep
	return opt
}

// evaluate is eval for a multi-label model; with a report path it also
// writes the HTML report, listing the nErrors (or reportErrors) documents
// with the most label errors.
func (c multiClassifier) evaluate(e *evalRun) error {
	if e.threshold.given || e.positive != "" {
		return fmt.Errorf("%w: --threshold and --positive apply to single-label models", errUsage)
	}
	if e.pf.given() {
		return fmt.Errorf("%w: --priors and --estimate-priors apply to single-label models", errUsage)
	}
	mm := c.m
	ev := metrics.NewMultiEvaluator(mm.Labels)
	worst := &worstDocs{k: cmp.Or(e.nErrors, reportErrors)}
	b := mm.NewBatch(func(p facade.MultiLabelPrediction) {
		ev.Add(p.Truth, p.Labels, p.Proba)
		if e.report != "" {
			worst.add(mm.Labels, p)
		}
	})
	_, err := corpus.WalkMulti(e.corpus, multiOptions(e.fs, e.fields, e.sep), func(d corpus.MultiDocument) error {
		b.Add(d.Source, d.Labels, d.Text)
		return nil
	})
	b.Close()
	if err != nil {
		return err
	}
	r := ev.Result()
	rep := facade.Report{Model: e.model, Corpus: e.corpus, Multi: &r, Known: len(mm.Labels), Docs: worst.reportDocs()}
	if e.report != "" {
		if err := facade.SaveFile(e.report, rep); err != nil {
			return err
		}
	}
	if e.asJSON {
		return printJSON(e.stdout, r)
	}
	return rep.WriteText(e.stdout, 0)
}
