// Command news20 reproduces textnb's 20 Newsgroups figures: it unpacks the
// bydate archive into a temporary folder, trains and evaluates textnb in
// several configurations as whole processes, and, when python3-sklearn is
// installed, runs scikit-learn's best unigram NB pipeline in the same run.
//
//	go run ./benchmarks/news20 [-configs default,unigrams,...] [-runs 3]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
)

type config struct {
	name string
	args []string
}

var configs = []config{
	{"default (cnb, tfidf, 1-2-grams; α chosen by 5-fold cv)", nil},
	// The rest train fixed settings (--fast): what each costs and scores
	// without the choice.
	{"--fast (cnb α 0.3, tfidf, 1-2-grams)", []string{"--fast"}},
	{"--fast unigrams", []string{"--fast", "--ngrams", "1,1"}},
	{"--fast mnb", []string{"--fast", "--model", "mnb"}},
	{"--fast rennie + norm", []string{"--fast", "--weighting", "rennie", "--norm"}},
	{"--fast hash 2^20", []string{"--fast", "--vectorizer", "hash"}},
	{"--fast stem", []string{"--fast", "--stem"}},
}

func main() {
	only := flag.String("configs", "", "comma-separated config names to run (default: all)")
	runs := flag.Int("runs", 3, "runs of every process; times are medians, peaks maxima")
	flag.Parse()
	log.SetFlags(0)
	tmp, bin, cleanup := bench.Workdir("textnb-20news-")
	defer cleanup()
	start := time.Now()
	train, test, err := bench.Unpack20News(tmp)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("unpacked 20 Newsgroups in %.1fs", time.Since(start).Seconds())
	model := filepath.Join(tmp, "m.model")

	var chosen []config
	for _, c := range configs {
		if *only == "" || strings.Contains(","+*only+",", ","+strings.Fields(c.name)[0]+",") {
			chosen = append(chosen, c)
		}
	}
	py := bench.Python()
	withSklearn := bench.HasSklearn(py)
	if !withSklearn {
		log.Printf("scikit-learn not installed (apt-get install python3-sklearn): no comparison")
	}
	// Rounds alternate scikit-learn and every configuration, so that a
	// slow spell of the machine weighs on all of them alike.
	var sk *row
	rows := make([]*row, len(chosen))
	for range max(*runs, 1) {
		if withSklearn {
			sk = sk.add(sklearn(py, train, test))
		}
		for i, c := range chosen {
			e, tr, ev, err := bench.TrainEval(bin, model, train, test, c.args)
			if err != nil {
				log.Fatal(err)
			}
			rows[i] = rows[i].add(row{name: c.name, eval: e, train: []time.Duration{tr.Wall}, evalT: []time.Duration{ev.Wall},
				peakKB: max(tr.PeakKB, ev.PeakKB)})
		}
	}
	fmt.Printf("%s; medians of %d runs\n\n", "20 Newsgroups bydate, whole processes", max(*runs, 1))
	fmt.Printf("| configuration | accuracy | macro-F1 | train s | eval s | total s | peak MiB | speed-up vs sklearn |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		r.print(sk)
	}
	if sk != nil {
		sk.print(nil)
	}
}

// sklearn runs the scikit-learn pipeline as one process.
func sklearn(py, train, test string) row {
	r, err := bench.Run(nil, py, filepath.Join("benchmarks", "sklearn_pipeline.py"), train, test)
	if err != nil {
		log.Fatal(err)
	}
	var e bench.Eval
	if err := json.Unmarshal([]byte(r.Stdout), &e); err != nil {
		log.Fatalf("sklearn output %q: %v", r.Stdout, err)
	}
	return row{name: "scikit-learn CountVectorizer+TfidfTransformer(sublinear)+ComplementNB(0.3)", eval: e,
		total: []time.Duration{r.Wall}, peakKB: r.PeakKB}
}

type row struct {
	name                string
	eval                bench.Eval
	train, evalT, total []time.Duration // one per run
	peakKB              int64
}

// add returns r with the run of s added (r may be nil).
func (r *row) add(s row) *row {
	if len(s.train) > 0 {
		s.total = []time.Duration{s.train[0] + s.evalT[0]}
	}
	if r == nil {
		return &s
	}
	r.train, r.evalT, r.total = append(r.train, s.train...), append(r.evalT, s.evalT...), append(r.total, s.total...)
	r.peakKB = max(r.peakKB, s.peakKB)
	return r
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

func (r *row) print(sk *row) {
	ratio := "—"
	if sk != nil {
		ratio = fmt.Sprintf("%.1f×", median(sk.total).Seconds()/median(r.total).Seconds())
	}
	secs := func(d []time.Duration) string {
		if len(d) == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", median(d).Seconds())
	}
	fmt.Printf("| %s | %.4f | %.4f | %s | %s | %.2f | %.0f | %s |\n", r.name, r.eval.Accuracy, r.eval.MacroF1,
		secs(r.train), secs(r.evalT), median(r.total).Seconds(), float64(r.peakKB)/1024, ratio)
}
