package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
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

// onlineReport is what eval --online prints.
type onlineReport struct {
	Corpus string `json:"corpus"`
	// Order is the order used: name, date, mtime or list.
	Order   string `json:"order"`
	Learn   string `json:"learn"`
	Batch   int    `json:"batch"`
	Warmup  int    `json:"warmup"`
	Start   string `json:"start"`   // "empty", or the model file
	Setting string `json:"setting"` // the model's classifier and α at the end
	// Select is the selection made before each batch, as "mi 3000".
	Select string `json:"select,omitempty"`
	// Unseen says that the terms no learned document held were scored.
	Unseen    bool `json:"unseen,omitempty"`
	Documents int  `json:"documents"`
	Learned   int  `json:"learned"`
	// Seconds is the time of classifying and learning, after reading.
	Seconds     float64       `json:"seconds"`
	ReadSeconds float64       `json:"read_seconds"`
	All         onlineScores  `json:"all"`
	AfterWarmup *onlineScores `json:"after_warmup,omitempty"`
}

// onlineScores are eval's scores of a run of documents, with 1 − ROC AUC
// in percent as the TREC spam track reports it.
type onlineScores struct {
	metrics.Evaluation
	OneMinusAUCPct *float64 `json:"one_minus_auc_pct,omitempty"`
}

func newOnlineScores(r *metrics.Evaluation) onlineScores {
	s := onlineScores{Evaluation: *r}
	if r.BinaryScores != nil {
		pct := 100 * (1 - r.ROCAUC)
		s.OneMinusAUCPct = &pct
	}
	return s
}

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
	by, list := corpus.OrderList, ""
	switch *o.order {
	case "auto":
		by = corpus.OrderAuto
	case "name":
		by = corpus.OrderName
	case "date":
		by = corpus.OrderDate
	case "mtime":
		by = corpus.OrderMtime
	default:
		list = *o.order
		if fi, err := os.Stat(list); err != nil || fi.IsDir() {
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
	docs, used, err := corpus.ReadOrdered(path, read, by, list)
	meter.Stop()
	if err != nil {
		return err
	}
	rep := onlineReport{Corpus: path, Order: used.String(), Learn: *o.learn, Batch: *o.batch, Warmup: *o.warmup, Start: "empty",
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
	rep.Learned, rep.All = res.Learned, newOnlineScores(res.All)
	if res.AfterWarmup != nil {
		s := newOnlineScores(res.AfterWarmup)
		rep.AfterWarmup = &s
	}
	if asJSON {
		return printJSON(stdout, rep)
	}
	printOnline(stdout, rep, seen)
	return nil
}

// printOnline prints an online evaluation's report.
func printOnline(w io.Writer, r onlineReport, seen bool) {
	order := map[string]string{"name": "file names", "date": "the messages' dates", "mtime": "modification times", "list": "the order list"}[r.Order]
	feedback := "each classified, then learned"
	if r.Batch > 1 {
		feedback = fmt.Sprintf("classified in batches of %d, then learned", r.Batch)
	}
	fmt.Fprintf(w, "online  %d documents of %s in time order by %s, %s (--learn %s)\n", r.Documents, plain(r.Corpus), order, feedback, r.Learn)
	start := "an empty model"
	if r.Start != "empty" {
		start = plain(r.Start)
	}
	sel := ""
	if r.Select != "" {
		sel = fmt.Sprintf(", classifying with the %s terms selected from them before each batch", r.Select)
	}
	if r.Unseen {
		sel += ", scoring the terms none of them held by each class's unseen mass"
	}
	fmt.Fprintf(w, "start   %s; at the end %s, %d documents learned%s; %.2fs (and %.2fs reading)\n\n", start, r.Setting, r.Learned, sel, r.Seconds, r.ReadSeconds)
	cols := []onlineScores{r.All}
	head := fmt.Sprintf("%-22s  %12s", "", "all")
	if r.AfterWarmup != nil {
		cols = append(cols, *r.AfterWarmup)
		head += fmt.Sprintf("  %12s", fmt.Sprintf("after %d", r.Warmup))
	}
	fmt.Fprintln(w, head)
	row := func(name string, f func(s onlineScores) string) {
		line := fmt.Sprintf("%-22s", name)
		for _, s := range cols {
			line += fmt.Sprintf("  %12s", f(s))
		}
		fmt.Fprintln(w, line)
	}
	row("documents", func(s onlineScores) string { return strconv.Itoa(s.N) })
	row("accuracy", func(s onlineScores) string { return fmt.Sprintf("%.4f", s.Accuracy) })
	for _, i := range r.All.Evaluation.LabelOrder(seen) {
		name := r.All.Labels[i]
		row("recall "+plain(name), func(s onlineScores) string { return fmt.Sprintf("%.4f", s.PerClass[name].Recall) })
	}
	if r.All.BinaryScores != nil {
		row("ROC AUC ("+plain(r.All.Positive)+")", func(s onlineScores) string {
			if s.BinaryScores == nil {
				return "—"
			}
			return fmt.Sprintf("%.5f", s.ROCAUC)
		})
		row("1−AUC %", func(s onlineScores) string {
			if s.OneMinusAUCPct == nil {
				return "—"
			}
			return fmt.Sprintf("%.3f", *s.OneMinusAUCPct)
		})
	}
	row("log loss", func(s onlineScores) string {
		if s.ProbaScores == nil {
			return "—"
		}
		return fmt.Sprintf("%.4f", s.LogLoss)
	})
}
