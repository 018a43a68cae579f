package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
)

func runEval(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "eval -m MODEL [--json] [--errors N] [--order name|seen] [--priors C=P,…|--estimate-priors] [--threshold LABEL=P] [--positive LABEL] CORPUS\n"+
		"eval --online [-m MODEL | train's text flags] [--online-order auto|name|date|mtime|FILE] [--learn all|errors] [--warmup N] [--batch K] [--json] CORPUS\n\n"+
		"Besides accuracy and per-class scores, eval scores the probabilities: log_loss (mean −ln p(true class), p clipped at\n"+
		"1e-15), brier (mean over documents of Σ_c (p_c − 1[c = true class])², twice scikit-learn's two-class brier_score_loss)\n"+
		"and ece (10 equal-width bins of the top probability: Σ_b |B|/n·|accuracy(B) − confidence(B)|), over the documents\n"+
		"of classes the model knows; for a two-class model, roc_auc and recall_at_fpr, the positive class's highest recall\n"+
		"at a score threshold whose false-positive rate is at most 0.1% and 1% (tied scores pass a threshold together; no\n"+
		"interpolation). Accuracy and the confusion matrix follow the model's decision threshold (train --threshold) or\n"+
		"--threshold; the probability scores do not depend on it.\n\n"+
		"With a table model CORPUS is a .csv or .tsv table with the model's feature columns and --label-field", stderr)
	modelPath := fs.String("m", "", "model `file` (required, but with --online: then the model to start from)")
	asJSON := fs.Bool("json", false, "print the evaluation as one JSON object")
	order := fs.String("order", "name", "list classes by name, or as seen: the model's order, then labels only the corpus has")
	nErrors := fs.Int("errors", 0, "list the first N misclassified documents (with a text model, each with its explanation in --json)")
	report := fs.String("report", "", "also write a self-contained HTML report to this `file`: scores, per-class bars, "+
		"the confusion matrix as a heat map, the most confused pairs, and the misclassified documents (--errors of them, "+
		"25 by default) with the terms that decided them; for a multi-label model the micro/macro scores, per-label bars "+
		"and the documents with the most label errors")
	positive := fs.String("positive", "", "two-class models: the positive `LABEL` of roc_auc and recall_at_fpr (default: the class with fewer documents in CORPUS, the model's second class if they tie)")
	threshold := thresholdFlag(fs)
	fields := corpusFlags(fs)
	pf := newPriorFlags(fs)
	quiet := quietFlag(fs)
	sep := labelSepFlag(fs)
	online := newOnlineFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *online.on {
		if len(pos) != 1 {
			return fmt.Errorf("%w: need one CORPUS (see --help)", errUsage)
		}
		if *order != "name" && *order != "seen" {
			return fmt.Errorf("%w: --order %q: want name or seen", errUsage, *order)
		}
		return runOnline(fs, online, *modelPath, pos[0], fields, *positive, *asJSON, *order == "seen", *quiet, stdout, stderr)
	}
	for _, f := range append([]string{"online-order", "learn", "warmup", "batch", "select", "unseen"}, textFlagNames...) {
		if givenFlags(fs)[f] {
			return fmt.Errorf("%w: --%s needs --online", errUsage, f)
		}
	}
	if *modelPath == "" || len(pos) != 1 {
		return fmt.Errorf("%w: need -m MODEL and one CORPUS (see --help)", errUsage)
	}
	if *nErrors < 0 {
		return fmt.Errorf("%w: --errors %d: want N ≥ 0", errUsage, *nErrors)
	}
	if *order != "name" && *order != "seen" {
		return fmt.Errorf("%w: --order %q: want name or seen", errUsage, *order)
	}
	if *report != "" {
		if err := checkReportPath(*report, *modelPath, pos[0]); err != nil {
			return err
		}
	}
	e := &evalRun{fs: fs, model: *modelPath, corpus: pos[0], fields: fields, sep: *sep, stdout: stdout, stderr: stderr,
		asJSON: *asJSON, seen: *order == "seen", quiet: *quiet, report: *report, nErrors: *nErrors,
		positive: *positive, threshold: threshold, pf: pf}
	e.in = inputs{labeled: true, fields: fields.options(false)}
	if !givenFlags(fs)["input"] {
		e.in.fields.Input = corpus.InputText // as most models were trained; one trained on mail reads again below
	}
	if kind, err := facade.FileKind(*modelPath); err == nil && kind == facade.TextModel {
		e.in.ahead = startReadAhead(pos[0], e.in.fields) // a table is read as rows, once the model is known
		defer func() { e.in.ahead.stop() }()
	}
	c, err := openClassifier(*modelPath, &e.in)
	if err != nil {
		return err
	}
	return c.evaluate(e)
}

