package pipeline

import (
	"fmt"
	"io"
	"strconv"

	"github.com/textnb/textnb/metrics"
)

// OnlineReport is an online evaluation as textnb eval --online prints it.
type OnlineReport struct {
	Corpus string `json:"corpus"`
	// Order is the order used: name, date, mtime or list.
	Order   string `json:"order"`
	Learn   string `json:"learn"` // all, or errors
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

// onlineScores are the scores of a run of documents, with 1 − ROC AUC in
// percent as the TREC spam track reports it.
type onlineScores struct {
	metrics.Evaluation
	OneMinusAUCPct *float64 `json:"one_minus_auc_pct,omitempty"`
}

func newOnlineScores(e *metrics.Evaluation) onlineScores {
	s := onlineScores{Evaluation: *e}
	if e.BinaryScores != nil {
		pct := 100 * (1 - e.ROCAUC)
		s.OneMinusAUCPct = &pct
	}
	return s
}

// SetScores sets the scores of every document, and of those after the
// warmup if afterWarmup is not nil.
func (r *OnlineReport) SetScores(all, afterWarmup *metrics.Evaluation) {
	r.All = newOnlineScores(all)
	if afterWarmup != nil {
		s := newOnlineScores(afterWarmup)
		r.AfterWarmup = &s
	}
}

// WriteText prints r as textnb eval --online does, the classes by name or
// in the model's order.
func (r *OnlineReport) WriteText(w io.Writer, modelOrder bool) error {
	order := map[string]string{"name": "file names", "date": "the messages' dates", "mtime": "modification times", "list": "the order list"}[r.Order]
	feedback := "each classified, then learned"
	if r.Batch > 1 {
		feedback = fmt.Sprintf("classified in batches of %d, then learned", r.Batch)
	}
	fmt.Fprintf(w, "online  %d documents of %s in time order by %s, %s (--learn %s)\n", r.Documents, Plain(r.Corpus), order, feedback, r.Learn)
	start := "an empty model"
	if r.Start != "empty" {
		start = Plain(r.Start)
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
	for _, i := range r.All.Evaluation.LabelOrder(modelOrder) {
		name := r.All.Labels[i]
		row("recall "+Plain(name), func(s onlineScores) string { return fmt.Sprintf("%.4f", s.PerClass[name].Recall) })
	}
	if r.All.BinaryScores != nil {
		row("ROC AUC ("+Plain(r.All.Positive)+")", func(s onlineScores) string {
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
	return nil
}
