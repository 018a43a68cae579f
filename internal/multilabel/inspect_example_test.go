package multilabel_test

import (
	"fmt"
	"log"

	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
)

// trained returns a model of testdata/multilabel.jsonl with the defaults.
func trained() *multilabel.Model {
	m, _, err := multilabel.Train(pipeline.Config{}, multilabel.Config{}, documents())
	if err != nil {
		log.Fatal(err)
	}
	return m
}

func ExampleModel_Inspect() {
	info, err := trained().Inspect(2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Multi.Score, info.Multi.Reweight, "reweighting passes")
	for _, l := range info.Labels {
		fmt.Printf("%s: %g documents, threshold %.4f, top terms %q %q\n", l.Name, l.Documents, l.Threshold, l.TopWeights[0].Term, l.TopWeights[1].Term)
	}
	// Output:
	// complement 0 reweighting passes
	// sport: 12 documents, threshold 0.2451, top terms "match" "marathon"
	// finance: 12 documents, threshold 0.4234, top terms "revenue" "profit"
	// tech: 12 documents, threshold 0.2950, top terms "software" "neural"
	// health: 12 documents, threshold 0.2155, top terms "patients" "hospital"
}

func ExamplePredictor_Explain() {
	m := trained()
	text := "The chip maker's stock jumped as revenue from servers beat forecasts"
	p := m.NewPredictor()
	for _, e := range p.Explain(text, p.Decide(nil, p.Proba(nil, text))) { // the predicted labels
		fmt.Printf("%s (p %.4f, threshold %.4f): score %.4f = bias %.4f + terms; first %q %+.4f\n",
			e.Name, e.P, e.Threshold, e.Score, e.Bias, e.Terms[0].Term, e.Terms[0].Weight)
	}
	// Output:
	// finance (p 0.7327, threshold 0.4234): score 2.9361 = bias 0.0000 + terms; first "revenue" +0.2626
}

func ExampleModel_Evaluate() {
	m := trained()
	r := m.Evaluate([]multilabel.Document{
		{Labels: []string{"sport"}, Text: "the striker scored a late goal in the cup final"},
		{Labels: []string{"finance", "tech"}, Text: "the chip maker's shares jumped on strong server revenue"},
	}, nil)
	fmt.Printf("micro-F1 %.4f, subset accuracy %.2f\n", r.MicroF1, r.SubsetAccuracy)
	// Output:
	// micro-F1 0.8000, subset accuracy 0.50
}
