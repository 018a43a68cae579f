// Command accuracy puts textnb beside scikit-learn on every shared corpus in
// one table: test accuracy of textnb's default, --fast and --tune, of
// scikit-learn's best naive Bayes (chosen by inner cross-validation on the
// training part) and of a C-tuned LinearSVC, the default's shortfall
// against LinearSVC, and the wall time of each system.
//
// Corpora with a split (20 Newsgroups, SMS 80/20 seed 1, ChnSentiCorp) are
// trained on the training part and scored on the test part; the others by
// stratified 10-fold cross-validation (Reuters multi-label: 5-fold pooled
// micro-F1), with every system on the same outer folds written to disk
// once. textnb runs as whole "textnb train" and "textnb eval" processes on
// each fold ("train" and "predict --json" on mail, shared with
// benchmarks/mail), so the default's own cross-validated choices see the
// fold's training part only. scikit-learn's results depend only on the
// data, the seed and the scripts and are cached in -sklearn-cache; a
// build without --fast gets n/a in that column.
//
//	go run ./benchmarks/accuracy [-corpora a,b] [-sklearn-cache FILE] [-textnb-only|-sklearn-only]
//	    [-textnb default,fast,tune] [-textnb-cache FILE [-cached-only]]
package main

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
)

// The systems, in column order.
const (
	tDefault = iota
	tFast
	tTune
	sNB
	sSVM
	nSystems
)

var systemNames = [nSystems]string{"textnb default", "textnb --fast", "textnb --tune", "sklearn best NB", "LinearSVC"}

// textnbArgs are the train flags of textnb's columns.
var textnbArgs = [...][]string{tDefault: nil, tFast: {"--fast"}, tTune: {"--tune"}}

// task is a corpus ready to score: its outer splits on disk and the
// scikit-learn jobs of its rows (the first is the corpus's own row; a
// second, such as raw bytes for mail, repeats textnb's figures).
type task struct {
	name   string
	fold   bench.Fold
	jobs   []bench.SklearnJob
	rows   []string
	method string
	multi  bool // multi-label: Reuters
	mail   bool // folders of raw mail, scored by train + predict --json as benchmarks/mail does
}

// row is one line of the table: a score and a total wall time per system,
// NaN for n/a.
type row struct {
	name, method string
	score, secs  [nSystems]float64
	search       float64 // scikit-learn's inner cross-validation, both grids
	nbPipeline   string
	second       bool // a corpus's second scikit-learn row: not in the mean
	repeat       bool // textnb's figures repeat the row above
}

var (
	corporaFlag = flag.String("corpora", "", "comma-separated corpora (default all): "+strings.Join(corpusNames(), ","))
	cacheFlag   = flag.String("sklearn-cache", bench.DefaultCache(), "JSON file caching scikit-learn's results")
	textnbOnly  = flag.Bool("textnb-only", false, "run no scikit-learn: its columns from the cache, else n/a")
	sklearnOnly = flag.Bool("sklearn-only", false, "only fill the scikit-learn cache")
	textnbCache = flag.String("textnb-cache", "", "JSON file caching textnb's results by binary, folds and flags, to print the table again without rerunning (off by default)")
	cachedOnly  = flag.Bool("cached-only", false, "with -textnb-cache: run nothing, print what the caches hold (n/a for the rest)")
	systemsFlag = flag.String("textnb", "default,fast,tune", "textnb columns to run")
	seed        = flag.Uint64("seed", 1, "seed of the outer folds and the SMS split")
	folds       = flag.Int("folds", 10, "outer folds of the cross-validated corpora")
)

var corpora = []struct {
	name string
	load func(tmp string) (task, error)
}{
	{"20news", load20News},
	{"sms", loadSMS},
	{"chnsenticorp", loadChnSentiCorp},
	{"agnews", loadAGNews},
	{"waimai", loadWaimai},
	{"spamassassin", loadMail("spamassassin", "SpamAssassin 2002/03")},
	{"enron1", loadMail("enron1", "Enron1")},
	{"enron2", loadMail("enron2", "Enron2")},
	{"enron3", loadMail("enron3", "Enron3")},
	{"reuters", loadReuters},
}

func corpusNames() []string {
	var s []string
	for _, c := range corpora {
		s = append(s, c.name)
	}
	return s
}

