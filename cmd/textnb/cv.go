package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/tokenize"
)

func runCV(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("cv", "cv CORPUS [--folds 10] [--seed S] [--json] [--multi-label [--threshold-folds 5]] [train flags]", stderr)
	folds := fs.Int("folds", facade.DefaultFolds, "number of folds (stratified by class)")
	seed := fs.Uint64("seed", 0, "seed of the shuffle that deals documents to folds")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	text := newTextFlags(fs)
	fields := corpusFlags(fs)
	quiet := quietFlag(fs)
	thresholdFolds := fs.Int("threshold-folds", 0, "multi-label: folds of the cross-validation inside each fold's training that learns its thresholds, as train's --folds (default 5)")
	ml := newMultiFlags(fs, thresholdFolds)
	fs.Lookup("select").Usage = "keep only --features K terms by chi2, mi (mutual information) or df (document frequency), chosen on each fold's training part; per label with --multi-label"
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
	if err := ml.selection(&cfg, *text.features); err != nil {
		return err
	}
	if given["threshold-folds"] && *thresholdFolds < 2 {
		return fmt.Errorf("%w: --threshold-folds %d: want at least 2", errUsage, *thresholdFolds)
	}
	opt := multiOptions(fs, fields, *ml.labelSep)
	multi, detected, mc, err := ml.config(fs, &cfg, pos[0], opt, *thresholdFolds)
	switch {
	case err != nil:
		return err
	case multi:
		return cvMulti(pos[0], opt, cfg, mc, detected, facade.CVOptions{Folds: *folds, Seed: *seed}, *asJSON, stdout)
	case given["threshold-folds"]:
		return fmt.Errorf("%w: --threshold-folds needs --multi-label", errUsage)
	}
	tr, err := facade.NewTrainer(cfg)
	if err != nil {
		return usageErr(err)
	}
	n := 0
	meter := newMeter(stderr, "cv", pos[0], *quiet)
	_, err = corpus.Walk(pos[0], fields.options(false), func(d corpus.Document) error {
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
	r, err := tr.CrossValidate(facade.CVOptions{Folds: *folds, Seed: *seed})
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
			*facade.CVResult
		}{n, len(r.Folds), *seed, r.Config.GridSetting(), r.Elapsed.Seconds(), r})
	}
	return r.WriteText(stdout, n, *seed)
}