// evalRun is an eval of a model on a corpus, as the flags ask for it.
type evalRun struct {
	fs                         *flag.FlagSet
	model, corpus, sep, report string
	fields                     fieldFlags
	in                         inputs
	stdout, stderr             io.Writer
	asJSON, seen, quiet        bool
	nErrors                    int
	positive                   string
	threshold                  *thresholdValue
	pf                         priorFlags
}

func (c textClassifier) evaluate(e *evalRun) error {
	return e.single(c, func() string {
		if t := c.m.Threshold; t != nil {
			return t.String(c.m.Classes)
		}
		return ""
	})
}

func (c tableClassifier) evaluate(e *evalRun) error { return e.single(c, nil) }

// single is eval for a single-label model, text or table; threshold, if
// not nil, names the decision threshold that decides its predictions.
func (e *evalRun) single(c classifier, threshold func() string) error {
	fs, stdout, stderr, pf := e.fs, e.stdout, e.stderr, e.pf
	keep := e.nErrors // misclassified documents to keep
	if e.report != "" && keep == 0 {
		keep = reportErrors
	}
	in := &e.in
	if e.fields.useStored(fs, &in.fields, c) && in.ahead != nil { // read with the model's columns
		in.ahead.stop()
		in.ahead = startReadAhead(e.corpus, in.fields)
	}
	if err := c.setThreshold(e.threshold); err != nil {
		return err
	}
	classes := c.Classes()
	ev := metrics.NewEvaluator(classes)
	if e.positive != "" {
		if len(classes) != 2 || !slices.Contains(classes, e.positive) {
			return fmt.Errorf("%w: --positive %s: want one of the classes of a two-class model (the model has %d: %s)", errUsage, plain(e.positive), len(classes), plain(strings.Join(classes[:min(len(classes), 5)], ", "))) // 5 named at most
		}
		ev.Positive = e.positive
	}
	var errs []misclassified
	var explain func(scored) any // used by the emitting goroutine alone
	if !pf.given() {             // explanations are of the model's own scores
		explain = c.explainer(8)
	}
	meter := newMeter(stderr, "eval", e.corpus, e.quiet)
	defer meter.Stop()
	sh, err := pf.shift(classes, c.priors(), c.decide, func(s scored) {
		meter.Add(1, int64(len(s.doc.text)))
		ev.AddProba(s.Truth, s.Class, s.Proba)
		if len(errs) < keep && classes[s.Class] != s.Truth {
			errs = append(errs, newMisclassified(s, classes, explain))
		}
	})
	if err != nil {
		return err
	}
	if err := c.feed([]string{e.corpus}, sh.add); err != nil {
		return err
	}
	if err := sh.finish(stdout, stderr, e.asJSON); err != nil {
		return err
	}
	meter.Stop()
	rep := evalReport{Evaluation: ev.Result(), Errors: errs}
	if threshold != nil {
		rep.Threshold = threshold()
	}
	page := facade.Report{Model: e.model, Corpus: e.corpus, Eval: rep.Evaluation, Threshold: rep.Threshold, ModelOrder: e.seen}
	for _, m := range errs {
		page.Docs = append(page.Docs, m.doc)
	}
	if e.report != "" {
		if err := facade.SaveFile(e.report, page); err != nil {
			return err
		}
	}
	if !e.asJSON {
		return page.WriteText(stdout, e.nErrors)
	}
	switch {
	case e.nErrors == 0:
		rep.Errors = nil
	case rep.Errors == nil:
		rep.Errors = []misclassified{}
	}
	return printJSON(stdout, rep)
}

// misclassified is a document eval got wrong.
type misclassified struct {
	Source    string                 `json:"source"`
	Truth     string                 `json:"true"`
	Predicted string                 `json:"predicted"`
	P         float64                `json:"p"`      // of the predicted class
	PTrue     float64                `json:"p_true"` // of the true class; 0 if the model does not know it
	Explain   *facade.TopExplanation `json:"explain,omitempty"`
	doc       facade.ReportDoc       // for the report
}

// newMisclassified records s, explained if explain is not nil.
func newMisclassified(s scored, classes []string, explain func(scored) any) misclassified {
	m := misclassified{Source: s.Source, Truth: s.Truth, Predicted: classes[s.Class], P: s.Proba[s.Class],
		doc: facade.ReportDoc{Source: s.Source, Text: s.doc.text, Truth: []string{s.Truth}, Predicted: []int{s.Class}, Proba: slices.Clone(s.Proba)}}
	if i := slices.Index(classes, s.Truth); i >= 0 {
		m.PTrue = s.Proba[i]
	}
	if explain != nil {
		m.Explain = explain(s).(*facade.TopExplanation)
		m.doc.Explanation = &m.Explain.Whole
	}
	return m
}

// evalReport is what eval prints: the Evaluation's fields, then the errors
// asked for.
type evalReport struct {
	metrics.Evaluation
	// Threshold is the decision threshold that decided the predictions,
	// as LABEL=P; "": the most probable class.
	Threshold string          `json:"threshold,omitempty"`
	Errors    []misclassified `json:"errors,omitempty"`
}