func main() {
	flag.Parse()
	log.SetFlags(0)
	start := time.Now()
	tmp, bin, cleanup := bench.Workdir("textnb-accuracy-")
	defer cleanup()
	cache, tcache := bench.Caches(*cacheFlag, *textnbCache, *cachedOnly)
	*textnbOnly = *textnbOnly || *cachedOnly
	binHash, err := bench.FileHash(bin)
	if err != nil {
		log.Fatal(err)
	}
	want := map[string]bool{}
	for _, s := range strings.Split(*systemsFlag, ",") {
		want[s] = true
	}
	run := [nSystems]bool{tDefault: want["default"], tFast: want["fast"] && bench.HasFlag(bin, "train", "fast"), tTune: want["tune"]}
	var rows []row
	for _, c := range corpora {
		if *corporaFlag != "" && !strings.Contains(","+*corporaFlag+",", ","+c.name+",") {
			continue
		}
		t, err := c.load(tmp)
		if err != nil {
			log.Fatalf("%s: %v", c.name, err)
		}
		log.Printf("%s: %s", t.name, t.method)
		var rs []row
		if t.multi {
			rs = []row{scoreReuters(t, bin, tmp, cache, tcache, binHash, run)}
		} else {
			rs = score(t, bin, tmp, cache, tcache, binHash, run)
		}
		rows = append(rows, rs...)
		for _, r := range rs {
			log.Printf("  %s: %v (%s)", r.name, r.score, time.Since(start).Round(time.Second))
		}
	}
	if *sklearnOnly {
		fmt.Printf("scikit-learn results cached in %s\n", *cacheFlag)
		return
	}
	print(rows, bin)
	fmt.Printf("\n(total run %s)\n", time.Since(start).Round(time.Second))
}

func nan() [nSystems]float64 {
	var a [nSystems]float64
	for i := range a {
		a[i] = math.NaN()
	}
	return a
}

// score runs textnb's columns on every split of t and reads scikit-learn's.
// Where the scikit-learn cache holds only some folds (-textnb-only before
// its jobs end), the row pools every system over those folds alone.
func score(t task, bin, tmp string, cache, tcache *bench.Cache, binHash string, run [nSystems]bool) []row {
	model := filepath.Join(tmp, "m.model")
	var folds [tTune + 1][]*textnbResult // nil: failed or not run
	for sys := tDefault; sys <= tTune && !*sklearnOnly; sys++ {
		if !run[sys] {
			continue
		}
		folds[sys] = make([]*textnbResult, len(t.fold.Splits))
		args := append([]string{"--quiet"}, textnbArgs[sys]...)
		key := fmt.Sprintf("textnb %s %s %s", binHash, t.fold.Fingerprint[:16], strings.Join(args, " "))
		for i, s := range t.fold.Splits {
			var res textnbResult
			err := bench.Cached(tcache, key, i, &res, func() (textnbResult, error) {
				if t.mail { // as benchmarks/mail scores it, sharing its cached runs
					p, err := bench.TrainPredict(tcache, bin, binHash, model, t.fold, i, "spam", textnbArgs[sys])
					e := bench.Eval{N: len(p.Docs)}
					for _, d := range p.Docs {
						if d.Pred == d.Label {
							e.Accuracy++
						}
					}
					e.Accuracy /= float64(e.N)
					return textnbResult{e, p.Wall}, err
				}
				e, tr, ev, err := bench.TrainEval(bin, model, s.Train, s.Test, args)
				return textnbResult{e, tr.Wall + ev.Wall}, err
			})
			if err != nil {
				log.Printf("%s fold %d, %s: %v", t.name, i, systemNames[sys], firstLine(err))
				continue
			}
			folds[sys][i] = &res
		}
	}
	var rows []row
	for j, job := range t.jobs {
		r := row{name: t.rows[j], method: t.method, score: nan(), secs: nan(), search: math.NaN(), second: j > 0, repeat: j > 0}
		sk, err := bench.Sklearn(cache, job, *textnbOnly)
		if err != nil {
			log.Fatalf("%s: %v", t.name, err)
		}
		use := make([]bool, len(t.fold.Splits))
		for i := range use {
			use[i] = len(sk) == 0
		}
		for _, f := range sk {
			use[f.Fold] = true
		}
		if len(sk) > 0 && len(sk) < len(use) {
			r.method += fmt.Sprintf(", only the %d of %d folds scikit-learn has finished", len(sk), len(use))
			r.repeat = false
		}
		for sys := tDefault; sys <= tTune; sys++ {
			if folds[sys] == nil {
				continue
			}
			var correct, n, wall float64
			for i, res := range folds[sys] {
				if !use[i] {
					continue
				}
				if res == nil {
					correct = math.NaN()
					break
				}
				correct += math.Round(res.Eval.Accuracy * float64(res.Eval.N))
				n += float64(res.Eval.N)
				wall += res.Wall.Seconds()
			}
			if !math.IsNaN(correct) && n > 0 {
				r.score[sys], r.secs[sys] = correct/n, wall
			}
		}
		if len(sk) > 0 {
			sklearnColumns(&r, sk)
		}
		rows = append(rows, r)
	}
	return rows
}

