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
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/textnb/textnb/internal/split"

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
			tr, te := split.Split(len(docs), 0.2, 1)
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
	tmp, bin, cleanup := bench.Workdir("textnb-calibration-")
	defer cleanup()
	python := bench.Python()
	script := filepath.Join(bench.Root(), "benchmarks", "calibration", "sklearn_calibration.py")
	fmt.Printf("| corpus | model | accuracy | mean top p | log loss | ECE | calibration |\n|---|---|---|---|---|---|---|\n")
	for _, s := range datasets() {
		train, test, labels, err := s.write(tmp)
		if err != nil {
			log.Fatal(err)
		}
		for _, c := range []struct {
			name string
			args []string
		}{{"textnb default", nil}, {"textnb default --calibrate", []string{"--calibrate"}}} {
			args := c.args
			if *folds > 0 && len(args) > 0 {
				args = append(args, "--folds", strconv.Itoa(*folds))
			}
			model := filepath.Join(tmp, s.name+".model")
			tr, err := bench.Run(nil, bin, append([]string{"train", train, "-o", model}, args...)...)
			if err != nil {
				log.Fatal(err)
			}
			out, err := bench.Run(nil, bin, "predict", "-m", model, "--json", test)
			if err != nil {
				log.Fatal(err)
			}
			sc, err := score(out.Stdout, labels)
			if err != nil {
				log.Fatalf("%s: %v", s.name, err)
			}
			fmt.Printf("| %s | %s | %.4f | %.4f | %.4f | %.4f | %s |\n", s.name, c.name, sc.accuracy, sc.confidence, sc.logLoss, sc.ece, calibrationOf(tr.Stdout))
		}
		if s.name == "chnsenticorp" || !bench.HasSklearn(python) { // scikit-learn's tokenizer does not segment Chinese
			continue
		}
		out, err := exec.Command(python, script, train, test).Output()
		if err != nil {
			log.Fatalf("%s %s: %v", python, script, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var r struct {
				Model                              string
				Accuracy, Confidence, LogLoss, ECE float64
			}
			if err := json.Unmarshal([]byte(strings.NewReplacer("log_loss", "LogLoss", "ece", "ECE").Replace(line)), &r); err != nil {
				log.Fatal(err)
			}
			fmt.Printf("| %s | %s | %.4f | %.4f | %.4f | %.4f | |\n", s.name, r.Model, r.Accuracy, r.Confidence, r.LogLoss, r.ECE)
		}
	}
}

// write writes the corpus's two parts as JSON lines files of {"label",
// "text"} objects and returns their paths and the test part's labels.
func (s dataset) write(dir string) (train, test string, labels []string, err error) {
	for _, part := range []struct {
		path *string
		read func() ([]corpus.Document, error)
	}{{&train, s.train}, {&test, s.test}} {
		docs, err := part.read()
		if err != nil {
			return "", "", nil, err
		}
		*part.path = filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", s.name, len(docs)))
		f, err := os.Create(*part.path)
		if err != nil {
			return "", "", nil, err
		}
		w := bufio.NewWriter(f)
		enc := json.NewEncoder(w)
		labels = labels[:0]
		for _, d := range docs {
			if err := enc.Encode(map[string]string{"label": d.Label, "text": d.Text}); err != nil {
				return "", "", nil, err
			}
			labels = append(labels, d.Label)
		}
		if err := errors.Join(w.Flush(), f.Close()); err != nil {
			return "", "", nil, err
		}
	}
	return train, test, labels, nil
}

// scores are a model's scores on a test part.
type scores struct{ accuracy, confidence, logLoss, ece float64 }

// score scores the lines of "textnb predict --json" against the labels,
// in order. The ECE is over 10 equal-width bins of the top probability:
// Σ_b |B|/n · |accuracy(B) − confidence(B)|.
func score(out string, labels []string) (scores, error) {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(labels) {
		return scores{}, fmt.Errorf("%d predictions for %d documents", len(lines), len(labels))
	}
	var s scores
	var n, hits, conf [10]float64
	for i, line := range lines {
		var p struct {
			Label string             `json:"label"`
			Proba map[string]float64 `json:"proba"`
		}
		if err := json.Unmarshal([]byte(line), &p); err != nil {
			return s, err
		}
		top := p.Proba[p.Label]
		s.confidence += top
		ok := p.Label == labels[i]
		s.logLoss -= math.Log(max(p.Proba[labels[i]], 1e-15))
		b := min(int(top*10), 9)
		n[b]++
		conf[b] += top
		if ok {
			s.accuracy++
			hits[b]++
		}
	}
	total := float64(len(labels))
	for b := range n {
		if n[b] > 0 {
			s.ece += n[b] / total * math.Abs(hits[b]/n[b]-conf[b]/n[b])
		}
	}
	s.accuracy /= total
	s.confidence /= total
	s.logLoss /= total
	return s, nil
}

// calibrationOf returns what train printed of its calibration.
func calibrationOf(out string) string {
	for line := range strings.SplitSeq(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "calibrated: "); ok {
			return rest
		}
	}
	return ""
}
