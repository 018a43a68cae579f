package multilabel_test

import (
	"fmt"
	"log"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
)

func Example() {
	tr, err := multilabel.NewTrainer(pipeline.Config{}, multilabel.Config{}) // the defaults
	if err != nil {
		log.Fatal(err)
	}
	// Each line of the file is {"labels": [...], "text": "..."}.
	_, err = corpus.WalkMulti("../../testdata/multilabel.jsonl", corpus.Options{}, func(d corpus.MultiDocument) error {
		return tr.Add(d.Labels, d.Text)
	})
	if err != nil {
		log.Fatal(err)
	}
	m, sum, err := tr.Finish()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Labels, sum.Documents)

	p := m.NewPredictor() // one per goroutine
	for _, text := range []string{
		"the striker scored a late goal in the cup final",
		"broadcasters paid record fees for match rights and the club's stock jumped",
	} {
		proba := p.Proba(nil, text)
		var labels []string
		for _, l := range p.Decide(nil, proba) { // by decreasing probability
			labels = append(labels, m.Labels[l])
		}
		fmt.Println(labels)
	}
	// Output:
	// [sport finance tech health] 37
	// [sport]
	// [finance sport]
}