// sklearnColumns fills r's scikit-learn columns from its folds.
func sklearnColumns(r *row, sk []bench.SklearnFold) {
	r.search = 0
	for sys, pick := range map[int]func(bench.SklearnFold) bench.SklearnSystem{
		sNB:  func(f bench.SklearnFold) bench.SklearnSystem { return f.NB },
		sSVM: func(f bench.SklearnFold) bench.SklearnSystem { return f.SVM },
	} {
		var truth, pred []string
		var secs float64
		for _, f := range sk {
			truth = append(truth, f.Labels...)
			pred = append(pred, pick(f).Pred...)
			secs += pick(f).FitPredictS
		}
		r.score[sys], r.secs[sys] = bench.Accuracy(truth, pred), secs
	}
	counts := map[string]int{}
	for _, f := range sk {
		r.search += f.InnerSearchS
		counts[f.NB.Pipeline]++
	}
	for p, c := range counts {
		if r.nbPipeline == "" || c > counts[r.nbPipeline] || (c == counts[r.nbPipeline] && p < r.nbPipeline) {
			r.nbPipeline = p
		}
	}
	if len(counts) > 1 {
		r.nbPipeline += fmt.Sprintf(" (%d of %d folds)", counts[r.nbPipeline], len(sk))
	}
}

// textnbResult is one fold's textnb evaluation and the wall time of its
// train and eval processes.
type textnbResult struct {
	Eval bench.Eval
	Wall time.Duration
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", 100*v)
}

func secs(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return fmt.Sprintf("%.1f", v)
}

func print(rows []row, bin string) {
	fmt.Printf("textnb build: %s\n", bench.Describe(bin))
	fmt.Printf("Accuracy %% (Reuters: micro-F1 %%). Shortfall: LinearSVC − textnb default in points, 0 where textnb is ahead.\n\n")
	fmt.Printf("| corpus | evaluation |")
	for _, n := range systemNames {
		fmt.Printf(" %s |", n)
	}
	fmt.Printf(" shortfall | default ≥ best NB |\n|---|---|%s\n", strings.Repeat("---|", nSystems+2))
	var sum float64
	var count int
	for _, r := range rows {
		fmt.Printf("| %s | %s |", r.name, r.method)
		for sys, v := range r.score {
			if r.repeat && sys <= tTune {
				fmt.Printf(" ″ |")
				continue
			}
			fmt.Printf(" %s |", pct(v))
		}
		short := math.Max(0, r.score[sSVM]-r.score[tDefault])
		ge := "n/a"
		if !math.IsNaN(r.score[sNB]) && !math.IsNaN(r.score[tDefault]) {
			ge = map[bool]string{true: "yes", false: "no"}[r.score[tDefault] >= r.score[sNB]]
		}
		fmt.Printf(" %s | %s |\n", pct(short), ge)
		if !r.second && !math.IsNaN(short) {
			sum += short
			count++
		}
	}
	if count > 0 {
		fmt.Printf("| **mean shortfall** | over %d corpora | | | | | | **%.2f** | |\n", count, 100*sum/float64(count))
	}
	fmt.Printf("\nWall seconds, summed over a corpus's folds: textnb train+eval processes; scikit-learn fit of the chosen pipeline + predict (its selection by inner cross-validation, both grids, in the last column). Ratio: sklearn best NB ÷ textnb default.\n\n")
	fmt.Printf("| corpus |")
	for _, n := range systemNames {
		fmt.Printf(" %s |", n)
	}
	fmt.Printf(" NB ÷ default | sklearn selection | sklearn NB chosen |\n|---|%s\n", strings.Repeat("---|", nSystems+3))
	for _, r := range rows {
		fmt.Printf("| %s |", r.name)
		for sys, v := range r.secs {
			if r.repeat && sys <= tTune {
				fmt.Printf(" ″ |")
				continue
			}
			fmt.Printf(" %s |", secs(v))
		}
		ratio := "n/a"
		if q := r.secs[sNB] / r.secs[tDefault]; !math.IsNaN(q) && !math.IsInf(q, 0) {
			ratio = fmt.Sprintf("%.1f×", q)
		}
		fmt.Printf(" %s | %s | %s |\n", ratio, secs(r.search), r.nbPipeline)
	}
}

// Corpora.

