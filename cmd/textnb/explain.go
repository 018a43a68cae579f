package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/textnb/textnb/corpus"
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
	e, err := c.explainText(*modelPath, text, *top)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(stdout, e)
	}
	return e.WriteText(stdout)
}

// explanation is what explain prints of a text.
type explanation interface {
	WriteText(w io.Writer) error
}

// explainText is explain for a text model.
func (c textClassifier) explainText(_, text string, top int) (explanation, error) {
	p := c.m.NewPredictor()
	proba, _ := p.Proba(nil, text)
	return p.Explain(text).Cut(proba, top), nil
}

// explainText refuses: a table model has no terms.
func (c tableClassifier) explainText(path, _ string, _ int) (explanation, error) {
	info, _ := c.Inspect(0)
	return nil, fmt.Errorf("%w: %s: explain needs a text model, not a %v table model", errUsage, path, info.Settings.Classifier)
}

// explainText is explain for a multi-label model: every predicted label
// (or, when none is, the most probable) with the terms that moved its
// score.
func (c multiClassifier) explainText(_, text string, top int) (explanation, error) {
	return c.m.NewPredictor().ExplainTop(text, top), nil
}
