package main

import (
	"fmt"
	"io"
	"strings"

	facade "github.com/textnb/textnb"
)

func runInspect(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("inspect", "inspect MODEL [--top N] [--json]\n\n"+
		"Prints a model's settings, its classes with their training documents and priors, and each class's\n"+
		"most indicative terms: by the classifier's own weights, and by smoothed log-odds against the other\n"+
		"classes. For a table model, each class's mean and spread (gaussian) or most probable category\n"+
		"(categorical) of every column. For a multi-label model, its multi-label settings, each label's\n"+
		"training documents and threshold, and its most indicative terms by its binary model's weights", stderr)
	top := fs.Int("top", 10, "list the N most indicative terms of each class (0: none)")
	asJSON := fs.Bool("json", false, "print the description as one JSON object")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: need one MODEL (see --help)", errUsage)
	}
	if *top < 0 {
		return fmt.Errorf("%w: --top %d: want N ≥ 0", errUsage, *top)
	}
	c, err := openClassifier(pos[0], &inputs{})
	if err != nil {
		return err
	}
	return c.describe(stdout, pos[0], *top, *asJSON)
}

// describe is inspect for a text model.
func (c textClassifier) describe(w io.Writer, path string, top int, asJSON bool) error {
	return printDescription(w, c, path, top, asJSON)
}

// describe is inspect for a table model.
func (c tableClassifier) describe(w io.Writer, path string, top int, asJSON bool) error {
	return printDescription(w, c, path, top, asJSON)
}

// printDescription prints what the facade's Inspect tells of c.
func printDescription(w io.Writer, c classifier, path string, top int, asJSON bool) error {
	info, err := c.Inspect(top)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if asJSON {
		return printJSON(w, info)
	}
	printInfo(w, path, info)
	return nil
}

func printInfo(w io.Writer, path string, info facade.Info) {
	s := info.Settings
	fmt.Fprintf(w, "model       %s\nkind        %s\nclassifier  %s\n", plain(path), info.Kind, s.Classifier)
	if set := info.Settings.String(); set != "" {
		fmt.Fprintf(w, "settings    %s\n", set)
	}
	if info.Chosen != nil {
		fmt.Fprintf(w, "chosen      %s\n", strings.TrimPrefix(info.Chosen.String(), "chose "))
	}
	fmt.Fprintf(w, "features    %d\n", info.Features)
	if info.Kind == "text" {
		if info.Terms > 0 {
			fmt.Fprintf(w, "vocabulary  %d terms\n", info.Terms)
		} else {
			fmt.Fprintf(w, "vocabulary  none kept (hashing): terms are shown by feature number\n")
		}
	} else {
		fmt.Fprintf(w, "columns     %s\n", strings.Join(quoteAll(info.Columns), ", "))
	}
	if c := info.Calibration; c != nil {
		top := ""
		if c.TopLabel != nil {
			top = fmt.Sprintf(" and a top-label map of %d knots", len(c.TopLabel.Confidence))
		}
		fmt.Fprintf(w, "calibrated  temperature %.6g%s, fitted on %d documents by %d-fold cross-validation (held-out log loss %.4f → %.4f)\n",
			c.Temperature, top, c.Documents, c.Folds, c.LogLossBefore, c.LogLossAfter)
	}
	if l := info.Learned; l != nil {
		fmt.Fprintf(w, "learned     %d documents learned, %d unlearned since training", l.Documents, l.Unlearned)
		if len(l.NewClasses) > 0 {
			fmt.Fprintf(w, "; new classes %s", strings.Join(quoteAll(l.NewClasses), ", "))
		}
		if l.Reweighting != "" {
			fmt.Fprintf(w, "; reweighting gains %s", l.Reweighting)
		}
		if l.Calibration != "" {
			fmt.Fprintf(w, "; calibration %s as fitted at training", l.Calibration)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "classes     %d\n", len(info.Classes))
	if s.Threshold != "" {
		i := strings.LastIndexByte(s.Threshold, '=') // LABEL=P, LABEL everything before the last =
		label, p := s.Threshold[:i], s.Threshold[i+1:]
		fmt.Fprintf(w, "threshold   %s: predicts %s iff p(%s) ≥ %s, else the other class\n", plain(s.Threshold), plain(label), plain(label), p)
	}
	fmt.Fprintln(w)
	printClassTable(w, "class", "prior", len(info.Classes), func(i int) (string, float64, float64) {
		c := info.Classes[i]
		return c.Name, c.Documents, c.Prior
	})
	for _, c := range info.Classes {
		switch {
		case len(c.TopWeights) > 0 || len(c.TopLogOdds) > 0:
			printTerms(w, c)
		case len(c.Columns) > 0:
			printColumns(w, c)
		}
	}
}

// printClassTable prints n classes (or labels), each's name, documents
// and value under the column's heading, one a line.
func printClassTable(w io.Writer, kind, column string, n int, row func(i int) (name string, docs, value float64)) {
	width, cw := len(kind), max(7, len(column))
	for i := range n {
		name, _, _ := row(i)
		width = max(width, len(plain(name)))
	}
	fmt.Fprintf(w, "%-*s  %10s  %*s\n", width, kind, "documents", cw, column)
	for i := range n {
		name, docs, v := row(i)
		fmt.Fprintf(w, "%-*s  %10.6g  %*.4f\n", width, plain(name), docs, cw, v)
	}
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = plain(v)
	}
	return out
}