func load20News(tmp string) (task, error) {
	train, err := bench.DataDir(tmp, "20news-bydate-train")
	if err != nil {
		return task{}, err
	}
	test, err := bench.DataDir(tmp, "20news-bydate-test")
	if err != nil {
		return task{}, err
	}
	items, err := bench.FileItems(test)
	if err != nil {
		return task{}, err
	}
	f := bench.Fold{Splits: []bench.Split{{Train: train, Test: test, N: len(items)}}, Fingerprint: fmt.Sprintf("20news-bydate-%d-test-documents", len(items))}
	return task{name: "20 Newsgroups", fold: f, rows: []string{"20 Newsgroups"}, method: "bydate train → test",
		jobs: []bench.SklearnJob{{Key: "20news", Fold: f}}}, nil
}

func writeSplit(tmp, name string, train, test []bench.Item) (bench.Fold, error) {
	items := append(append([]bench.Item{}, train...), test...)
	tr, te := make([]int, len(train)), make([]int, len(test))
	for i := range tr {
		tr[i] = i
	}
	for i := range te {
		te[i] = len(train) + i
	}
	s, err := bench.WriteSplit(filepath.Join(tmp, name), items, tr, te)
	return bench.Fold{Splits: []bench.Split{s}, Fingerprint: bench.ItemsFingerprint(items, len(train))}, err
}

func loadSMS(tmp string) (task, error) {
	docs, err := bench.ReadSMS()
	if err != nil {
		return task{}, err
	}
	items := bench.TextItems(docs)
	train, test := split.Split(len(docs), 0.2, *seed)
	f, err := writeSplit(tmp, "sms", bench.Pick(items, train), bench.Pick(items, test))
	return task{name: "SMS", fold: f, rows: []string{"SMS Spam Collection"}, method: fmt.Sprintf("80/20 shuffle, seed %d", *seed),
		jobs: []bench.SklearnJob{{Key: "sms", Fold: f}}}, err
}

func loadChnSentiCorp(tmp string) (task, error) {
	dir := filepath.Join(bench.Shared(), "data", "chnsenticorp")
	opt := corpus.Options{TextField: "text_a"}
	train, err := corpus.ReadAll(filepath.Join(dir, "train.tsv"), opt)
	if err != nil {
		return task{}, err
	}
	test, err := corpus.ReadAll(filepath.Join(dir, "test_labeled.tsv"), opt)
	if err != nil {
		return task{}, err
	}
	f, err := writeSplit(tmp, "chnsenticorp", bench.TextItems(train), bench.TextItems(test))
	return task{name: "ChnSentiCorp", fold: f, rows: []string{"ChnSentiCorp"}, method: "train → test_labeled",
		jobs: []bench.SklearnJob{{Key: "chnsenticorp", Fold: f, Zh: true}}}, err
}

func cvTask(tmp, key, name string, items []bench.Item, zh bool) (task, error) {
	f, err := bench.WriteFolds(filepath.Join(tmp, "folds-"+key), items, *folds, *seed)
	return task{name: name, fold: f, rows: []string{name}, method: fmt.Sprintf("%d-fold CV, seed %d", *folds, *seed),
		jobs: []bench.SklearnJob{{Key: key, Fold: f, Zh: zh}}}, err
}

func loadAGNews(tmp string) (task, error) {
	path := filepath.Join(bench.Shared(), "data", "ag_news_test.csv")
	fh, err := os.Open(path)
	if err != nil {
		return task{}, err
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	r.FieldsPerRecord = 3
	var items []bench.Item
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return task{}, fmt.Errorf("%s: %v", path, err)
		}
		items = append(items, bench.Item{Label: rec[0], Text: rec[1] + "\n" + rec[2]})
	}
	return cvTask(tmp, "agnews", "AG News (test split)", items, false)
}

func loadWaimai(tmp string) (task, error) {
	docs, err := corpus.ReadAll(filepath.Join(bench.Shared(), "data", "waimai_10k.csv"), corpus.Options{TextField: "review"})
	if err != nil {
		return task{}, err
	}
	return cvTask(tmp, "waimai", "waimai_10k", bench.TextItems(docs), true)
}

func loadMail(key, name string) func(string) (task, error) {
	return func(tmp string) (task, error) {
		f, err := bench.MailFolds(tmp, key, *folds, *seed)
		t := task{name: name, fold: f, mail: true, method: fmt.Sprintf("%d-fold CV, seed %d", *folds, *seed),
			rows: []string{name + " (sklearn on decoded text)"}, jobs: []bench.SklearnJob{bench.MailJob(key, f, true)}}
		if key == "spamassassin" {
			t.rows = append(t.rows, name+" (sklearn on raw bytes)")
			t.jobs = append(t.jobs, bench.MailJob(key, f, false))
		}
		return t, err
	}
}

