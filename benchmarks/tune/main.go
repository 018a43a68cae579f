// Command tune measures cross-validation and tuning: on each corpus the
// accuracy of plain train, of train --tune (the setting it picks), and of
// scikit-learn's best naive Bayes pipeline (benchmarks/sklearn_nb_best.py:
// the one its cross-validation on the training split chooses, and, as an
// oracle, the one best on the test split), in the same run;
// and on 20 Newsgroups the wall time of cv (10 folds) and train --tune
// against train, medians of alternating runs, and whether cv predicts
// exactly what 10 explicit trainings on the folds' complements predict.
//
//	go run ./benchmarks/tune [-runs 3] [-only timings,20ng,sms,...] [-grid '...']
//
// Besides 20 Newsgroups, SMS (seeded 80/20) and ChnSentiCorp it builds
// held-out-style short-text corpora from them: 20 Newsgroups subject lines
// ("headlines") and ChnSentiCorp first sentences. Tuning sees only each
// training split.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
)

type dataset struct {
	name, train, test string
	zh                bool
	args              []string // extra train flags
}

func main() {
	runs := flag.Int("runs", 3, "alternating timing runs on 20 Newsgroups (medians)")
	only := flag.String("only", "", "comma-separated subset of: timings (20 Newsgroups timings and exactness), 20ng, sms, chnsenticorp, headlines, zh-sentences; with -paired also zh-2-sentences, zh-3-sentences, 20ng-bodies-200-bytes, 20ng-bodies-400-bytes, and the two-class 20ng-atheism-christian, 20ng-hockey-vs-rest, headlines-graphics-windows, headlines-space-vs-rest, headlines-med-vs-rest")
	grid := flag.String("grid", "", "--grid for train --tune (default: its own)")
	seed := flag.Uint64("seed", 1, "SMS split seed")
	paired := flag.String("paired", "", "instead of the tables: candidate default changes as train flags separated by '|' (e.g. '--weighting counts|--alpha 0.1'), each compared with the default by 10-fold cv on every training split, paired by fold")
	corpora := flag.String("corpora", "", "only write the corpora (JSON Lines; 20 Newsgroups as folders) to this directory and list them")
	flag.Parse()
	log.SetFlags(0)
	if *corpora != "" {
		if err := os.MkdirAll(*corpora, 0o755); err != nil {
			log.Fatal(err)
		}
		news, newsTest, err := bench.Unpack20News(*corpora)
		if err != nil {
			log.Fatal(err)
		}
		for _, d := range prepare(*corpora, news, newsTest, *seed) {
			fmt.Printf("%s\t%s\t%s\n", d.name, d.train, d.test)
		}
		return
	}
	tmp, bin, cleanup := bench.Workdir("textnb-tune-")
	defer cleanup()
	news, newsTest, err := bench.Unpack20News(tmp)
	if err != nil {
		log.Fatal(err)
	}
	sets := prepare(tmp, news, newsTest, *seed)
	if *paired != "" {
		sets = append(sets, prepareCut(tmp, news)...)
	}
	var tuneArgs []string
	if *grid != "" {
		tuneArgs = []string{"--grid", *grid}
	}
	want := func(name string) bool { return *only == "" || slices.Contains(strings.Split(*only, ","), name) }
	if *paired != "" {
		comparePaired(bin, sets, strings.Split(*paired, "|"), want)
		return
	}
	if want("timings") {
		timings(bin, tmp, news, *runs, tuneArgs)
		exactness(news)
	}
	fmt.Printf("\n| corpus | train docs | default acc | tuned acc | tuned setting | scikit-learn NB chosen by cv | its pipeline | scikit-learn oracle (best on test) | its pipeline |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, d := range sets {
		if !want(d.name) {
			continue
		}
		def, _, _, err := bench.TrainEval(bin, filepath.Join(tmp, "d.model"), d.train, d.test, d.args)
		if err != nil {
			log.Fatal(err)
		}
		tuned, tr, _, err := bench.TrainEval(bin, filepath.Join(tmp, "t.model"), d.train, d.test, append(append([]string{"--tune"}, tuneArgs...), d.args...))
		if err != nil {
			log.Fatal(err)
		}
		sk := sklearnBest(d)
		fmt.Printf("| %s | %d | %.4f | %.4f | %s | %.4f | %s | %.4f | %s |\n", d.name, count(d.train), def.Accuracy, tuned.Accuracy,
			chosen(tr.Stdout), sk.CV.Accuracy, sk.CV.Pipeline, sk.Oracle.Accuracy, sk.Oracle.Pipeline)
	}
}

