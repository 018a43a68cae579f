// Command sms measures textnb on the SMS Spam Collection: a seeded shuffle,
// 80% for training and 20% for testing, with the default configuration and
// a few alternatives, as whole processes.
//
//	go run ./benchmarks/sms [-seed 1] [-seeds 5]
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
)

var configs = []struct {
	name string
	args []string
}{
	{"default (auto: mnb α 0.1 for two classes, tfidf, 1-2-grams)", nil},
	{"cnb α 0.3 (the default before auto)", []string{"--model", "cnb"}},
	{"mnb α 0.3", []string{"--model", "mnb"}},
	{"unigrams", []string{"--ngrams", "1,1"}},
}

func main() {
	seed := flag.Uint64("seed", 1, "first shuffle seed")
	seeds := flag.Int("seeds", 5, "number of seeds (the table shows the first seed and the mean)")
	flag.Parse()
	log.SetFlags(0)
	tmp, bin, cleanup := bench.Workdir("textnb-sms-")
	defer cleanup()
	docs, err := bench.ReadSMS()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("SMS Spam Collection: %d messages, 80/20 seeded shuffle (seeds %d–%d)\n\n", len(docs), *seed, *seed+uint64(*seeds)-1)
	fmt.Printf("| configuration | accuracy (seed %d) | macro-F1 (seed %d) | mean accuracy | min accuracy |\n|---|---|---|---|---|\n", *seed, *seed)
	for _, c := range configs {
		var first bench.Eval
		sum, lo := 0.0, 1.0
		for k := 0; k < *seeds; k++ {
			train, test := writeSplit(tmp, docs, *seed+uint64(k))
			e, _, _, err := bench.TrainEval(bin, filepath.Join(tmp, "m.model"), train, test, c.args)
			if err != nil {
				log.Fatal(err)
			}
			if k == 0 {
				first = e
			}
			sum += e.Accuracy
			lo = min(lo, e.Accuracy)
		}
		fmt.Printf("| %s | %.4f | %.4f | %.4f | %.4f |\n", c.name, first.Accuracy, first.MacroF1, sum/float64(*seeds), lo)
	}
}

// writeSplit writes a seeded 80/20 split as two TSV files.
func writeSplit(dir string, docs []corpus.Document, seed uint64) (string, string) {
	train, test := split.Split(len(docs), 0.2, seed)
	write := func(name string, idx []int) string {
		var b strings.Builder
		for _, i := range idx {
			fmt.Fprintf(&b, "%s\t%s\n", docs[i].Label, docs[i].Text)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
		return p
	}
	return write("train.tsv", train), write("test.tsv", test)
}
