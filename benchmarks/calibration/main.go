// Command calibration measures how well textnb's probabilities mean what
// they say: expected calibration error (ECE, 10 equal-width bins of the top
// probability) and log loss of the default configuration, uncalibrated and
// calibrated (train --calibrate), on the 20 Newsgroups test split, SMS's
// test part (80/20 seeded shuffle, seed 1, as benchmarks/sms splits it)
// and ChnSentiCorp's test set, with scikit-learn's ComplementNB and
// MultinomialNB on the same features beside.
//
//	go run ./benchmarks/calibration [-folds 10]
//	go run ./benchmarks/calibration -dump DIR [-folds 5]   # held-out scores for compare.py
package main

import (
	"flag"
	"log"
	"path/filepath"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
)

// dataset is a corpus with a training and a test part.
type dataset struct {
	name        string
	train, test func() ([]corpus.Document, error)
	textField   string
}

func datasets() []dataset {
	sms := func(test bool) func() ([]corpus.Document, error) {
		return func() ([]corpus.Document, error) {
			docs, err := bench.ReadSMS()
			if err != nil {
				return nil, err
			}
			tr, te := corpus.Split(len(docs), 0.2, 1)
			if test {
				return bench.Pick(docs, te), nil
			}
			return bench.Pick(docs, tr), nil
		}
	}
	read := func(path string, o corpus.Options) func() ([]corpus.Document, error) {
		return func() ([]corpus.Document, error) { return corpus.ReadAll(path, o) }
	}
	chn := filepath.Join(bench.Shared(), "data", "chnsenticorp")
	zh := corpus.Options{TextField: "text_a"}
	return []dataset{
		{name: "20news", train: read("/work/data/20news-bydate-train", corpus.Options{}), test: read("/work/data/20news-bydate-test", corpus.Options{})},
		{name: "sms", train: sms(false), test: sms(true)},
		{name: "chnsenticorp", train: read(filepath.Join(chn, "train.tsv"), zh), test: read(filepath.Join(chn, "test_labeled.tsv"), zh), textField: "text_a"},
	}
}

func main() {
	dumpDir := flag.String("dump", "", "write each corpus's held-out scores to this `dir` instead")
	folds := flag.Int("folds", 0, "cross-validation folds (default: train --calibrate's)")
	flag.Parse()
	log.SetFlags(0)
	if *dumpDir != "" {
		if err := dump(*dumpDir, max(*folds, 2), datasets()); err != nil {
			log.Fatal(err)
		}
		return
	}
}
