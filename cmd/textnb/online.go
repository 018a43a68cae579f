package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
)

// onlineFlags are eval's flags of --online.
type onlineFlags struct {
	on            *bool
	order, learn  *string
	warmup, batch *int
	sel           *facade.Selection // --select read into its Method
	unseen        *bool
	text          textFlags
}

func newOnlineFlags(fs *flag.FlagSet) onlineFlags {
	sel := new(facade.Selection)
	fs.TextVar(&sel.Method, "select", facade.NoSelect, "--online: before each batch, keep only the --features K terms that mi (mutual information, "+
		"Metsis et al.'s information gain; needs --binary), chi2 or df (document frequency; needs --binary) ranks best on the documents "+
		"learned so far (raw counts; an empty start)")
	return onlineFlags{
		sel: sel,
		on: fs.Bool("online", false, "replay CORPUS in time order: classify each document, then learn it (the TREC spam track's immediate "+
			"feedback); from an empty model with train's settings (the flags of train; --fast's fixed α; --weighting counts unless given), "+
			"or from -m MODEL (docs/online.md)"),
		order: fs.String("online-order", "auto", "--online: the time order: auto (dates in the file names, else the messages' dates for mail, "+
			"else modification times), name, date, mtime, or a `FILE` naming the documents in order, one a line"),
		learn:  fs.String("learn", "all", "--online: learn every document (all), or only those classified wrongly (errors: train on error)"),
		warmup: fs.Int("warmup", 100, "--online: also score the documents after the first `N`"),
		batch:  fs.Int("batch", 1, "--online: classify `K` documents before learning them (1: immediate feedback; Metsis et al. retrain every 100)"),
		unseen: fs.Bool("unseen", false, "--online: also score the terms that no learned document held, by each class's Good–Turing "+
			"unseen mass (its share of terms counted once, in it alone), the known terms by the rest (raw counts; an empty start; "+
			"not --binary or --select)"),
		text: newTextFlags(fs),
	}
}

// textFlagNames are the flags of newTextFlags, which eval takes only with
// --online and without -m.
var textFlagNames = []string{"model", "alpha", "fast", "weighting", "norm", "vectorizer", "features", "min-df", "max-df",
	"binary", "ngrams", "char-ngrams", "stem", "no-stem", "stopwords", "lang"}

// runOnline is eval --online of the corpus at path: from the model file
// modelPath, or from nothing with the text flags' settings if it is "".
func runOnline(fs *flag.FlagSet, o onlineFlags, modelPath, path string, fields fieldFlags, positive string, asJSON, seen, quiet bool, stdout, stderr io.Writer) error {
	given := givenFlags(fs)
	for _, f := range []string{"report", "errors", "priors", "estimate-priors", "threshold"} {
		if given[f] {
			return fmt.Errorf("%w: --%s does not combine with --online", errUsage, f)
		}
	}
	opt := facade.OnlineOptions{Batch: *o.batch, Warmup: *o.warmup, Unseen: *o.unseen, Positive: positive}
	switch *o.learn {
	case "all":
	case "errors":
		opt.LearnErrors = true
	default:
		return fmt.Errorf("%w: --learn %q: want all or errors", errUsage, *o.learn)
	}
	if *o.warmup < 0 || *o.batch < 1 {
		return fmt.Errorf("%w: --warmup %d, --batch %d: want N ≥ 0 and K ≥ 1", errUsage, *o.warmup, *o.batch)
	}
	switch *o.order {
	case "auto", "name", "date", "mtime":
	default: // a list file
		if fi, err := os.Stat(*o.order); err != nil || fi.IsDir() {
			return fmt.Errorf("%w: --online-order %q: want auto, name, date, mtime or a list FILE", errUsage, *o.order)
		}
	}
	read := fields.options(false)
	if modelPath != "" {
		for _, f := range append([]string{"select", "unseen"}, textFlagNames...) {
			if given[f] {
				return fmt.Errorf("%w: --%s: -m MODEL has its settings; the text flags configure an empty start (no -m)", errUsage, f)
			}
		}
		if kind, err := facade.FileKind(modelPath); err == nil && kind != facade.TextModel {
			return fmt.Errorf("%w: --online learns text models; %s is not one", errUsage, modelPath)
		}
		c, err := openClassifier(modelPath, &inputs{})
		if err != nil {
			return err
		}
		if opt.Start, err = c.text(modelPath); err != nil {
			return err
		}
		fields.useStored(fs, &read, c)
	} else {
		if err := explicitAlpha(o.text.alpha, given["alpha"], stderr); err != nil {
			return err
		}
		cfg, err := o.text.config(given)
		if err != nil {
			return err
		}
		if !given["weighting"] {
			// An IDF changes with every document, and learning a weighted
			// model refits it: O(model) a document (docs/online.md).
			cfg.Weighting = facade.RawCounts
		}
		if o.sel.Method != facade.NoSelect {
			if !given["features"] {
				return fmt.Errorf("%w: --select %v needs --features K, the number of terms to keep", errUsage, o.sel.Method)
			}
			cfg.Select = facade.Selection{Method: o.sel.Method, K: *o.text.features}
		}
		opt.Config = cfg
	}
	if _, err := facade.EvalOnline(nil, opt); err != nil { // the options, before reading
		return usageErr(err)
	}
	meter := newMeter(stderr, "eval --online: reading", path, quiet)
	start := time.Now()
	docs, used, err := corpus.ReadOrdered(path, read, *o.order)
	meter.Stop()
	if err != nil {
		return err
	}
	rep := facade.OnlineReport{Corpus: path, Order: used, Learn: *o.learn, Batch: *o.batch, Warmup: *o.warmup, Start: "empty",
		Documents: len(docs), ReadSeconds: time.Since(start).Seconds(), Unseen: *o.unseen}
	if modelPath != "" {
		rep.Start = modelPath
	}
	if s := opt.Config.Select; s.Method != facade.NoSelect {
		rep.Select = fmt.Sprintf("%v %d", s.Method, s.K)
	}
	meter = newMeter(stderr, "eval --online", path, quiet)
	opt.Progress = meter.Add
	start = time.Now()
	res, err := facade.EvalOnline(docs, opt)
	meter.Stop()
	if errors.Is(err, facade.ErrConfig) {
		return usageErr(fmt.Errorf("%s: %w", path, err))
	} else if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rep.Seconds = time.Since(start).Seconds()
	if res.Model != nil {
		cfg := res.Model.Pipeline().Config
		rep.Setting = cfg.Setting() + ", " + cfg.Weighting.String()
	}
	rep.Learned = res.Learned
	rep.SetScores(res.All, res.AfterWarmup)
	if asJSON {
		return printJSON(stdout, rep)
	}
	return rep.WriteText(stdout, seen)
}