// term names a TermScore: its term, or its feature number with hashing.
func term(t facade.TermScore) string {
	if t.Term == "" {
		return fmt.Sprintf("#%d", t.Feature)
	}
	return plain(t.Term)
}

// printTerms prints a class's top terms in two columns: by weight and by
// log-odds.
func printTerms(w io.Writer, c facade.ClassInfo) {
	fmt.Fprintf(w, "\n%s: most indicative terms\n", plain(c.Name))
	width := len("by weight")
	for _, t := range c.TopWeights {
		width = max(width, len(term(t)))
	}
	right := "by log-odds"
	if len(c.TopLogOdds) == 0 { // a multi-label model's labels have none
		right = ""
	}
	fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-*s  %9s    %s", width, "by weight", "weight", right), " "))
	for i := range max(len(c.TopWeights), len(c.TopLogOdds)) {
		left := strings.Repeat(" ", width+11)
		if i < len(c.TopWeights) {
			left = fmt.Sprintf("%-*s  %9.4f", width, term(c.TopWeights[i]), c.TopWeights[i].Score)
		}
		right := ""
		if i < len(c.TopLogOdds) {
			right = fmt.Sprintf("%s (%.3f)", term(c.TopLogOdds[i]), c.TopLogOdds[i].Score)
		}
		fmt.Fprintln(w, strings.TrimRight("  "+left+"    "+right, " "))
	}
}

// printColumns prints a table model's columns within a class.
func printColumns(w io.Writer, c facade.ClassInfo) {
	fmt.Fprintf(w, "\n%s:\n", plain(c.Name))
	for _, col := range c.Columns {
		switch {
		case col.Mean != nil:
			fmt.Fprintf(w, "  %-20s mean %.4g  std %.4g\n", plain(col.Name), *col.Mean, *col.Std)
		case col.Category != nil && col.Low != nil:
			fmt.Fprintf(w, "  %-20s most often in [%.4g, %.4g) (p %.3f)\n", plain(col.Name), *col.Low, *col.High, *col.Prob)
		case col.Category != nil:
			fmt.Fprintf(w, "  %-20s most often %d (p %.3f)\n", plain(col.Name), *col.Category, *col.Prob)
		}
	}
}

// describe is inspect for a multi-label model: its own settings and
// thresholds, which the facade's Info leaves out.
func (c multiClassifier) describe(w io.Writer, path string, top int, asJSON bool) error {
	info, err := c.m.Inspect(top)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if asJSON {
		return printJSON(w, info)
	}
	m := info.Multi
	reweight := reweighting(m.Reweight, m.ReweightRate)
	empty := "at least one label a document"
	if m.AllowEmpty {
		empty = "a document may get no label (allow-empty)"
	}
	fmt.Fprintf(w, "model       %s\nkind        %s\nscore       %s, %s\n", plain(path), info.Kind, m.Score, reweight)
	fmt.Fprintf(w, "settings    %s\n", info.Settings.String())
	fmt.Fprintf(w, "multi       thresholds by %d-fold cross-validation (own threshold from %d documents), title counted %d %s, %s\n",
		m.Folds, m.MinPositives, m.Title, plural(m.Title, "time", "times"), empty)
	fmt.Fprintf(w, "features    %d\nvocabulary  %d terms\nlabels      %d\n\n", info.Features, info.Terms, len(info.Labels))
	printClassTable(w, "label", "threshold", len(info.Labels), func(i int) (string, float64, float64) {
		l := info.Labels[i]
		return l.Name, l.Documents, l.Threshold
	})
	for _, l := range info.Labels {
		if len(l.TopWeights) > 0 {
			printTerms(w, facade.ClassInfo{Name: l.Name, TopWeights: l.TopWeights})
		}
	}
	return nil
}
