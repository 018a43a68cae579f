// Command reuters measures textnb's multi-label training on Reuters-21578
// (ModApte): 5-fold cross-validated micro- and macro-F1 on the training
// stories for the default and the main alternatives, the test split's
// scores when a test file is given, and scikit-learn's OneVsRest
// MultinomialNB (α 0.01, counts) and ComplementNB (TF-IDF), with LinearSVC
// as the yardstick, on the same folds when python3-sklearn is installed.
// Then it times whole processes, alternating, medians of -runs: textnb's
// default training (train --multi-label, then eval on the test file, or
// on the training file without one) against scikit-learn's sublinear
// TF-IDF + OneVsRest(LinearSVC) fitted and predicting the same, and with
// -time-cv, textnb cv --multi-label against one training.
//
//	go run ./benchmarks/reuters [-train FILE] [-test FILE] [-folds 5] [-configs default,odds] [-runs 3] [-time-cv] [-time-only]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/tokenize"
)

type config struct {
	name string
	set  func(*pipeline.Config, *multilabel.Config)
}

var configs = []config{
	{"default", func(*pipeline.Config, *multilabel.Config) {}},
	{"plain", func(_ *pipeline.Config, m *multilabel.Config) { m.Reweight = -1 }},
	{"reweight3", func(_ *pipeline.Config, m *multilabel.Config) { m.Reweight = 3 }},
	{"title1", func(_ *pipeline.Config, m *multilabel.Config) { m.Title = 1 }},
	{"odds", func(_ *pipeline.Config, m *multilabel.Config) { m.Score = multilabel.OddsScore }},
	{"unigrams", func(c *pipeline.Config, _ *multilabel.Config) {
		c.Tokenize.WordNGrams = tokenize.NGramRange{Min: 1, Max: 1}
	}},
	{"counts", func(c *pipeline.Config, _ *multilabel.Config) { c.Weighting = pipeline.RawCounts }},
	{"rennie", func(c *pipeline.Config, _ *multilabel.Config) { c.Weighting = pipeline.Rennie }},
	{"alpha0.3", func(c *pipeline.Config, _ *multilabel.Config) { c.Alpha = 0.3 }},
	{"folds10", func(_ *pipeline.Config, m *multilabel.Config) { m.Folds = 10 }},
	{"allow-empty", func(_ *pipeline.Config, m *multilabel.Config) { m.AllowEmpty = true }},
	{"chi2-10k", func(c *pipeline.Config, _ *multilabel.Config) {
		c.Select = pipeline.Selection{Method: pipeline.Chi2, K: 10000}
	}},
}

func main() {
	trainPath := flag.String("train", filepath.Join(bench.Shared(), "data", "reuters21578-modapte-train.jsonl"), "training stories (.jsonl with a labels array)")
	testPath := flag.String("test", "", "test stories in the same format (optional)")
	folds := flag.Int("folds", 5, "cross-validation folds")
	seed := flag.Uint64("seed", 1, "fold shuffle seed")
	only := flag.String("configs", "", "comma-separated configurations to run (default all)")
	noSklearn := flag.Bool("no-sklearn", false, "skip scikit-learn")
	runs := flag.Int("runs", 3, "runs of each timed whole process (0: no timing)")
	timeCV := flag.Bool("time-cv", false, "also time textnb cv --multi-label --folds -folds, once a run")
	timeOnly := flag.Bool("time-only", false, "only time the whole processes (no cross-validation tables)")
	flag.Parse()
	log.SetFlags(0)
	train, err := read(*trainPath)
	if err != nil {
		log.Fatal(err)
	}
	var test []multilabel.Document
	if *testPath != "" {
		if test, err = read(*testPath); err != nil {
			log.Fatal(err)
		}
	}
	haveSklearn := !*noSklearn && bench.HasSklearn(bench.Python())
	if *timeOnly {
		timeProcesses(*trainPath, *testPath, max(*runs, 1), haveSklearn, *timeCV, *folds)
		return
	}
	fmt.Printf("Reuters-21578 ModApte: %d training stories, %d-fold cross-validation (seed %d)", len(train), *folds, *seed)
	if test != nil {
		fmt.Printf(", %d test stories", len(test))
	}
	fmt.Printf("\n\n| configuration | CV micro-F1 | CV macro-F1 | train s/fold | reweighting passes/rate by fold |")
	if test != nil {
		fmt.Printf(" test micro-F1 | test macro-F1 | test breakeven |")
	}
	fmt.Printf("\n|---|---|---|---|---|%s\n", strings.Repeat("---|", 3*tally.BoolInt(test != nil)))
	for _, c := range configs {
		if *only != "" && !strings.Contains(","+*only+",", ","+c.name+",") {
			continue
		}
		var cfg pipeline.Config
		var mc multilabel.Config
		c.set(&cfg, &mc)
		r, err := multilabel.CrossValidate(cfg, mc, train, multilabel.CVOptions{Folds: *folds, Seed: *seed})
		if err != nil {
			log.Fatal(err)
		}
		var elapsed time.Duration
		passes := make([]string, len(r.Folds)) // each fold's choice under automatic reweighting
		for i, f := range r.Folds {
			elapsed += f.TrainTime
			passes[i] = fmt.Sprintf("%d/%g", f.Reweight, f.ReweightRate)
		}
		fmt.Printf("| textnb %s | %.4f | %.4f | %.2f | %s |", c.name, r.Pooled.MicroF1, r.MacroF1.Mean, elapsed.Seconds()/float64(*folds), strings.Join(passes, " "))
		if test != nil {
			mm, _, err := multilabel.Train(cfg, mc, train)
			if err != nil {
				log.Fatal(err)
			}
			r := mm.Evaluate(test, nil)
			fmt.Printf(" %.4f | %.4f | %.4f |", r.MicroF1, r.MacroF1, r.MicroBreakeven)
		}
		fmt.Println()
	}
	if haveSklearn {
		sklearn(*trainPath, *testPath, multilabel.AssignFolds(len(train), *folds, *seed), *folds)
	} else {
		fmt.Println("\n(scikit-learn not run)")
	}
	if *runs > 0 {
		timeProcesses(*trainPath, *testPath, *runs, haveSklearn, *timeCV, *folds)
	}
}