// prepare writes the line-file corpora and lists every data set.
func prepare(tmp, news, newsTest string, seed uint64) []dataset {
	sms, err := bench.ReadSMS()
	if err != nil {
		log.Fatal(err)
	}
	train, test := split.Split(len(sms), 0.2, seed)
	dir := filepath.Join(bench.Shared(), "data", "chnsenticorp")
	zhTrain := read(filepath.Join(dir, "train.tsv"), "text_a")
	zhTest := read(filepath.Join(dir, "test_labeled.tsv"), "text_a")
	newsDocs, newsTestDocs := read(news, ""), read(newsTest, "")
	return []dataset{
		{name: "20ng", train: news, test: newsTest},
		{name: "sms", train: write(tmp, "sms-train", bench.Pick(sms, train), nil), test: write(tmp, "sms-test", bench.Pick(sms, test), nil)},
		{name: "chnsenticorp", train: write(tmp, "zh-train", zhTrain, nil), test: write(tmp, "zh-test", zhTest, nil), zh: true},
		{name: "headlines", train: write(tmp, "subj-train", newsDocs, subject), test: write(tmp, "subj-test", newsTestDocs, subject)},
		{name: "zh-sentences", train: write(tmp, "zhs-train", zhTrain, firstSentence), test: write(tmp, "zhs-test", zhTest, firstSentence), zh: true},
	}
}

func read(path, field string) []corpus.Document {
	docs, err := corpus.ReadAll(path, corpus.Options{TextField: field})
	if err != nil {
		log.Fatal(err)
	}
	return docs
}

// prepareCut writes the cut-down training splits that -paired also
// compares on, to see whether document length decides between settings:
// ChnSentiCorp's first two and three sentences, and 20 Newsgroups bodies
// cut to 200 and 400 bytes.
func prepareCut(tmp, news string) []dataset {
	zhTrain := read(filepath.Join(bench.Shared(), "data", "chnsenticorp", "train.tsv"), "text_a")
	newsDocs := read(news, "")
	var sets []dataset
	for _, n := range []int{2, 3} {
		name := fmt.Sprintf("zh-%d-sentences", n)
		sets = append(sets, dataset{name: name, train: write(tmp, name, zhTrain, func(s string) string { return sentences(s, n) }), zh: true})
	}
	for _, n := range []int{200, 400} {
		name := fmt.Sprintf("20ng-bodies-%d-bytes", n)
		sets = append(sets, dataset{name: name, train: write(tmp, name, newsDocs, func(s string) string { return bodyPrefix(s, n) })})
	}
	// Two classes: a pair of groups, and one group against the other 19
	// (1 in 20 documents), as posts and as subject lines.
	two := func(name string, label func(group string) string, cut func(string) string) {
		var docs []corpus.Document
		for _, d := range newsDocs {
			if d.Label = label(d.Label); d.Label != "" {
				docs = append(docs, d)
			}
		}
		sets = append(sets, dataset{name: name, train: write(tmp, name, docs, cut)})
	}
	pair := func(a, b string) func(string) string {
		return func(g string) string {
			if g == a || g == b {
				return g
			}
			return ""
		}
	}
	against := func(one string) func(string) string {
		return func(g string) string {
			if g == one {
				return g
			}
			return "other"
		}
	}
	two("20ng-atheism-christian", pair("alt.atheism", "soc.religion.christian"), nil)
	two("20ng-hockey-vs-rest", against("rec.sport.hockey"), nil)
	two("headlines-graphics-windows", pair("comp.graphics", "comp.windows.x"), subject)
	two("headlines-space-vs-rest", against("sci.space"), subject)
	two("headlines-med-vs-rest", against("sci.med"), subject)
	return sets
}

