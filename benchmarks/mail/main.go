// Command mail measures textnb as a spam filter on raw mail: stratified
// 10-fold cross-validated accuracy, ROC AUC and spam recall at 0.1% and 1%
// of ham let through as spam, on SpamAssassin 2002/03 and Enron1–3, for
// textnb's default and --tune (whole "textnb train" and "textnb predict
// --json" processes on each fold), beside scikit-learn's best naive Bayes
// and a tuned LinearSVC on the same folds, on text decoded by
// benchmarks/mail_text.py (the anchor). The folds, the scoring and the
// scikit-learn cache are benchmarks/accuracy's (package bench). The ROC
// figures pool the held-out folds' scores (log-odds of spam), as
// cross_val_predict would.
//
// It also times decoding: whole "textnb train" runs on the SpamAssassin
// folder read as mail and with --input text (the same bytes as plain
// text), alternating, medians (n/a when the build has no --input).
//
//	go run ./benchmarks/mail [-corpora spamassassin,enron1] [-sklearn-cache FILE] [-textnb-only] [-runs 5]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
)

var (
	corporaFlag = flag.String("corpora", "", "comma-separated corpora (default all): "+strings.Join(bench.MailCorpora, ","))
	cacheFlag   = flag.String("sklearn-cache", bench.DefaultCache(), "JSON file caching scikit-learn's results (shared with benchmarks/accuracy)")
	textnbOnly  = flag.Bool("textnb-only", false, "run no scikit-learn: its rows from the cache, else left out")
	folds       = flag.Int("folds", 10, "outer folds")
	seed        = flag.Uint64("seed", 1, "seed of the folds")
	runs        = flag.Int("runs", 5, "runs of each side of the decoding cost")
	noTune      = flag.Bool("no-tune", false, "skip textnb --tune")
	cachedOnly  = flag.Bool("cached-only", false, "with -textnb-cache: run no system, print what the caches hold")
	textnbCache = flag.String("textnb-cache", "", "JSON file caching textnb's fold results by binary, folds and flags (shared with benchmarks/accuracy; off by default)")
)

// result is one system's pooled held-out figures on one corpus.
type result struct {
	corpus, system string
	acc            float64
	roc            bench.ROC
	secs           float64
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	start := time.Now()
	tmp, bin, cleanup := bench.Workdir("textnb-mail-")
	defer cleanup()
	cache, tcache := bench.Caches(*cacheFlag, *textnbCache, *cachedOnly)
	*textnbOnly = *textnbOnly || *cachedOnly
	binHash, err := bench.FileHash(bin)
	if err != nil {
		log.Fatal(err)
	}
	var results []result
	for _, name := range bench.MailCorpora {
		if *corporaFlag != "" && !strings.Contains(","+*corporaFlag+",", ","+name+",") {
			continue
		}
		f, err := bench.MailFolds(tmp, name, *folds, *seed)
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		sk, err := bench.Sklearn(cache, bench.MailJob(name, f, true), *textnbOnly)
		if err != nil {
			log.Fatalf("%s: %v", name, err)
		}
		use := make([]bool, len(f.Splits)) // the folds every system is pooled over
		for i := range use {
			use[i] = len(sk) == 0
		}
		for _, sf := range sk {
			use[sf.Fold] = true
		}
		label := name
		if len(sk) > 0 && len(sk) < len(use) {
			label += fmt.Sprintf(" (the %d of %d folds scikit-learn has finished)", len(sk), len(use))
		}
		systems := []struct {
			name string
			args []string
		}{{"textnb default", nil}, {"textnb --tune", []string{"--tune"}}}
		if *noTune {
			systems = systems[:1]
		}
		for _, s := range systems {
			r, err := textnb(tcache, bin, binHash, tmp, f, use, s.args)
			r.corpus, r.system = label, s.name
			if err != nil {
				log.Printf("%s, %s: %v", name, s.name, err)
				r.acc, r.roc, r.secs = math.NaN(), bench.ROC{AUC: math.NaN(), RecallAt: []float64{math.NaN(), math.NaN()}}, math.NaN()
			}
			results = append(results, r)
			log.Printf("%s %s: %.4f (%s)", name, s.name, r.acc, time.Since(start).Round(time.Second))
		}
		if len(sk) == 0 {
			continue
		}
		for _, s := range []struct {
			name string
			pick func(bench.SklearnFold) bench.SklearnSystem
		}{
			{"sklearn best NB (decoded)", func(f bench.SklearnFold) bench.SklearnSystem { return f.NB }},
			{"LinearSVC (decoded)", func(f bench.SklearnFold) bench.SklearnSystem { return f.SVM }},
		} {
			r := result{corpus: label, system: s.name}
			var truth, pred []string
			var positive []bool
			var score []float64
			for _, f := range sk {
				sys := s.pick(f)
				truth = append(truth, f.Labels...)
				pred = append(pred, sys.Pred...)
				score = append(score, sys.Score...)
				r.secs += sys.FitPredictS
				for _, l := range f.Labels {
					positive = append(positive, l == "spam")
				}
			}
			r.acc, r.roc = bench.Accuracy(truth, pred), bench.ScoreROC(positive, score)
			results = append(results, r)
		}
	}
	fmt.Printf("textnb build: %s\n", bench.Describe(bin))
	fmt.Printf("%d-fold stratified CV (seed %d), held-out scores pooled over folds. Recall: spam caught at a threshold letting through at most that share of ham.\n\n", *folds, *seed)
	fmt.Printf("| corpus | system | accuracy %% | ROC AUC | spam recall @0.1%% FPR | @1%% FPR | wall s |\n|---|---|---|---|---|---|---|\n")
	for _, r := range results {
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s |\n", r.corpus, r.system, num("%.2f", 100*r.acc), num("%.4f", r.roc.AUC),
			num("%.3f", r.roc.RecallAt[0]), num("%.3f", r.roc.RecallAt[1]), num("%.1f", r.secs))
	}
	if !*cachedOnly {
		decodeCost(bin, tmp)
	}
	fmt.Printf("\n(total run %s)\n", time.Since(start).Round(time.Second))
}

