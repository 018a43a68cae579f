// Command online measures textnb eval --online, which replays a corpus in
// time order, classifying each document and then learning it: Enron1–3
// under Metsis et al. 2006's protocol (batches of 100 in the order of the
// files' sequence numbers; a filter trained on the batches before each
// one classifies it, the first batch only trains) beside their Table 3,
// also as their paper describes its filter (Boolean attributes, 3,000 by
// information gain before each batch) and with --unseen (the terms no
// learned message held scored by each class's Good–Turing unseen mass);
// and with immediate feedback (every message learned as soon as it is
// classified, the TREC spam track's protocol) and train-on-error; and
// SpamAssassin 2002/03 raw mail in the order of its Date fields. Each row
// is one whole "textnb eval --online --json" process, timed beside one
// "textnb train" of the same corpus with the same settings.
//
//	go run ./benchmarks/online [-corpora enron1,spamassassin] [-args "--weighting tfidf"]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"path/filepath"
	"slices"
	"strings"

	"github.com/textnb/textnb/benchmarks/internal/bench"
)

var (
	corporaFlag = flag.String("corpora", "", "comma-separated corpora (default all): "+strings.Join(bench.MailCorpora, ","))
	extra       = flag.String("args", "", "more flags of eval --online and train, space-separated (e.g. \"--ngrams 1,1\")")
)

// metsis is Table 3 of Metsis, Androutsopoulos & Paliouras, "Spam
// filtering with naive Bayes – which naive Bayes?" (CEAS 2006): spam
// recall and ham recall in %, 3,000 attributes by information gain,
// threshold 0.5 (../shared/data/README.md).
var metsis = []struct {
	version string
	recall  map[string][2]float64
}{
	{"Multinomial NB, Boolean attributes", map[string][2]float64{"enron1": {96.00, 95.25}, "enron2": {96.68, 97.83}, "enron3": {96.94, 98.88}}},
	{"Multinomial NB, term frequencies", map[string][2]float64{"enron1": {95.66, 94.00}, "enron2": {96.81, 96.78}, "enron3": {95.04, 98.83}}},
	{"Flexible Bayes", map[string][2]float64{"enron1": {90.50, 97.64}, "enron2": {93.63, 98.83}, "enron3": {96.94, 95.36}}},
	{"Multivariate Bernoulli", map[string][2]float64{"enron1": {97.08, 93.19}, "enron2": {91.05, 97.22}, "enron3": {97.42, 75.41}}},
}

// scores is the part of eval --online --json the tables show.
type scores struct {
	N        int     `json:"n"`
	Accuracy float64 `json:"accuracy"`
	PerClass map[string]struct {
		Recall float64 `json:"recall"`
	} `json:"per_class"`
	OneMinusAUCPct float64 `json:"one_minus_auc_pct"`
}

type online struct {
	Order       string  `json:"order"`
	Setting     string  `json:"setting"`
	Documents   int     `json:"documents"`
	Learned     int     `json:"learned"`
	Seconds     float64 `json:"seconds"`
	ReadSeconds float64 `json:"read_seconds"`
	All         scores  `json:"all"`
	AfterWarmup *scores `json:"after_warmup"`
}