// sentences returns a text's first n sentences.
func sentences(text string, n int) string {
	end := 0
	for range n {
		i := strings.IndexAny(text[end:], "。！？!?")
		if i < 0 {
			return text
		}
		_, size := utf8Len(text[end+i:])
		end += i + size
	}
	return text[:end]
}

// bodyPrefix returns a news post's body (after the header block), cut at
// the last space before limit bytes.
func bodyPrefix(text string, limit int) string {
	if _, body, ok := strings.Cut(text, "\n\n"); ok {
		text = body
	}
	text = strings.TrimSpace(text)
	if len(text) > limit {
		text = text[:limit]
		if i := strings.LastIndexByte(text, ' '); i >= 0 {
			text = text[:i]
		}
	}
	return text
}

// write writes docs as JSON Lines, each text through cut if given (a text
// cut to nothing is left out).
func write(dir, name string, docs []corpus.Document, cut func(string) string) string {
	var b strings.Builder
	for _, d := range docs {
		text := d.Text
		if cut != nil {
			if text = cut(text); text == "" {
				continue
			}
		}
		line, _ := json.Marshal(map[string]string{"label": d.Label, "text": text})
		b.Write(line)
		b.WriteByte('\n')
	}
	p := filepath.Join(dir, name+".jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
	return p
}

// subject returns a news post's subject line, without "Subject:" and "Re:".
func subject(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if s, ok := strings.CutPrefix(line, "Subject:"); ok {
			s = strings.TrimSpace(s)
			for {
				t, ok := strings.CutPrefix(strings.TrimSpace(s), "Re:")
				if !ok {
					t, ok = strings.CutPrefix(strings.TrimSpace(s), "RE:")
				}
				if !ok {
					break
				}
				s = t
			}
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// firstSentence returns a review's first sentence.
func firstSentence(text string) string {
	if i := strings.IndexAny(text, "。！？!?"); i >= 0 {
		_, n := utf8Len(text[i:])
		return text[:i+n]
	}
	return text
}

func utf8Len(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

func count(path string) int {
	docs, err := corpus.ReadAll(path, corpus.Options{})
	if err != nil {
		log.Fatal(err)
	}
	return len(docs)
}

// chosen returns the setting a train --tune output names.
func chosen(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if s, ok := strings.CutPrefix(line, "best: "); ok {
			return s
		}
	}
	return "?"
}

type sklearnResult struct {
	Pipeline string  `json:"pipeline"`
	Accuracy float64 `json:"accuracy"`
}

// sklearnResults are scikit-learn's pipeline chosen by cross-validation
// on the training split, and the one best on the test split (an oracle).
type sklearnResults struct {
	CV, Oracle sklearnResult
}

func sklearnBest(d dataset) sklearnResults {
	py := bench.Python()
	if !bench.HasSklearn(py) {
		none := sklearnResult{Pipeline: "scikit-learn not installed"}
		return sklearnResults{none, none}
	}
	args := []string{filepath.Join(bench.Root(), "benchmarks", "sklearn_nb_best.py"), d.train, d.test}
	if d.zh {
		args = append(args, "zh")
	}
	r, err := bench.Run(nil, py, args...)
	if err != nil {
		log.Fatal(err)
	}
	var out sklearnResults
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		log.Fatal(err)
	}
	return out
}

// timings prints the medians of alternating runs of train --fast, train,
// cv and train --tune on 20 Newsgroups' training split, as multiples of
// train --fast.
func timings(bin, tmp, news string, runs int, tuneArgs []string) {
	cmds := []struct {
		name string
		args []string
	}{
		{"train --fast", []string{"train", "--fast", news, "-o", filepath.Join(tmp, "a.model")}},
		{"train", []string{"train", news, "-o", filepath.Join(tmp, "c.model")}},
		{"cv --fast --folds 10", []string{"cv", "--fast", news, "--folds", "10"}},
		{"train --tune", append([]string{"train", "--tune", news, "-o", filepath.Join(tmp, "b.model")}, tuneArgs...)},
	}
	walls, cpus := make([][]time.Duration, len(cmds)), make([][]time.Duration, len(cmds))
	for range runs {
		for i, c := range cmds {
			r, err := bench.Run(nil, bin, c.args...)
			if err != nil {
				log.Fatal(err)
			}
			walls[i], cpus[i] = append(walls[i], r.Wall), append(cpus[i], r.CPU)
		}
	}
	fmt.Printf("20 Newsgroups train split, medians of %d alternating runs\n\n| command | wall s | × --fast | CPU s | × --fast |\n|---|---|---|---|---|\n", runs)
	base, baseCPU := median(walls[0]), median(cpus[0])
	for i, c := range cmds {
		m, u := median(walls[i]), median(cpus[i])
		fmt.Printf("| textnb %s | %.2f | %.2f | %.2f | %.2f |\n", c.name, m.Seconds(), m.Seconds()/base.Seconds(), u.Seconds(), u.Seconds()/baseCPU.Seconds())
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// exactness compares 10-fold cross-validation's predictions with those of
// 10 trainings on the folds' complements.
func exactness(path string) {
	docs := read(path, "")
	tr, err := pipeline.NewTrainer(pipeline.Config{})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range docs {
		if err := tr.Add(d.Label, d.Text); err != nil {
			log.Fatal(err)
		}
	}
	o := pipeline.CVOptions{Folds: 10}
	r, err := tr.CrossValidate(o)
	if err != nil {
		log.Fatal(err)
	}
	folds := split.StratifiedKFold(bench.Labels(docs), o.Folds, o.Seed)
	differ := 0
	for k, test := range folds {
		t, _ := pipeline.NewTrainer(pipeline.Config{})
		for _, i := range split.FoldTrain(nil, folds, k) {
			if err := t.Add(docs[i].Label, docs[i].Text); err != nil {
				log.Fatal(err)
			}
		}
		m, _, err := t.Finish()
		if err != nil {
			log.Fatal(err)
		}
		p := m.NewPredictor()
		for _, i := range test {
			if _, c := p.Proba(nil, docs[i].Text); m.Classes[c] != r.Predicted[i] {
				differ++
			}
		}
	}
	fmt.Printf("\ncv (10 folds) against 10 explicit fold trainings: %d of %d predictions differ; cv accuracy %.4f ± %.4f\n",
		differ, len(docs), r.Accuracy.Mean, r.Accuracy.SD)
}

// comparePaired prints, per training split and candidate, the 10-fold cv
// accuracy of the default and of the candidate (train flags) with the
// same folds, and the mean of their per-fold difference ± its standard
// error. Only training splits are used.
func comparePaired(bin string, sets []dataset, candidates []string, want func(string) bool) {
	fmt.Printf("| corpus (training split) | setting | cv accuracy (10 folds) | − default, paired by fold | standard error |\n|---|---|---|---|---|\n")
	for _, d := range sets {
		if !want(d.name) {
			continue
		}
		base := cvFolds(bin, d, nil)
		fmt.Printf("| %s | %s (default) | %.4f | | |\n", d.name, base.Setting, base.Accuracy.Mean)
		for _, c := range candidates {
			r := cvFolds(bin, d, strings.Fields(c))
			diff := make([]float64, len(base.Folds))
			for k := range diff {
				diff[k] = r.Folds[k].Accuracy - base.Folds[k].Accuracy
			}
			m, se := meanSE(diff)
			fmt.Printf("| %s | %s | %.4f | %+.4f | %.4f |\n", d.name, r.Setting, r.Accuracy.Mean, m, se)
		}
	}
}

type cvJSON struct {
	Setting string
	Folds   []struct{ Accuracy float64 }
	// Accuracy is the mean over the folds.
	Accuracy struct{ Mean float64 }
}

func cvFolds(bin string, d dataset, args []string) cvJSON {
	r, err := bench.Run(nil, bin, append(append([]string{"cv", "--quiet", "--json", "--folds", "10", d.train}, d.args...), args...)...)
	if err != nil {
		log.Fatal(err)
	}
	var out cvJSON
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		log.Fatal(err)
	}
	return out
}

// meanSE returns the mean of xs and its standard error (sample standard
// deviation over √n).
func meanSE(xs []float64) (mean, se float64) {
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	for _, x := range xs {
		se += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(se / (n - 1) / n)
}
