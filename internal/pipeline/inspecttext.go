package pipeline

import (
	"fmt"
	"io"
	"strings"
)

// The text of Info, as textnb inspect prints it.

// WriteText prints info as textnb inspect does: the model at path, its
// settings, its classes, and each class's top terms or columns.
func (info Info) WriteText(w io.Writer, path string) error {
	s := info.Settings
	fmt.Fprintf(w, "model       %s\nkind        %s\nclassifier  %s\n", Plain(path), info.Kind, s.Classifier)
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
		fmt.Fprintf(w, "columns     %s\n", strings.Join(plainAll(info.Columns), ", "))
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
			fmt.Fprintf(w, "; new classes %s", strings.Join(plainAll(l.NewClasses), ", "))
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
		fmt.Fprintf(w, "threshold   %s: predicts %s iff p(%s) ≥ %s, else the other class\n", Plain(s.Threshold), Plain(label), Plain(label), p)
	}
	fmt.Fprintln(w)
	WriteClassTable(w, "class", "prior", len(info.Classes), func(i int) (string, float64, float64) {
		c := info.Classes[i]
		return c.Name, c.Documents, c.Prior
	})
	for _, c := range info.Classes {
		switch {
		case len(c.TopWeights) > 0 || len(c.TopLogOdds) > 0:
			c.WriteTerms(w)
		case len(c.Columns) > 0:
			c.writeColumns(w)
		}
	}
	return nil
}

// WriteClassTable prints n classes (or labels), each's name, documents
// and value under the column's heading, one a line.
func WriteClassTable(w io.Writer, kind, column string, n int, row func(i int) (name string, docs, value float64)) {
	width, cw := len(kind), max(7, len(column))
	for i := range n {
		name, _, _ := row(i)
		width = max(width, len(Plain(name)))
	}
	fmt.Fprintf(w, "%-*s  %10s  %*s\n", width, kind, "documents", cw, column)
	for i := range n {
		name, docs, v := row(i)
		fmt.Fprintf(w, "%-*s  %10.6g  %*.4f\n", width, Plain(name), docs, cw, v)
	}
}

func plainAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = Plain(v)
	}
	return out
}

// name is t's term, or its feature number with hashing.
func (t TermScore) name() string {
	if t.Term == "" {
		return fmt.Sprintf("#%d", t.Feature)
	}
	return Plain(t.Term)
}

// WriteTerms prints c's top terms in two columns: by weight and by
// log-odds.
func (c ClassInfo) WriteTerms(w io.Writer) {
	fmt.Fprintf(w, "\n%s: most indicative terms\n", Plain(c.Name))
	width := len("by weight")
	for _, t := range c.TopWeights {
		width = max(width, len(t.name()))
	}
	right := "by log-odds"
	if len(c.TopLogOdds) == 0 { // a multi-label model's labels have none
		right = ""
	}
	fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("  %-*s  %9s    %s", width, "by weight", "weight", right), " "))
	for i := range max(len(c.TopWeights), len(c.TopLogOdds)) {
		left := strings.Repeat(" ", width+11)
		if i < len(c.TopWeights) {
			left = fmt.Sprintf("%-*s  %9.4f", width, c.TopWeights[i].name(), c.TopWeights[i].Score)
		}
		right := ""
		if i < len(c.TopLogOdds) {
			right = fmt.Sprintf("%s (%.3f)", c.TopLogOdds[i].name(), c.TopLogOdds[i].Score)
		}
		fmt.Fprintln(w, strings.TrimRight("  "+left+"    "+right, " "))
	}
}

// writeColumns prints a table model's columns within class c.
func (c ClassInfo) writeColumns(w io.Writer) {
	fmt.Fprintf(w, "\n%s:\n", Plain(c.Name))
	for _, col := range c.Columns {
		switch {
		case col.Mean != nil:
			fmt.Fprintf(w, "  %-20s mean %.4g  std %.4g\n", Plain(col.Name), *col.Mean, *col.Std)
		case col.Category != nil && col.Low != nil:
			fmt.Fprintf(w, "  %-20s most often in [%.4g, %.4g) (p %.3f)\n", Plain(col.Name), *col.Low, *col.High, *col.Prob)
		case col.Category != nil:
			fmt.Fprintf(w, "  %-20s most often %d (p %.3f)\n", Plain(col.Name), *col.Category, *col.Prob)
		}
	}
}