// textnb trains on each fold's training folder and scores its test folder
// with predict --json, pooling the folds in use.
func textnb(c *bench.Cache, bin, binHash, tmp string, f bench.Fold, use []bool, args []string) (result, error) {
	var r result
	var correct, n float64
	var positive []bool
	var score []float64
	for i := range f.Splits {
		if !use[i] {
			continue
		}
		res, err := bench.TrainPredict(c, bin, binHash, filepath.Join(tmp, "mail.model"), f, i, "spam", args)
		if err != nil {
			return r, err
		}
		r.secs += res.Wall.Seconds()
		for _, d := range res.Docs {
			if d.Pred == d.Label {
				correct++
			}
			n++
			positive = append(positive, d.Label == "spam")
			score = append(score, d.Score)
		}
	}
	r.acc, r.roc = correct/n, bench.ScoreROC(positive, score)
	return r, nil
}

// decodeCost times whole trainings on the SpamAssassin folder as mail and
// as plain text, alternating, and prints the medians.
func decodeCost(bin, tmp string) {
	fmt.Printf("\nDecoding cost: whole `textnb train` on the SpamAssassin folder (3,250 files), median of %d alternating runs each.\n\n", *runs)
	fmt.Printf("| input | median wall s | median CPU s | peak MiB |\n|---|---|---|---|\n")
	if !bench.HasFlag(bin, "train", "input") {
		fmt.Printf("| mail (default) | n/a | n/a | n/a |\n| --input text | n/a | n/a | n/a |\n\n(this build has no --input: n/a)\n")
		return
	}
	dir, err := bench.DataDir(tmp, "spamassassin")
	if err != nil {
		log.Fatal(err)
	}
	sides := []struct {
		name string
		args []string
	}{{"mail (default)", nil}, {"--input text", []string{"--input", "text"}}}
	walls := make([][]float64, len(sides))
	cpus := make([][]float64, len(sides))
	peaks := make([]int64, len(sides))
	for range *runs {
		for i, s := range sides {
			r, err := bench.Run(nil, bin, append([]string{"train", "--quiet", dir, "-o", filepath.Join(tmp, "d.model")}, s.args...)...)
			if err != nil {
				log.Fatal(err)
			}
			walls[i] = append(walls[i], r.Wall.Seconds())
			cpus[i] = append(cpus[i], r.CPU.Seconds())
			peaks[i] = max(peaks[i], r.PeakKB)
		}
	}
	for i, s := range sides {
		fmt.Printf("| %s | %.2f | %.2f | %s |\n", s.name, median(walls[i]), median(cpus[i]), bench.MiB(peaks[i]))
	}
	fmt.Printf("\nmail ÷ text wall: %.2f×\n", median(walls[0])/median(walls[1]))
}

// num formats v, or n/a for NaN.
func num(format string, v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf(format, v)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