// protocols are the rows of each corpus: eval --online's flags, which
// scores are the protocol's, and the row's name beside Metsis et al.'s
// Table 3 if it is their protocol.
var protocols = []struct {
	name  string
	args  []string
	after bool   // the scores after the warm-up (Metsis: the first batch only trains)
	table string // the row beside Table 3
}{
	{"Metsis et al.: batches of 100, scored after the first", []string{"--batch", "100", "--warmup", "100"}, true, "--batch 100"},
	{"Metsis et al., --unseen", []string{"--batch", "100", "--warmup", "100", "--unseen"}, true, "--batch 100 --unseen"},
	{"Metsis et al. as published (--binary --select mi --features 3000 --alpha 1 --ngrams 1,1)",
		[]string{"--batch", "100", "--warmup", "100", "--binary", "--select", "mi", "--features", "3000", "--alpha", "1", "--ngrams", "1,1"}, true,
		"--batch 100 --binary --select mi --features 3000 --alpha 1 --ngrams 1,1"},
	{"immediate feedback (TREC), every message", []string{"--warmup", "0"}, false, ""},
	{"immediate feedback, --unseen", []string{"--warmup", "0", "--unseen"}, false, ""},
	{"train on error, every message", []string{"--learn", "errors", "--warmup", "0"}, false, ""},
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	corpora := bench.MailCorpora
	if *corporaFlag != "" {
		corpora = strings.Split(*corporaFlag, ",")
	}
	tmp, bin, cleanup := bench.Workdir("textnb-online-")
	defer cleanup()
	more := strings.Fields(*extra)
	fmt.Printf("textnb eval --online %s (%s)\n\n", strings.Join(more, " "), bench.Describe(bin))
	fmt.Println("| corpus | protocol | order | documents scored | spam recall % | ham recall % | accuracy | 1−AUC % | learned | eval --online s (CPU) | train s (CPU) | ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|")
	got := map[string]map[string]scores{} // Metsis rows, by their table row and corpus
	for _, name := range corpora {
		dir, err := bench.DataDir(tmp, name)
		if err != nil {
			log.Fatal(err)
		}
		// one training of the whole corpus with the same settings: what
		// online evaluation is to cost about as much as
		tr, err := bench.Run(nil, bin, append([]string{"train", "--fast", "--weighting", "counts", "--quiet", dir, "-o", filepath.Join(tmp, "m.model")}, more...)...)
		if err != nil {
			log.Fatal(err)
		}
		for _, p := range protocols {
			args := append(append([]string{"eval", "--online", "--json", "--quiet"}, p.args...), more...)
			r, err := bench.Run(nil, bin, append(args, dir)...)
			if err != nil {
				log.Fatal(err)
			}
			var o online
			if err := json.Unmarshal([]byte(r.Stdout), &o); err != nil {
				log.Fatalf("%s: %v\n%s", name, err, r.Stdout)
			}
			s := o.All
			if p.after {
				s = *o.AfterWarmup
			}
			if p.table != "" {
				if got[p.table] == nil {
					got[p.table] = map[string]scores{}
				}
				got[p.table][name] = s
			}
			fmt.Printf("| %s | %s | %s | %d | %.2f | %.2f | %.4f | %.3f | %d | %.2f (%.2f) | %.2f (%.2f) | %.1f× |\n",
				name, p.name, o.Order, s.N, 100*s.PerClass["spam"].Recall, 100*s.PerClass["ham"].Recall, s.Accuracy, s.OneMinusAUCPct,
				o.Learned, r.Wall.Seconds(), r.CPU.Seconds(), tr.Wall.Seconds(), tr.CPU.Seconds(), r.Wall.Seconds()/tr.Wall.Seconds())
		}
	}
	var enron []string
	for _, c := range corpora {
		if _, ok := metsis[0].recall[c]; ok {
			enron = append(enron, c)
		}
	}
	if len(enron) == 0 {
		return
	}
	fmt.Printf("\nspam recall / ham recall %%, Metsis et al.'s protocol, beside their Table 3\n\n| NB version |")
	for _, c := range enron {
		fmt.Printf(" %s |", c)
	}
	fmt.Printf("\n|---|%s\n", strings.Repeat("---|", len(enron)))
	for _, p := range protocols {
		if p.table == "" {
			continue
		}
		fmt.Printf("| textnb eval --online %s |", strings.Join(slices.Concat([]string{p.table}, more), " "))
		for _, c := range enron {
			s := got[p.table][c]
			fmt.Printf(" %.2f / %.2f |", 100*s.PerClass["spam"].Recall, 100*s.PerClass["ham"].Recall)
		}
		fmt.Println()
	}
	for _, v := range metsis {
		fmt.Printf("| %s |", v.version)
		for _, c := range enron {
			fmt.Printf(" %.2f / %.2f |", v.recall[c][0], v.recall[c][1])
		}
		fmt.Println()
	}
	fmt.Println()
	for _, p := range protocols {
		if p.table == "" {
			continue
		}
		fmt.Printf("%s against Multinomial NB, Boolean attributes (spam, ham):", p.table)
		met := true
		for _, c := range enron {
			s, want := got[p.table][c], metsis[0].recall[c]
			ds, dh := 100*s.PerClass["spam"].Recall-want[0], 100*s.PerClass["ham"].Recall-want[1]
			met = met && ds >= -0.005 && dh >= -0.005 // the paper's two decimals
			fmt.Printf(" %s %+.2f, %+.2f;", c, ds, dh)
		}
		fmt.Printf(" at least theirs on every set: %v\n", met)
	}
}
