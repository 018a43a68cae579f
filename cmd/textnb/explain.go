package main

import (
	"fmt"
	"io"
	"strings"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/nb"
)

func runExplain(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("explain", "explain -m MODEL [--top N] [--json] TEXT…|-\n\n"+
		"Classifies one text (the arguments joined by spaces, or all of standard input for -) and lists\n"+
		"the terms that moved the decision: each term's signed contribution to the score of the predicted\n"+
		"class against the runner-up. The contributions, the terms left out and the bias (what no term\n"+
		"carries, such as the class priors) sum to the margin between the two classes' scores.\n\n"+
		"With a multi-label model, each predicted label's score: its log-odds (--multi-score odds) or its\n"+
		"score less the mean of the labels' scores (complement, whose softmax sees only differences), and the\n"+
		"terms' contributions to it; a document given no label (--allow-empty) explains its most probable", stderr)
	modelPath := fs.String("m", "", "model `file` (required; a text or multi-label model)")
	top := fs.Int("top", 10, "list the N terms with the largest contributions (0: all)")
	asJSON := fs.Bool("json", false, "print the explanation as one JSON object")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || len(pos) == 0 {
		return fmt.Errorf("%w: need -m MODEL and a TEXT or - (see --help)", errUsage)
	}
	if *top < 0 {
		return fmt.Errorf("%w: --top %d: want N ≥ 0", errUsage, *top)
	}
	text := strings.Join(pos, " ")
	if len(pos) == 1 && pos[0] == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		text = corpus.Decode(data)
	}
	c, err := openClassifier(*modelPath, &inputs{})
	if err != nil {
		return err
	}
	return c.explainText(stdout, *modelPath, text, *top, *asJSON)
}

// explainText is explain for a text model.
func (c textClassifier) explainText(w io.Writer, _, text string, top int, asJSON bool) error {
	p := c.m.NewPredictor()
	proba, _ := p.Proba(nil, text)
	e := summarize(p.Explain(text), proba, top)
	if asJSON {
		return printJSON(w, e)
	}
	printExplained(w, e)
	return nil
}

// explainText refuses: a table model has no terms.
func (c tableClassifier) explainText(_ io.Writer, path, _ string, _ int, _ bool) error {
	info, _ := c.Inspect(0)
	return fmt.Errorf("%w: %s: explain needs a text model, not a %v table model", errUsage, path, info.Settings.Classifier)
}

// explained is an Explanation cut to its top terms, for printing:
// Bias + Σ Terms[i].Weight + Rest = Margin.
type explained struct {
	Label     string                `json:"label"`
	P         float64               `json:"p"`
	RunnerUp  string                `json:"runner_up"`
	PRunnerUp float64               `json:"p_runner_up"`
	Margin    float64               `json:"margin"`
	Bias      float64               `json:"bias"`
	Terms     []facade.Contribution `json:"terms"`
	Rest      float64               `json:"rest"`       // the contributions of the terms left out
	RestTerms int                   `json:"rest_terms"` // how many they are
	whole     facade.Explanation    // uncut, for eval's report
}

// summarize keeps the top terms of e (all if top is 0); proba are the
// class probabilities of the same text.
func summarize(e facade.Explanation, proba []float64, top int) explained {
	x := explained{Label: e.Label, P: proba[e.Class], RunnerUp: e.RunnerUpLabel, PRunnerUp: proba[e.RunnerUp],
		Margin: e.Margin, Bias: e.Bias, whole: e}
	x.Terms, x.Rest, x.RestTerms = e.Top(top)
	if x.Terms == nil {
		x.Terms = []facade.Contribution{}
	}
	return x
}

func printExplained(w io.Writer, e explained) {
	fmt.Fprintf(w, "%s (p %.4g) over %s (p %.4g): margin %.4f\n", plain(e.Label), e.P, plain(e.RunnerUp), e.PRunnerUp, e.Margin)
	printParts(w, e.Terms, e.Rest, e.RestTerms, e.Bias, e.Margin, "margin")
}

// printParts prints what sums to an explained total, one part a line: the
// terms, the others, the bias, then the total.
func printParts(w io.Writer, terms []facade.Contribution, rest float64, others int, bias, total float64, what string) {
	for _, c := range terms {
		fmt.Fprintf(w, "  %+9.4f  %s\n", c.Weight, plain(c.Term))
	}
	if others > 0 {
		fmt.Fprintf(w, "  %+9.4f  (%d other %s)\n", rest, others, plural(others, "term", "terms"))
	}
	fmt.Fprintf(w, "  %+9.4f  (bias: what no term carries)\n  %9.4f  = %s\n", bias, total, what)
}

// inline formats the top terms of e on one line, for a column of
// predict's output.
func (e explained) inline() string {
	return "over " + plain(e.RunnerUp) + ":" + inlineTerms(e.Terms)
}

// inlineTerms formats terms as " term +0.41, term -0.12".
func inlineTerms(terms []facade.Contribution) string {
	var b strings.Builder
	for i, c := range terms {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %+.4f", plain(c.Term), c.Weight)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// explainedLabel is a facade.LabelExplanation cut to its top terms:
// Bias + Σ Terms[i].Weight + Rest = Score.
type explainedLabel struct {
	facade.LabelExplanation
	Rest      float64 `json:"rest"`
	RestTerms int     `json:"rest_terms"`
}

// explainText is explain for a multi-label model: every predicted label
// (or, when none is, the most probable) with the terms that moved its
// score.
func (c multiClassifier) explainText(w io.Writer, _, text string, top int, asJSON bool) error {
	mm := c.m
	p := mm.NewPredictor()
	proba := p.Proba(nil, text)
	labels := p.Decide(nil, proba)
	none := len(labels) == 0
	if none {
		labels = nb.Ranked(nil, proba, 1)
	}
	var out []explainedLabel
	for _, e := range p.Explain(text, labels) {
		x := explainedLabel{LabelExplanation: e}
		x.Terms, x.Rest, x.RestTerms = e.Top(top)
		out = append(out, x)
	}
	if asJSON {
		return printJSON(w, struct {
			Score     any              `json:"score"`     // a MultiLabelConfig.Score
			Predicted bool             `json:"predicted"` // false: no label reached its threshold
			Labels    []explainedLabel `json:"labels"`
		}{mm.Multi.Score, !none, out})
	}
	what := "score against the labels' mean"
	if mm.Multi.Score == facade.OddsScore {
		what = "log-odds"
	}
	if none {
		fmt.Fprintln(w, "no label reaches its threshold; the most probable:")
	}
	for i, e := range out {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (p %.4g, threshold %.4g): %s %.4f\n", plain(e.Name), e.P, e.Threshold, what, e.Score)
		printParts(w, e.Terms, e.Rest, e.RestTerms, e.Bias, e.Score, "score")
	}
	return nil
}
