package textnb

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/metrics"
)

// Text reports show the confusion matrix up to textMatrix labels and the
// most confused pairs up to textPairs.
const (
	textMatrix = 40
	textPairs  = 10
	textNames  = 5 // unknown labels named
)

// WriteText writes the evaluation as textnb eval prints it, with the
// first errors of Docs, a single-label model's misclassified documents,
// listed (0: none).
func (r Report) WriteText(w io.Writer, errors int) error {
	if r.Multi != nil {
		multilabel.WriteEvaluation(w, *r.Multi)
		return nil
	}
	e := r.Eval
	fmt.Fprintf(w, "documents %d\naccuracy  %.4f\nmacro-F1  %.4f\n", e.N, e.Accuracy, e.MacroF1)
	if r.Threshold != "" {
		fmt.Fprintf(w, "threshold %s (accuracy and the confusion matrix follow it)\n", pipeline.Plain(r.Threshold))
	}
	writeProbaText(w, e)
	if unknown := e.UnknownLabels(); len(unknown) > 0 {
		names := make([]string, 0, textNames)
		for _, l := range unknown[:min(len(unknown), textNames)] {
			names = append(names, pipeline.Plain(l))
		}
		more := ""
		if len(unknown) > textNames {
			more = ", …"
		}
		fmt.Fprintf(w, "unknown   %d labels the model does not know, in %d documents: %s%s\n",
			len(unknown), e.UnknownDocs, strings.Join(names, ", "), more)
	}
	fmt.Fprintln(w)
	order := e.LabelOrder(r.ModelOrder)
	names := make([]string, len(e.Labels))
	width, num := 5, len(fmt.Sprint(len(e.Labels)))
	for i, l := range e.Labels {
		names[i] = pipeline.Plain(l)
		width = max(width, len(names[i]))
	}
	fmt.Fprintf(w, "%*s  %-*s  %9s  %9s  %9s  %7s\n", num, "#", width, "class", "precision", "recall", "f1", "support")
	for k, i := range order {
		s := e.PerClass[e.Labels[i]]
		fmt.Fprintf(w, "%*d  %-*s  %9.4f  %9.4f  %9.4f  %7d\n", num, k+1, width, names[i], s.Precision, s.Recall, s.F1, s.Support)
	}
	switch {
	case e.Confusion != nil && len(e.Labels) <= textMatrix:
		writeMatrixText(w, e, order, names, width, num)
	case len(e.Labels) > 1:
		fmt.Fprintf(w, "\nconfusion matrix left out: %d labels (eval --json has every confused pair)\n", len(e.Labels))
	}
	if len(e.Confused) > 0 {
		fmt.Fprintf(w, "\nmost confused (true → predicted: documents)\n")
		for _, p := range e.Confused[:min(len(e.Confused), textPairs)] {
			fmt.Fprintf(w, "  %s → %s: %d\n", names[p.True], names[p.Predicted], p.Count)
		}
	}
	if errors > 0 {
		docs := r.Docs[:min(errors, len(r.Docs))]
		fmt.Fprintf(w, "\nmisclassified documents (first %d of %d)\n", len(docs), e.Misclassified())
		for _, d := range docs {
			c := d.Predicted[0]
			fmt.Fprintf(w, "%s\ttrue %s\tpredicted %s\tp %.4g\n", pipeline.Plain(d.Source), pipeline.Plain(d.Truth[0]), pipeline.Plain(e.Labels[c]), d.Proba[c])
		}
	}
	return nil
}

// writeProbaText writes the probability scores, if any, and a two-class
// model's ranking scores.
func writeProbaText(w io.Writer, r metrics.Evaluation) {
	if r.ProbaScores == nil {
		return
	}
	of := ""
	if r.ProbaScores.N != r.N {
		of = fmt.Sprintf(" (of the %d documents of the model's classes)", r.ProbaScores.N)
	}
	fmt.Fprintf(w, "log loss  %.4f%s\nBrier     %.4f (Σ over classes, mean over documents)\nECE       %.4f (%d bins of the top probability)\n",
		r.LogLoss, of, r.Brier, r.ECE, metrics.ReliabilityBins)
	if b := r.BinaryScores; b != nil {
		fmt.Fprintf(w, "ROC AUC   %.4f (positive class %s)\n", b.ROCAUC, pipeline.Plain(b.Positive))
		for _, f := range metrics.RecallFPRs {
			fmt.Fprintf(w, "recall    %.4f at FPR ≤ %g\n", b.RecallAtFPR[strconv.FormatFloat(f, 'g', -1, 64)], f)
		}
	}
	fmt.Fprintf(w, "\nreliability (top probability: documents, mean confidence, accuracy)\n")
	for _, bin := range r.Reliability {
		if bin.Count > 0 {
			fmt.Fprintf(w, "  %.1f–%.1f  %7d  %.4f  %.4f\n", bin.Lo, bin.Hi, bin.Count, bin.Confidence, bin.Accuracy)
		}
	}
}

// writeMatrixText writes the confusion matrix with its rows named and
// numbered as the class table above, and its columns numbered.
func writeMatrixText(w io.Writer, r metrics.Evaluation, order []int, names []string, width, num int) {
	fmt.Fprintf(w, "\nconfusion matrix (rows: true class, columns: predicted class, numbered # as above)\n")
	cell := max(num, 3) + 1
	for _, row := range r.Confusion {
		for _, v := range row {
			cell = max(cell, len(fmt.Sprint(v))+1)
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%*s  %-*s ", num, "", width, "")
	for k := range order {
		fmt.Fprintf(&sb, "%*d", cell, k+1)
	}
	fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
	for k, i := range order {
		sb.Reset()
		for _, j := range order {
			fmt.Fprintf(&sb, "%*d", cell, r.Confusion[i][j])
		}
		fmt.Fprintf(w, "%*d  %-*s %s\n", num, k+1, width, names[i], sb.String())
	}
}