// timed is a whole process's measurements over the runs.
type timed struct {
	wall, cpu []time.Duration
	peakKB    int64
	microF1   float64
}

func (t *timed) add(rs ...bench.Result) {
	var wall, cpu time.Duration
	for _, r := range rs {
		wall, cpu, t.peakKB = wall+r.Wall, cpu+r.CPU, max(t.peakKB, r.PeakKB)
	}
	t.wall, t.cpu = append(t.wall, wall), append(t.cpu, cpu)
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

// timeProcesses prints the whole-process table: textnb's training (and
// its evaluation) against scikit-learn's fit and predict, run by run in
// alternating order, and textnb cv against one training.
func timeProcesses(trainPath, testPath string, runs int, haveSklearn, timeCV bool, folds int) {
	dir, bin, cleanup := bench.Workdir("reuters-time-")
	defer cleanup()
	predict := testPath
	if predict == "" {
		predict = trainPath
	}
	model := filepath.Join(dir, "m.model")
	script := filepath.Join(bench.Root(), "benchmarks", "reuters", "sklearn_reuters.py")
	var tn, sk, cv timed
	var trainWall []time.Duration // train alone, for cv
	for run := range runs {
		for turn := range 2 {
			if (run+turn)%2 == 0 {
				tr, err := bench.Run(nil, bin, "train", trainPath, "--multi-label", "-o", model)
				if err != nil {
					log.Fatal(err)
				}
				ev, err := bench.Run(nil, bin, "eval", "-m", model, "--json", predict)
				if err != nil {
					log.Fatal(err)
				}
				var e struct {
					MicroF1 float64 `json:"micro_f1"`
				}
				if err := json.Unmarshal([]byte(ev.Stdout), &e); err != nil {
					log.Fatalf("textnb eval --json: %v", err)
				}
				tn.add(tr, ev)
				trainWall = append(trainWall, tr.Wall)
				tn.microF1 = e.MicroF1
			} else if haveSklearn {
				r, err := bench.Run(nil, bench.Python(), script, "--time", trainPath, predict)
				if err != nil {
					log.Fatal(err)
				}
				sk.add(r)
				fmt.Sscan(r.Stdout, &sk.microF1)
			}
		}
		if timeCV {
			r, err := bench.Run(nil, bin, "cv", trainPath, "--multi-label", "--folds", fmt.Sprint(folds))
			if err != nil {
				log.Fatal(err)
			}
			cv.add(r)
		}
	}
	fmt.Printf("\nWhole processes on %s, predicting %s: medians of %d runs, alternating\n\n", filepath.Base(trainPath), filepath.Base(predict), runs)
	fmt.Println("| process | wall s | CPU s | peak MiB | micro-F1 predicted | wall ÷ scikit-learn's |")
	fmt.Println("|---|---|---|---|---|---|")
	ratio := func(t timed) string {
		if len(sk.wall) == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f×", median(t.wall).Seconds()/median(sk.wall).Seconds())
	}
	row := func(name string, t timed, f1 string, r string) {
		fmt.Printf("| %s | %.2f | %.2f | %s | %s | %s |\n", name, median(t.wall).Seconds(), median(t.cpu).Seconds(), bench.MiB(t.peakKB), f1, r)
	}
	row("textnb train --multi-label + eval", tn, fmt.Sprintf("%.4f", tn.microF1), ratio(tn))
	if len(sk.wall) > 0 {
		row("scikit-learn sublinear TF-IDF + OneVsRest(LinearSVC) fit + predict", sk, fmt.Sprintf("%.4f", sk.microF1), "1×")
	}
	if len(cv.wall) > 0 {
		row(fmt.Sprintf("textnb cv --multi-label --folds %d", folds), cv, "—",
			fmt.Sprintf("%s (%.2f× textnb train alone, %.2f s)", ratio(cv), median(cv.wall).Seconds()/median(trainWall).Seconds(), median(trainWall).Seconds()))
	}
}

func read(path string) ([]multilabel.Document, error) {
	var docs []multilabel.Document
	_, err := corpus.WalkMulti(path, corpus.Options{}, func(d corpus.MultiDocument) error {
		docs = append(docs, multilabel.Document{Labels: d.Labels, Text: d.Text})
		return nil
	})
	return docs, err
}

// sklearn runs sklearn_reuters.py on the same folds and prints its rows.
func sklearn(train, test string, fold []int, k int) {
	f, err := os.CreateTemp("", "reuters-folds-*.json")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	if err := json.NewEncoder(f).Encode(fold); err != nil {
		log.Fatal(err)
	}
	f.Close()
	script := filepath.Join(bench.Root(), "benchmarks", "reuters", "sklearn_reuters.py")
	args := []string{script, train, f.Name(), fmt.Sprint(k)}
	if test != "" {
		args = append(args, test)
	}
	cmd := exec.Command(bench.Python(), args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("scikit-learn: %v", err)
	}
	fmt.Print(string(out))
}
