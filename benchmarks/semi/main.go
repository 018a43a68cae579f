// Command semi measures semi-supervised training on 20 Newsgroups with the
// protocol of the NSNB paper: for each labeled:unlabeled ratio 1:r, a
// stratified 1/(r+1) of the training split keeps its labels and the rest is
// given unlabeled; plain NB (labeled documents only), SNB, NSNB and EM are
// trained through the pipeline library and scored on the test split. Each
// repetition draws a new seeded sample. Every run tokenizes the whole
// training split again, so -reps 10 takes about 6 minutes on 2 cores; the
// default is 5 repetitions (about 3 minutes).
//
// With -validate the test split is not read: a stratified, seeded 25% of
// the training split is held out and scored instead, and the samples are
// drawn from the other 75%. Every setting is chosen that way, so that the
// test split is only used to report.
//
//	go run ./benchmarks/semi [-reps 5] [-ratios 5,10,50,100] [-methods none,snb,nsnb,em] [-validate]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/metrics"
)

func main() {
	reps := flag.Int("reps", 5, "repetitions (seeded samples) per ratio")
	ratios := flag.String("ratios", "5,10,50,100", "comma-separated r of labeled:unlabeled = 1:r")
	methods := flag.String("methods", "none,snb,nsnb,em", "comma-separated methods (none = plain NB on the labeled documents)")
	model := flag.String("model", "cnb", "classifier: cnb, mnb or bnb")
	validate := flag.Bool("validate", false, "score a held-out 25% of the training split instead of the test split")
	var semi pipeline.Semi
	flag.Float64Var(&semi.K, "k", 0, "NSNB documents per round (0: default)")
	flag.Float64Var(&semi.Threshold, "threshold", 0, "SNB threshold (0: default)")
	flag.IntVar(&semi.Rounds, "rounds", 0, "rounds / EM iterations (0: default)")
	flag.Float64Var(&semi.Lambda, "lambda", 0, "EM weight of unlabeled documents (0: default)")
	flag.BoolVar(&semi.RawPosteriors, "raw-posteriors", false, "NSNB ranks by the classifier's own posteriors (the paper's rule)")
	flag.Parse()
	log.SetFlags(0)

	rs, err := parseInts(*ratios)
	if err != nil {
		log.Fatal(err)
	}
	var ms []pipeline.SemiMethod
	for _, s := range strings.Split(*methods, ",") {
		var m pipeline.SemiMethod
		if err := m.UnmarshalText([]byte(strings.TrimSpace(s))); err != nil {
			log.Fatal(err)
		}
		ms = append(ms, m)
	}
	var cfg pipeline.Config
	if err := cfg.Classifier.UnmarshalText([]byte(*model)); err != nil {
		log.Fatal(err)
	}
	train, test, err := load(*validate)
	if err != nil {
		log.Fatal(err)
	}
	scored := "the test split"
	if *validate {
		train, test = holdOut(train, validationFrac, validationSeed)
		scored = fmt.Sprintf("a validation set (stratified %g of the training split, seed %d); the test split is not read",
			validationFrac, validationSeed)
	}
	labels := bench.Labels(train)

	fmt.Printf("20 Newsgroups bydate: %d pool, %d scored documents; %s, %d repetitions; accuracy on %s\n\n",
		len(train), len(test), *model, *reps, scored)
	fmt.Printf("| labeled:unlabeled | labeled docs | method | mean accuracy ± std | min | max | train s |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		runs := make([][]run, len(ms))
		var nLabeled int
		for rep := range *reps {
			seed := uint64(1000*r + rep + 1)
			labeled, _ := split.StratifiedSample(labels, 1/float64(r+1), seed)
			nLabeled = len(labeled)
			isLabeled := make([]bool, len(train))
			for _, i := range labeled {
				isLabeled[i] = true
			}
			for k, m := range ms {
				c := cfg
				c.Semi = semi
				c.Semi.Method = m
				res, err := trainEval(c, train, isLabeled, test)
				if err != nil {
					log.Fatalf("1:%d %v: %v", r, m, err)
				}
				log.Printf("1:%d rep %d %-4v accuracy %.4f in %.1fs  %v", r, rep, m, res.acc, res.secs, res.report)
				runs[k] = append(runs[k], res)
			}
		}
		for k, m := range ms {
			printRow(r, nLabeled, m, runs[k])
		}
	}
}

// The validation set of -validate.
const (
	validationFrac = 0.25
	validationSeed = 7
)

// holdOut splits docs into a pool and a stratified, seeded held-out
// fraction, each in the original order.
func holdOut(docs []corpus.Document, frac float64, seed uint64) (pool, held []corpus.Document) {
	heldIdx, poolIdx := split.StratifiedSample(bench.Labels(docs), frac, seed)
	return bench.Pick(docs, poolIdx), bench.Pick(docs, heldIdx)
}

// load unpacks the bydate archive into a temporary folder and reads the
// training split, and the test split unless trainOnly.
func load(trainOnly bool) (train, test []corpus.Document, err error) {
	tmp, err := os.MkdirTemp("", "textnb-semi-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	trainDir, testDir, err := bench.Unpack20News(tmp)
	if err != nil {
		return nil, nil, err
	}
	if train, err = corpus.ReadAll(trainDir, corpus.Options{}); err != nil {
		return nil, nil, err
	}
	if trainOnly {
		return train, nil, nil
	}
	test, err = corpus.ReadAll(testDir, corpus.Options{})
	return train, test, err
}

type run struct {
	acc, secs float64
	report    pipeline.SemiReport
}

// trainEval trains on the labeled documents, plus the others unlabeled
// unless cfg has no semi-supervised method, and scores the test documents.
func trainEval(cfg pipeline.Config, train []corpus.Document, isLabeled []bool, test []corpus.Document) (run, error) {
	start := time.Now()
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		return run{}, err
	}
	for i, d := range train {
		switch {
		case isLabeled[i]:
			if err := tr.Add(d.Label, d.Text); err != nil {
				return run{}, err
			}
		case cfg.Semi.Method != pipeline.NoSemi:
			tr.AddUnlabeled(d.Text)
		}
	}
	m, sum, err := tr.Finish()
	if err != nil {
		return run{}, err
	}
	secs := time.Since(start).Seconds()
	ev := metrics.NewEvaluator(m.Classes)
	b := m.NewBatch(func(p pipeline.Prediction) { ev.AddProba(p.Truth, p.Class, nil) })
	for _, d := range test {
		b.Add(d.Source, d.Label, d.Text)
	}
	b.Close()
	return run{acc: ev.Result().Accuracy, secs: secs, report: sum.Semi}, nil
}

func printRow(r, nLabeled int, m pipeline.SemiMethod, runs []run) {
	var sum, sq, secs float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range runs {
		sum += x.acc
		secs += x.secs
		lo, hi = min(lo, x.acc), max(hi, x.acc)
	}
	n := float64(len(runs))
	mean := sum / n
	for _, x := range runs {
		sq += (x.acc - mean) * (x.acc - mean)
	}
	std := 0.0
	if n > 1 {
		std = math.Sqrt(sq / (n - 1))
	}
	name := m.String()
	if m == pipeline.NoSemi {
		name = "NB (labeled only)"
	}
	fmt.Printf("| 1:%d | %d | %s | %.4f ± %.4f | %.4f | %.4f | %.2f |\n", r, nLabeled, name, mean, std, lo, hi, secs/n)
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("ratio %q: want a positive integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}
