package multilabel_test

import (
	"fmt"
	"log"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
)

// documents reads testdata/multilabel.jsonl.
func documents() []multilabel.Document {
	var docs []multilabel.Document
	_, err := corpus.WalkMulti("../../testdata/multilabel.jsonl", corpus.Options{}, func(d corpus.MultiDocument) error {
		docs = append(docs, multilabel.Document{Labels: d.Labels, Text: d.Text})
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	return docs
}

func ExampleTrain() {
	m, sum, err := multilabel.Train(pipeline.Config{}, multilabel.Config{}, documents())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Labels, sum.Documents, "documents, alpha", sum.Alpha)
	// Output:
	// [sport finance tech health] 37 documents, alpha 0.1
}

func ExampleCrossValidate() {
	// Three folds, each a training with the default settings.
	r, err := multilabel.CrossValidate(pipeline.Config{}, multilabel.Config{}, documents(), multilabel.CVOptions{Folds: 3})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range r.Folds {
		fmt.Printf("trained on %d, micro-F1 %.4f on %d\n", f.Train, f.Result.MicroF1, f.Test)
	}
	fmt.Printf("pooled micro-F1 %.4f, macro-F1 %.4f over %d documents\n", r.Pooled.MicroF1, r.Pooled.MacroF1, r.Pooled.N)
	// Output:
	// trained on 24, micro-F1 0.7442 on 13
	// trained on 25, micro-F1 0.5000 on 12
	// trained on 25, micro-F1 0.4706 on 12
	// pooled micro-F1 0.5872, macro-F1 0.5926 over 37 documents
}

func ExampleAssignFolds() {
	fmt.Println(multilabel.AssignFolds(7, 3, 1)) // document i goes to fold[i]
	// Output:
	// [2 0 2 1 0 0 1]
}