// cvMulti is cv of a multi-label configuration: each fold's model is
// trained as train --multi-label trains it, on the fold's training part.
func cvMulti(path string, opt corpus.Options, cfg facade.Config, mc facade.MultiLabelConfig, detected bool, o facade.CVOptions, asJSON bool, stdout io.Writer) error {
	tr, err := facade.NewMultiLabelTrainer(cfg, mc)
	if err != nil {
		return usageErr(err) // before reading the corpus, as train refuses it
	}
	tr.Abort()
	var docs []facade.MultiLabelDocument
	if _, err := corpus.WalkMulti(path, opt, func(d corpus.MultiDocument) error {
		docs = append(docs, facade.MultiLabelDocument{Labels: d.Labels, Text: d.Text})
		return nil
	}); err != nil {
		return err
	}
	r, err := facade.CrossValidateMultiLabel(cfg, mc, docs, o)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	setting := multiSettingName(cfg, r.Multi)
	if asJSON {
		type fold struct {
			Train          int     `json:"train"`
			Test           int     `json:"test"`
			Features       int     `json:"features"`
			Alpha          float64 `json:"alpha"`
			Reweight       int     `json:"reweight"`
			ReweightRate   float64 `json:"reweight_rate"`
			TrainSeconds   float64 `json:"train_seconds"`
			MicroF1        float64 `json:"micro_f1"`
			MacroF1        float64 `json:"macro_f1"`
			SubsetAccuracy float64 `json:"subset_accuracy"`
			HammingLoss    float64 `json:"hamming_loss"`
			MicroBreakeven float64 `json:"micro_breakeven"`
		}
		folds := make([]fold, len(r.Folds))
		for i, f := range r.Folds {
			e := f.Result
			folds[i] = fold{f.Train, f.Test, f.Features, f.Alpha, f.Reweight, f.ReweightRate, f.TrainTime.Seconds(), e.MicroF1, e.MacroF1, e.SubsetAccuracy, e.HammingLoss, e.MicroBreakeven}
		}
		return printJSON(stdout, struct {
			MultiLabel     bool                    `json:"multi_label"`
			Detected       bool                    `json:"detected"`
			Documents      int                     `json:"documents"`
			Folds          int                     `json:"n_folds"`
			Seed           uint64                  `json:"seed"`
			Setting        string                  `json:"setting"`
			Multi          facade.MultiLabelConfig `json:"multi"`
			Seconds        float64                 `json:"seconds"`
			FoldResults    []fold                  `json:"folds"`
			MicroF1        any                     `json:"micro_f1"` // the MeanSDs of r
			MacroF1        any                     `json:"macro_f1"`
			SubsetAccuracy any                     `json:"subset_accuracy"`
			HammingLoss    any                     `json:"hamming_loss"`
			Pooled         metrics.MultiEvaluation `json:"pooled"`
		}{true, detected, len(docs), len(r.Folds), o.Seed, setting, r.Multi, r.Elapsed.Seconds(), folds,
			r.MicroF1, r.MacroF1, r.SubsetAccuracy, r.HammingLoss, r.Pooled})
	}
	if detected {
		fmt.Fprintf(stdout, "multi-label corpus detected (label arrays in %s): cross-validating one model per label (--multi-label says so)\n", path)
	}
	fmt.Fprintf(stdout, "cross-validated %s on %d documents, %d labels, %d folds (seed %d), each fold's thresholds by %d-fold cross-validation of its training part, in %.2fs\n\n",
		setting, len(docs), len(r.Pooled.Labels), len(r.Folds), o.Seed, r.Multi.Folds, r.Elapsed.Seconds())
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "fold\ttrain\ttest\tfeatures\talpha\tpasses\trate\tmicro-F1\tmacro-F1\tsubset acc\tHamming loss\t")
	for i, f := range r.Folds {
		e := f.Result
		fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%g\t%d\t%g\t%.4f\t%.4f\t%.4f\t%.4f\t\n", i+1, f.Train, f.Test, f.Features, f.Alpha, f.Reweight, f.ReweightRate, e.MicroF1, e.MacroF1, e.SubsetAccuracy, e.HammingLoss)
	}
	fmt.Fprintf(w, "mean ± sd\t\t\t\t\t\t\t%.4f ± %.4f\t%.4f ± %.4f\t%.4f ± %.4f\t%.4f ± %.4f\t\n",
		r.MicroF1.Mean, r.MicroF1.SD, r.MacroF1.Mean, r.MacroF1.SD, r.SubsetAccuracy.Mean, r.SubsetAccuracy.SD, r.HammingLoss.Mean, r.HammingLoss.SD)
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\npooled: the %d held-out predictions of every fold, scored as one set\n", r.Pooled.N)
	return facade.Report{Multi: &r.Pooled}.WriteText(stdout, 0)
}

// multiSettingName describes a multi-label configuration as GridSetting
// does a single-label one; mc has its defaults resolved.
func multiSettingName(cfg facade.Config, mc facade.MultiLabelConfig) string {
	t := cfg.Tokenize
	alpha := "cv" // chosen by each training's inner cross-validation
	if cfg.Alpha != 0 {
		alpha = fmt.Sprint(cfg.Alpha)
	}
	reweight := "cv" // chosen as α is
	if mc.Reweight != 0 {
		reweight = fmt.Sprint(max(mc.Reweight, 0))
	}
	if mc.ReweightRate != 0 {
		reweight += fmt.Sprintf(" rate=%g", mc.ReweightRate)
	}
	ng := t.WordNGrams
	if ng == (tokenize.NGramRange{}) {
		ng = tokenize.DefaultWordNGrams
	}
	s := fmt.Sprintf("multi-label %v %v alpha=%s ngrams=%d,%d title=%d reweight=%s", mc.Score, cfg.Weighting, alpha,
		ng.Min, ng.Max, mc.Title, reweight)
	if mc.AllowEmpty {
		s += " allow-empty"
	}
	if cfg.Select.Method != facade.NoSelect {
		s += fmt.Sprintf(" select=%v,%d", cfg.Select.Method, cfg.Select.K)
	}
	return s
}
