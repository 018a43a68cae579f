package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/textnb/textnb/pipeline"
)

func runEval(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "eval -m MODEL [--json] [--priors C=P,…|--estimate-priors] CORPUS\n\n"+
		"With a table model CORPUS is a .csv or .tsv table with the model's feature columns and --label-field", stderr)
	modelPath := fs.String("m", "", "model `file` (required)")
	asJSON := fs.Bool("json", false, "print the evaluation as one JSON object")
	fields := corpusFlags(fs)
	pf := newPriorFlags(fs)
	sep := labelSepFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || len(pos) != 1 {
		return fmt.Errorf("%w: need -m MODEL and one CORPUS (see --help)", errUsage)
	}
	if isMultiModel(*modelPath) {
		return evalMulti(fs, *modelPath, pos[0], fields, *sep, stdout, *asJSON)
	}
	in := inputs{labeled: true, fields: fields.options(false)}
	if kind, err := pipeline.PeekKind(*modelPath); err == nil && kind == pipeline.TextModel {
		in.ahead = startReadAhead(pos[0], in.fields) // a table is read as rows, once the model is known
		defer in.ahead.stop()
	}
	c, err := openClassifier(*modelPath, in)
	if err != nil {
		return err
	}
	ev := pipeline.NewEvaluator(c.classes())
	sh, err := pf.shift(c.classes(), c.priors(), func(p pipeline.Prediction) { ev.AddClass(p.Truth, p.Class) })
	if err != nil {
		return err
	}
	if err := c.feed(pos, sh.add); err != nil {
		return err
	}
	if err := sh.finish(stdout, stderr, *asJSON); err != nil {
		return err
	}
	return writeEvaluation(stdout, ev.Result(), *asJSON)
}

// writeEvaluation prints r as a report, or as one JSON object.
func writeEvaluation(stdout io.Writer, r pipeline.Evaluation, asJSON bool) error {
	if asJSON {
		out, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", out)
		return err
	}
	printEvaluation(stdout, r)
	return nil
}

func printEvaluation(w io.Writer, r pipeline.Evaluation) {
	fmt.Fprintf(w, "documents %d\naccuracy  %.4f\nmacro-F1  %.4f\n\n", r.N, r.Accuracy, r.MacroF1)
	width := 5
	for _, l := range r.Labels {
		width = max(width, len(l))
	}
	fmt.Fprintf(w, "%-*s  %9s  %9s  %9s  %7s\n", width, "class", "precision", "recall", "f1", "support")
	for _, l := range r.Labels {
		s := r.PerClass[l]
		fmt.Fprintf(w, "%-*s  %9.4f  %9.4f  %9.4f  %7d\n", width, l, s.Precision, s.Recall, s.F1, s.Support)
	}
	fmt.Fprintf(w, "\nconfusion matrix (rows: true class, columns: predicted, in the order above)\n")
	cell := 4
	for _, row := range r.Confusion {
		for _, v := range row {
			cell = max(cell, len(fmt.Sprint(v))+1)
		}
	}
	for i, row := range r.Confusion {
		var sb strings.Builder
		for _, v := range row {
			fmt.Fprintf(&sb, "%*d", cell, v)
		}
		fmt.Fprintf(w, "%-*s %s\n", width, r.Labels[i], sb.String())
	}
}
