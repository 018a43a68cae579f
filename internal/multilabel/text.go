package multilabel

import (
	"fmt"
	"io"

	"github.com/textnb/textnb/internal/pipeline"
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
	fmt.Fprintf(w, "multi       thresholds by %d-fold cross-validation (own threshold from %d documents), title counted %d %s, %s\n",
		m.Folds, m.MinPositives, m.Title, plural(m.Title, "time", "times"), empty)
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
