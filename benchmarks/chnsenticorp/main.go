// Command chnsenticorp measures textnb on ChnSentiCorp (train on train.tsv,
// test on test_labeled.tsv) with --lang auto and the default settings, and
// the time from process start to the first prediction for a Chinese and an
// English model.
//
//	go run ./benchmarks/chnsenticorp
package main

import (
	"fmt"
	"log"
	"path/filepath"

	"github.com/textnb/textnb/benchmarks/internal/bench"
)

var configs = []struct {
	name string
	args []string
}{
	{"default (--lang auto)", nil},
	{"words only (no char n-grams)", []string{"--char-ngrams", "none"}},
	{"char 1-3-grams", []string{"--char-ngrams", "1,3"}},
}

func main() {
	log.SetFlags(0)
	tmp, bin, cleanup := bench.Workdir("textnb-chn-")
	defer cleanup()
	dir := filepath.Join(bench.Shared(), "data", "chnsenticorp")
	train, test := filepath.Join(dir, "train.tsv"), filepath.Join(dir, "test_labeled.tsv")
	model := filepath.Join(tmp, "zh.model")
	fmt.Printf("| configuration | accuracy | macro-F1 | train s | eval s | peak MiB |\n|---|---|---|---|---|---|\n")
	for _, c := range configs {
		e, tr, ev, err := bench.TrainEval(bin, model, train, test, append([]string{"--text-field", "text_a"}, c.args...))
		if err != nil {
			log.Printf("%s: %v", c.name, err)
			continue
		}
		fmt.Printf("| %s | %.4f | %.4f | %.2f | %.2f | %s |\n", c.name, e.Accuracy, e.MacroF1,
			tr.Wall.Seconds(), ev.Wall.Seconds(), bench.MiB(max(tr.PeakKB, ev.PeakKB)))
	}
	if _, _, _, err := bench.TrainEval(bin, model, train, test, []string{"--text-field", "text_a"}); err != nil {
		log.Fatal(err)
	}
	en := filepath.Join(tmp, "en.model")
	if _, err := bench.Run(nil, bin, "train", filepath.Join("testdata", "news", "train"), "-o", en); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\n| process start → first prediction | wall ms | peak MiB |\n|---|---|---|\n")
	for _, p := range []struct{ name, model, text string }{
		{"English model, English text", en, "The striker scored twice before half time"},
		{"Chinese model, Chinese text", model, "房间很干净，服务也很好，下次还会再来"},
	} {
		best := bench.Result{}
		for range 5 {
			r, err := bench.FirstPrediction(bin, p.model, p.text)
			if err != nil {
				log.Fatal(err)
			}
			if best.Wall == 0 || r.Wall < best.Wall {
				best = r
			}
		}
		fmt.Printf("| %s | %.0f | %s |\n", p.name, best.Wall.Seconds()*1000, bench.MiB(best.PeakKB))
	}
}
