package pipeline

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// The text of cross-validation and tuning, as textnb cv and train --tune
// print it.

// GridSetting describes the settings of cfg that a Grid varies, as textnb
// cv and tune print them.
func (cfg Config) GridSetting() string {
	t := cfg.Tokenize
	s := fmt.Sprintf("%v %v alpha=%g ngrams=%d,%d", cfg.Classifier, cfg.Weighting, cfg.Alpha, t.WordNGrams.Min, t.WordNGrams.Max)
	if t.HanChars.Max > 0 {
		s += fmt.Sprintf(" char-ngrams=%d,%d", t.HanChars.Min, t.HanChars.Max)
	}
	if cfg.Reweight > 0 {
		s += fmt.Sprintf(" reweight=%d rate=%g", cfg.Reweight, cfg.ReweightRate)
	}
	return s
}

// WriteText prints r as textnb cv does: the cross-validation of docs
// documents dealt to folds with seed, a row per fold.
func (r *CVResult) WriteText(w io.Writer, docs int, seed uint64) error {
	fmt.Fprintf(w, "cross-validated %s on %d documents, %d folds (seed %d), lang %v, in %.2fs\n\n",
		r.Config.GridSetting(), docs, len(r.Folds), seed, r.Config.Tokenize.Lang, r.Elapsed.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "fold\ttrain\ttest\tfeatures\taccuracy\tmacro-F1\t")
	for i, f := range r.Folds {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.4f\t%.4f\t\n", i+1, f.Train, f.Test, f.Features, f.Accuracy, f.MacroF1)
	}
	fmt.Fprintf(tw, "mean ± sd\t\t\t\t%.4f ± %.4f\t%.4f ± %.4f\t\n", r.Accuracy.Mean, r.Accuracy.SD, r.MacroF1.Mean, r.MacroF1.SD)
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Choice != nil {
		var settings []string
		for _, f := range r.Folds {
			settings = append(settings, f.Setting)
		}
		fmt.Fprintf(w, "\nthe scores are train's choice made within each fold's training part (nested, %d folds of it): %s\n"+
			"on the whole corpus train %s\n", ChoiceFolds, strings.Join(settings, "; "), r.Choice)
	}
	return nil
}

// WriteText prints r as textnb train --tune does: a row per setting
// tried, folds dealt with seed, and the best.
func (r *TuneResult) WriteText(w io.Writer, seed uint64) error {
	best := r.Results[r.Best]
	fmt.Fprintf(w, "tuned %d settings by %d-fold cross-validation (seed %d) in %.2fs\n\n",
		len(r.Results), len(best.Folds), seed, r.Elapsed.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tsetting\taccuracy\tmacro-F1")
	dropped := 0
	for i, x := range r.Results {
		mark := ""
		if i == r.Best {
			mark = "*"
		}
		if x.Dropped {
			dropped++
			fmt.Fprintf(tw, "%s\t%s\t%.4f (fold 1)\t%.4f (fold 1)\n", mark, x.Config.GridSetting(), x.Accuracy.Mean, x.MacroF1.Mean)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%.4f ± %.4f\t%.4f ± %.4f\n", mark, x.Config.GridSetting(), x.Accuracy.Mean, x.Accuracy.SD, x.MacroF1.Mean, x.MacroF1.SD)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if dropped > 0 {
		fmt.Fprintf(w, "\n(%d settings scored on fold 1 only: each trailed that fold's best by more than %d standard errors of their paired difference)", dropped, raceZ)
	}
	if r.Untried > 0 {
		if r.ReweightTop == 0 {
			fmt.Fprintf(w, "\n(%d reweighted settings not tried: with more than two classes only reweight-top tries them)", r.Untried)
		} else {
			fmt.Fprintf(w, "\n(%d reweighted settings not tried: their settings without reweighting are below the best %d of their tokenization)", r.Untried, r.ReweightTop)
		}
	}
	if r.Best == r.Base && r.Best != r.Top {
		fmt.Fprintf(w, "\n(%s scores best, but the default is within a standard error of it)", r.Results[r.Top].Config.GridSetting())
	}
	fmt.Fprintf(w, "\nbest: %s\n", best.Config.GridSetting())
	return nil
}
