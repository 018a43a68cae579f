package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/pipeline"
)

func runCV(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("cv", "cv CORPUS [--folds 10] [--seed S] [--json] [train flags]", stderr)
	folds := fs.Int("folds", pipeline.DefaultFolds, "number of folds (stratified by class)")
	seed := fs.Uint64("seed", 0, "seed of the shuffle that deals documents to folds")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	text := newTextFlags(fs)
	fields := corpusFlags(fs)
	quiet := quietFlag(fs)
	sel := multiFlags{sel: textFlag(fs, "select", pipeline.NoSelect, "keep only --features K terms by chi2, mi (mutual information) or df (document frequency), chosen on each fold's training part")}
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: need one CORPUS (see --help)", errUsage)
	}
	given := givenFlags(fs)
	if err := explicitAlpha(text.alpha, given["alpha"], stderr); err != nil {
		return err
	}
	cfg, err := text.config(given)
	if err != nil {
		return err
	}
	if err := sel.selection(&cfg, *text.features); err != nil {
		return err
	}
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		return usageErr(err)
	}
	n := 0
	meter := newMeter(stderr, "cv", pos[0], *quiet)
	err = corpus.Walk(pos[0], fields.options(false), func(d corpus.Document) error {
		if err := tr.Add(d.Label, d.Text); err != nil {
			return err
		}
		n++
		meter.Add(1, int64(len(d.Text)))
		return nil
	})
	meter.Stop()
	if err != nil {
		return err
	}
	r, err := tr.CrossValidate(pipeline.CVOptions{Folds: *folds, Seed: *seed})
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *asJSON {
		return printJSON(stdout, struct {
			Documents int     `json:"documents"`
			Folds     int     `json:"n_folds"`
			Seed      uint64  `json:"seed"`
			Setting   string  `json:"setting"`
			Seconds   float64 `json:"seconds"`
			*pipeline.CVResult
		}{n, len(r.Folds), *seed, settingName(r.Config), r.Elapsed.Seconds(), r})
	}
	fmt.Fprintf(stdout, "cross-validated %s on %d documents, %d folds (seed %d), lang %v, in %.2fs\n\n",
		settingName(r.Config), n, len(r.Folds), *seed, r.Config.Tokenize.Lang, r.Elapsed.Seconds())
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "fold\ttrain\ttest\tfeatures\taccuracy\tmacro-F1\t")
	for i, f := range r.Folds {
		fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%.4f\t%.4f\t\n", i+1, f.Train, f.Test, f.Features, f.Accuracy, f.MacroF1)
	}
	fmt.Fprintf(w, "mean ± sd\t\t\t\t%.4f ± %.4f\t%.4f ± %.4f\t\n", r.Accuracy.Mean, r.Accuracy.SD, r.MacroF1.Mean, r.MacroF1.SD)
	return w.Flush()
}

// settingName describes the choices of cfg that tuning varies.
func settingName(cfg pipeline.Config) string {
	t := cfg.Tokenize
	s := fmt.Sprintf("%v %v alpha=%g ngrams=%d,%d", cfg.Classifier, cfg.Weighting, cfg.Alpha, t.WordNGrams.Min, t.WordNGrams.Max)
	if t.HanChars.Max > 0 {
		s += fmt.Sprintf(" char-ngrams=%d,%d", t.HanChars.Min, t.HanChars.Max)
	}
	return s
}
