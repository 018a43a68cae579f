// Command news20 reproduces textnb's 20 Newsgroups figures: it unpacks the
// bydate archive into a temporary folder, trains and evaluates textnb in
// several configurations as whole processes, and, when python3-sklearn is
// installed, runs scikit-learn's best unigram NB pipeline in the same run.
//
//	go run ./benchmarks/news20 [-configs default,unigram,...]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"strings"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
)

type config struct {
	name string
	args []string
}

var configs = []config{
	{"default (cnb, tfidf, 1-2-grams)", nil},
	{"unigrams", []string{"--ngrams", "1,1"}},
	{"mnb", []string{"--model", "mnb"}},
	{"rennie + norm", []string{"--weighting", "rennie", "--norm"}},
	{"hash 2^20", []string{"--vectorizer", "hash"}},
	{"stem", []string{"--stem"}},
}

func main() {
	only := flag.String("configs", "", "comma-separated config names to run (default: all)")
	flag.Parse()
	log.SetFlags(0)
	tmp, bin, cleanup := bench.Workdir("textnb-20news-")
	defer cleanup()
	archive := filepath.Join(bench.Shared(), "data", "20news-bydate.tar.gz")
	start := time.Now()
	if err := bench.Untar(archive, tmp); err != nil {
		log.Fatalf("unpack %s: %v", archive, err)
	}
	log.Printf("unpacked %s in %.1fs", archive, time.Since(start).Seconds())
	train, test := filepath.Join(tmp, "20news-bydate-train"), filepath.Join(tmp, "20news-bydate-test")
	model := filepath.Join(tmp, "m.model")

	var sk *row
	if py := bench.Python(); bench.HasSklearn(py) {
		r, err := bench.Run(nil, py, filepath.Join("benchmarks", "sklearn_pipeline.py"), train, test)
		if err != nil {
			log.Fatal(err)
		}
		var e bench.Eval
		if err := json.Unmarshal([]byte(r.Stdout), &e); err != nil {
			log.Fatalf("sklearn output %q: %v", r.Stdout, err)
		}
		sk = &row{name: "scikit-learn CountVectorizer+TfidfTransformer(sublinear)+ComplementNB(0.3)", eval: e, total: r.Wall, peakKB: r.PeakKB}
	} else {
		log.Printf("scikit-learn not installed (apt-get install python3-sklearn): no comparison")
	}

	fmt.Printf("| configuration | accuracy | macro-F1 | train s | eval s | total s | peak MiB | speed-up vs sklearn |\n|---|---|---|---|---|---|---|---|\n")
	for _, c := range configs {
		if *only != "" && !strings.Contains(","+*only+",", ","+strings.Fields(c.name)[0]+",") {
			continue
		}
		e, tr, ev, err := bench.TrainEval(bin, model, train, test, c.args)
		if err != nil {
			log.Fatal(err)
		}
		r := row{name: c.name, eval: e, train: tr.Wall, evalT: ev.Wall, total: tr.Wall + ev.Wall, peakKB: max(tr.PeakKB, ev.PeakKB)}
		r.print(sk)
	}
	if sk != nil {
		sk.print(nil)
	}
}

type row struct {
	name                string
	eval                bench.Eval
	train, evalT, total time.Duration
	peakKB              int64
}

func (r row) print(sk *row) {
	ratio := "—"
	if sk != nil {
		ratio = fmt.Sprintf("%.1f×", sk.total.Seconds()/r.total.Seconds())
	}
	secs := func(d time.Duration) string {
		if d == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", d.Seconds())
	}
	fmt.Printf("| %s | %.4f | %.4f | %s | %s | %.2f | %.0f | %s |\n", r.name, r.eval.Accuracy, r.eval.MacroF1,
		secs(r.train), secs(r.evalT), r.total.Seconds(), float64(r.peakKB)/1024, ratio)
}
