package main

import (
	"flag"
	"fmt"
	"io"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
)

// semiFlags are train's semi-supervised flags.
type semiFlags struct {
	unlabeled *string
	semi      *facade.Semi // --semi read into its Method
	k, lambda *float64
	// threshold is snb's as a bare P, the model's decision threshold as
	// LABEL=P
	threshold *thresholdValue
	rounds    *int
	raw       *bool
}

func newSemiFlags(fs *flag.FlagSet) semiFlags {
	semi := new(facade.Semi)
	fs.TextVar(&semi.Method, "semi", facade.NoSemi, "semi-supervised method for --unlabeled: nsnb (confident self-training), snb (threshold self-training), em (Nigam et al.)")
	return semiFlags{
		semi:      semi,
		unlabeled: fs.String("unlabeled", "", "also learn from the unlabeled documents at `PATH` (a folder of files or a line file; needs --semi)"),
		k:         fs.Float64("k", facade.DefaultSemiK, "nsnb: documents pseudo-labeled per round, a count (≥ 1) or a fraction of those left (< 1)"),
		threshold: decisionFlag(fs),
		rounds:    fs.Int("rounds", 0, "nsnb, snb: maximum rounds (default 10); em: maximum iterations (default 50)"),
		lambda:    fs.Float64("lambda", facade.DefaultSemiLambda, "em: weight of the unlabeled documents' soft counts"),
		raw:       fs.Bool("raw-posteriors", false, "nsnb: rank and pseudo-label by the classifier's own posteriors, as the NSNB paper does, not by per-class standardized scores"),
	}
}

// config checks that --unlabeled and --semi come together and returns the
// settings. The pipeline reads a zero as the default, so an explicit zero
// (given) is refused rather than silently replaced.
func (f semiFlags) config(given map[string]bool) (facade.Semi, error) {
	s := facade.Semi{Method: f.semi.Method, K: *f.k, Rounds: *f.rounds, Lambda: *f.lambda, RawPosteriors: *f.raw}
	if f.threshold.label == "" {
		s.Threshold = f.threshold.p
	}
	for name, zero := range map[string]bool{"k": s.K == 0, "threshold": s.Threshold == 0 && f.threshold.label == "", "rounds": s.Rounds == 0, "lambda": s.Lambda == 0} {
		if given[name] && zero {
			return s, fmt.Errorf("%w: --%s 0: want a positive value (see --help)", errUsage, name)
		}
	}
	switch {
	case *f.unlabeled != "" && s.Method == facade.NoSemi:
		return s, fmt.Errorf("%w: --unlabeled needs --semi nsnb, snb or em", errUsage)
	case *f.unlabeled == "" && s.Method != facade.NoSemi:
		return s, fmt.Errorf("%w: --semi %v needs --unlabeled PATH", errUsage, s.Method)
	}
	return s, nil
}

// addUnlabeled gives tr the documents of --unlabeled, if any.
func (f semiFlags) addUnlabeled(tr *facade.Trainer, fields fieldFlags, stderr io.Writer, quiet bool) error {
	path := *f.unlabeled
	if path == "" {
		return nil
	}
	meter := newMeter(stderr, "unlabeled", path, quiet)
	st, err := corpus.Walk(path, fields.options(true), func(d corpus.Document) error {
		tr.AddUnlabeled(d.Text)
		meter.Add(1, int64(len(d.Text)))
		return nil
	})
	meter.Stop()
	if st.LabelsIgnored {
		fmt.Fprintf(stderr, "textnb train: %s has labels; --unlabeled ignores them\n", path)
	}
	return err
}

// report prints what semi-supervised training did.
func (f semiFlags) report(w io.Writer, unlabeled int, semi fmt.Stringer) {
	if *f.unlabeled != "" {
		fmt.Fprintf(w, "used %d unlabeled documents from %s; %v\n", unlabeled, *f.unlabeled, semi)
	}
}