// Reuters: multi-label, pooled micro-F1 over 5 folds.

const reutersFolds = 5

func loadReuters(tmp string) (task, error) {
	path := filepath.Join(bench.Shared(), "data", "reuters21578-modapte-train.jsonl")
	f, err := bench.WriteMultiFolds(filepath.Join(tmp, "folds-reuters"), path, reutersFolds, *seed)
	return task{name: "Reuters-21578", fold: f, rows: []string{"Reuters-21578 ModApte train (multi-label)"},
		method: fmt.Sprintf("%d-fold CV, pooled micro-F1", reutersFolds), multi: true}, err
}

// microCounts are the pooled true positives, false positives and false negatives.
type microCounts struct{ TP, FP, FN float64 }

func (m microCounts) f1() float64 { return 2 * m.TP / (2*m.TP + m.FP + m.FN) }

// reutersFold is one fold's counts and the wall time of its processes.
type reutersFold struct {
	microCounts
	Wall time.Duration
}

func hashFingerprint(f bench.Fold) string {
	h := sha256.Sum256([]byte(f.Fingerprint))
	return hex.EncodeToString(h[:8])
}

// trainEvalMulti trains a multi-label model on s.Train and counts its
// label decisions on s.Test from eval --json's per-label figures.
func trainEvalMulti(bin, model string, s bench.Split, args []string) (reutersFold, error) {
	var res reutersFold
	tr, err := bench.Run(nil, bin, append(append([]string{"train"}, args...), s.Train, "-o", model)...)
	if err != nil {
		return res, err
	}
	ev, err := bench.Run(nil, bin, "eval", "--json", "-m", model, s.Test)
	if err != nil {
		return res, err
	}
	var e struct {
		PerLabel map[string]struct {
			Recall    float64 `json:"recall"`
			Support   float64 `json:"support"`
			Predicted float64 `json:"predicted"`
		} `json:"per_label"`
	}
	if err := json.Unmarshal([]byte(ev.Stdout), &e); err != nil {
		return res, fmt.Errorf("eval --json: %v", err)
	}
	for _, l := range e.PerLabel {
		tp := math.Round(l.Recall * l.Support)
		res.TP, res.FP, res.FN = res.TP+tp, res.FP+l.Predicted-tp, res.FN+l.Support-tp
	}
	res.Wall = tr.Wall + ev.Wall
	return res, nil
}

func scoreReuters(t task, bin, tmp string, cache, tcache *bench.Cache, binHash string, run [nSystems]bool) row {
	r := row{name: t.rows[0], method: t.method, score: nan(), secs: nan(), search: math.NaN()}
	model := filepath.Join(tmp, "ml.model")
	for sys := tDefault; sys <= tTune && !*sklearnOnly; sys++ {
		if !run[sys] {
			continue
		}
		var m microCounts
		var wall time.Duration
		args := append([]string{"--multi-label", "--quiet"}, textnbArgs[sys]...)
		key := fmt.Sprintf("textnb %s %s %s", binHash, hashFingerprint(t.fold), strings.Join(args, " "))
		for i, s := range t.fold.Splits {
			var res reutersFold
			err := bench.Cached(tcache, key, i, &res, func() (reutersFold, error) {
				return trainEvalMulti(bin, model, s, args)
			})
			if err != nil {
				log.Printf("Reuters fold %d, %s: %v", i, systemNames[sys], firstLine(err))
				m.TP = math.NaN()
				break
			}
			m.TP, m.FP, m.FN = m.TP+res.TP, m.FP+res.FP, m.FN+res.FN
			wall += res.Wall
		}
		if !math.IsNaN(m.TP) {
			r.score[sys], r.secs[sys] = m.f1(), wall.Seconds()
		}
	}
	sk, err := bench.SklearnReuters(cache, t.fold, reutersFolds, *textnbOnly)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range sk {
		sys := sNB
		if strings.Contains(s.Name, "LinearSVC") {
			sys = sSVM
		}
		if math.IsNaN(r.score[sys]) || s.MicroF1 > r.score[sys] {
			r.score[sys], r.secs[sys] = s.MicroF1, s.FitPredictS
			if sys == sNB {
				r.nbPipeline = s.Name + " (better of 2 fixed configurations)"
			}
		}
	}
	return r
}

// firstLine returns the command of a failed run and the last line it wrote.
func firstLine(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	return lines[0] + ": " + lines[len(lines)-1]
}
