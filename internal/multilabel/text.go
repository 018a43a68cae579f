package multilabel

import (
	"fmt"
	"io"

	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/metrics"
)

// The text of a multi-label model's training, description and
// explanations, as textnb prints them.

// reweighting describes passes of reweighting at rate.
func reweighting(passes int, rate float64) string {
	if passes <= 0 {
		return "no reweighting"
	}
	return fmt.Sprintf("%d reweighting passes at rate %g", passes, rate)
}

// WriteText prints s as textnb train --multi-label does, of m, trained on
// a corpus of which empty documents were empty.
func (s Summary) WriteText(w io.Writer, m *Model, empty int) error {
	fmt.Fprintf(w, "trained multi-label %v on %d documents (%d empty, %d without labels), %d labels (%.2f a document), %d features (min_df %d), lang %v, in %.2fs\n",
		m.Multi.Score, s.Documents, empty, s.Unlabeled, s.Labels, float64(s.Assignments)/float64(s.Documents), s.Features, s.MinDF, s.Lang, s.Elapsed.Seconds())
	reweight := reweighting(s.Reweight, s.ReweightRate)
	if s.OtherCVMicroF1 != 0 {
		other := fmt.Sprintf("%d passes", DefaultReweight)
		if s.Reweight > 0 {
			other = "none"
		}
		reweight += fmt.Sprintf(" (cross-validated against %s: micro-F1 %.4f)", other, s.OtherCVMicroF1)
	}
	_, err := fmt.Fprintf(w, "alpha %g, %s; thresholds by %d-fold cross-validation (micro-F1 %.4f on it), %d rare or weak labels on the global cut\n",
		s.Alpha, reweight, m.Multi.folds(), s.CVMicroF1, s.FallbackLabels)
	return err
}

// WriteText prints info as textnb inspect does: the model at path, its
// multi-label settings, its labels with their thresholds, and each label's
// top terms.
func (info Info) WriteText(w io.Writer, path string) error {
	m := info.Multi
	empty := "at least one label a document"
	if m.AllowEmpty {
		empty = "a document may get no label (allow-empty)"
	}
	fmt.Fprintf(w, "model       %s\nkind        %s\nscore       %s, %s\n", pipeline.Plain(path), info.Kind, m.Score, reweighting(m.Reweight, m.ReweightRate))
	fmt.Fprintf(w, "settings    %s\n", info.Settings.String())
	fmt.Fprintf(w, "multi       thresholds by %d-fold cross-validation (own threshold from %d documents), title counted %s, %s\n",
		m.Folds, m.MinPositives, pipeline.Plural(m.Title, "time"), empty)
	fmt.Fprintf(w, "features    %d\nvocabulary  %d terms\nlabels      %d\n\n", info.Features, info.Terms, len(info.Labels))
	pipeline.WriteClassTable(w, "label", "threshold", len(info.Labels), func(i int) (string, float64, float64) {
		l := info.Labels[i]
		return l.Name, l.Documents, l.Threshold
	})
	for _, l := range info.Labels {
		if len(l.TopWeights) > 0 {
			pipeline.ClassInfo{Name: l.Name, TopWeights: l.TopWeights}.WriteTerms(w)
		}
	}
	return nil
}

// TopLabelExplanation is a LabelExplanation cut to its top terms: Bias +
// Σ Terms[i].Weight + Rest = Score.
type TopLabelExplanation struct {
	LabelExplanation
	Rest      float64 `json:"rest"`
	RestTerms int     `json:"rest_terms"`
}

// Explained is a text's explanation as textnb explain gives it: every
// label predicted (or, when none is, the most probable), each cut to its
// top terms.
type Explained struct {
	Score     Score                 `json:"score"`
	Predicted bool                  `json:"predicted"` // false: no label reached its threshold
	Labels    []TopLabelExplanation `json:"labels"`
}

// ExplainTop explains the labels of text, each by its top terms (0: all).
func (mp *Predictor) ExplainTop(text string, top int) Explained {
	proba := mp.Proba(nil, text)
	labels := mp.Decide(nil, proba)
	x := Explained{Score: mp.mm.Multi.Score, Predicted: len(labels) > 0}
	if !x.Predicted {
		labels = tally.Ranked(nil, proba, 1)
	}
	for _, e := range mp.Explain(text, labels) {
		l := TopLabelExplanation{LabelExplanation: e}
		l.Terms, l.Rest, l.RestTerms = e.Top(top)
		x.Labels = append(x.Labels, l)
	}
	return x
}

// WriteText prints x as textnb explain does: each label's score, then a
// line per term.
func (x Explained) WriteText(w io.Writer) error {
	what := "score against the labels' mean"
	if x.Score == OddsScore {
		what = "log-odds"
	}
	if !x.Predicted {
		fmt.Fprintln(w, "no label reaches its threshold; the most probable:")
	}
	for i, e := range x.Labels {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (p %.4g, threshold %.4g): %s %.4f\n", pipeline.Plain(e.Name), e.P, e.Threshold, what, e.Score)
		if err := pipeline.WriteParts(w, e.Terms, e.Rest, e.RestTerms, e.Bias, e.Score, "score"); err != nil {
			return err
		}
	}
	return nil
}

// Inline formats e's terms on one line, as textnb predict --explain
// does: "LABEL: term +0.41, term -0.12".
func (e LabelExplanation) Inline() string {
	return pipeline.Plain(e.Name) + ":" + pipeline.InlineTerms(e.Terms)
}

// WriteEvaluation writes a multi-label evaluation as textnb eval does.
func WriteEvaluation(w io.Writer, r metrics.MultiEvaluation) {
	fmt.Fprintf(w, "documents        %d\nmicro P/R/F1     %.4f  %.4f  %.4f\nmacro P/R/F1     %.4f  %.4f  %.4f\n",
		r.N, r.MicroPrecision, r.MicroRecall, r.MicroF1, r.MacroPrecision, r.MacroRecall, r.MacroF1)
	fmt.Fprintf(w, "subset accuracy  %.4f\nHamming loss     %.4f\nbreakeven        %.4f micro, %.4f macro\n\n",
		r.SubsetAccuracy, r.HammingLoss, r.MicroBreakeven, r.MacroBreakeven)
	width := 5
	for _, l := range r.Labels {
		width = max(width, len(l))
	}
	fmt.Fprintf(w, "%-*s  %9s  %9s  %9s  %9s  %7s  %9s\n", width, "label", "precision", "recall", "f1", "breakeven", "support", "predicted")
	for _, l := range r.Labels {
		s := r.PerLabel[l]
		fmt.Fprintf(w, "%-*s  %9.4f  %9.4f  %9.4f  %9.4f  %7d  %9d\n", width, l, s.Precision, s.Recall, s.F1, s.Breakeven, s.Support, s.Predicted)
	}
}
