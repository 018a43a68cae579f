package pipeline

import (
	"fmt"
	"io"
	"strings"
)

// The text of explanations, as textnb explain and predict --explain print
// them.

// TopExplanation is an Explanation cut to its top terms, with the
// probabilities of its two classes: Bias + Σ Terms[i].Weight + Rest =
// Margin.
type TopExplanation struct {
	Label     string         `json:"label"`
	P         float64        `json:"p"`
	RunnerUp  string         `json:"runner_up"`
	PRunnerUp float64        `json:"p_runner_up"`
	Margin    float64        `json:"margin"`
	Bias      float64        `json:"bias"`
	Terms     []Contribution `json:"terms"`
	Rest      float64        `json:"rest"`       // the contributions of the terms left out
	RestTerms int            `json:"rest_terms"` // how many they are
	Whole     Explanation    `json:"-"`          // uncut
}

// Cut keeps the top terms of e (all if top is 0); proba are the class
// probabilities of the same text.
func (e Explanation) Cut(proba []float64, top int) TopExplanation {
	x := TopExplanation{Label: e.Label, P: proba[e.Class], RunnerUp: e.RunnerUpLabel, PRunnerUp: proba[e.RunnerUp],
		Margin: e.Margin, Bias: e.Bias, Whole: e}
	x.Terms, x.Rest, x.RestTerms = e.Top(top)
	if x.Terms == nil {
		x.Terms = []Contribution{}
	}
	return x
}

// WriteText prints e as textnb explain does: the two classes, then a
// line per term.
func (e TopExplanation) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s (p %.4g) over %s (p %.4g): margin %.4f\n", Plain(e.Label), e.P, Plain(e.RunnerUp), e.PRunnerUp, e.Margin)
	return WriteParts(w, e.Terms, e.Rest, e.RestTerms, e.Bias, e.Margin, "margin")
}

// WriteParts prints what sums to an explained total, one part a line: the
// terms, the others, the bias, then the total.
func WriteParts(w io.Writer, terms []Contribution, rest float64, others int, bias, total float64, what string) error {
	for _, c := range terms {
		fmt.Fprintf(w, "  %+9.4f  %s\n", c.Weight, Plain(c.Term))
	}
	if others > 0 {
		fmt.Fprintf(w, "  %+9.4f  (%s)\n", rest, Plural(others, "other term"))
	}
	_, err := fmt.Fprintf(w, "  %+9.4f  (bias: what no term carries)\n  %9.4f  = %s\n", bias, total, what)
	return err
}

// Inline formats e's terms on one line, as a column of textnb predict
// --explain: "over RUNNER-UP: term +0.41, term -0.12".
func (e TopExplanation) Inline() string {
	return "over " + Plain(e.RunnerUp) + ":" + InlineTerms(e.Terms)
}

// InlineTerms formats terms as " term +0.41, term -0.12".
func InlineTerms(terms []Contribution) string {
	var b strings.Builder
	for i, c := range terms {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %+.4f", Plain(c.Term), c.Weight)
	}
	return b.String()
}
