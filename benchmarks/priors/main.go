// Command priors demonstrates prior-shift correction (Saerens, Latinne &
// Decaestecker 2002) on the SMS Spam Collection: a seeded stratified 50/50
// split, a model trained on a class-balanced undersample of the training
// half (so it assumes 50% spam) and tested on the natural test half (about
// 13% spam). It reports log-loss and accuracy without correction, with the
// true test priors, and with priors estimated by EM from the test
// posteriors alone, and the estimated against the true spam share.
//
// Naive Bayes posteriors are badly calibrated, which biases the EM
// estimate, so each model is also run with temperature scaling fitted by
// 5-fold cross-validation on the balanced training data (never the test
// half): posteriors softmax(jll/T) with T minimizing the out-of-fold
// log-loss.
//
//	go run ./benchmarks/priors [-seed 1] [-seeds 5]
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"slices"

	"github.com/textnb/textnb/internal/split"

	"gonum.org/v1/gonum/floats"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/nb"
)

var models = []struct {
	name string
	cfg  pipeline.Config
}{
	// With two balanced classes MNB gives the same posteriors as CNB, so the
	// second model changes the weighting: raw counts, the textbook setting,
	// where naive Bayes is over-confident.
	{"cnb, sublinear TF-IDF (the default; mnb is identical on two balanced classes)", pipeline.Config{}},
	{"mnb, raw counts", pipeline.Config{Classifier: pipeline.Multinomial, Weighting: pipeline.RawCounts}},
}

// folds is the number of cross-validation folds that fit the temperature.
const folds = 5

func main() {
	seed := flag.Uint64("seed", 1, "first split seed")
	seeds := flag.Int("seeds", 5, "number of seeds")
	flag.Parse()
	log.SetFlags(0)
	docs, err := bench.ReadSMS()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("SMS Spam Collection: %d messages; stratified 50/50 split, train on a balanced undersample of the\n"+
		"train half, test on the natural test half; seeds %d–%d (means over seeds; estimates: mean (mean |error|, max |error|))\n\n",
		len(docs), *seed, *seed+uint64(*seeds)-1)
	for _, m := range models {
		var rows []row
		for k := range *seeds {
			r, err := run(docs, m.cfg, *seed+uint64(k))
			if err != nil {
				log.Fatal(err)
			}
			rows = append(rows, r...)
		}
		report(m.name, rows, *seeds)
	}
}

// row is one variant's result on one seed.
type row struct {
	name            string
	logLoss, acc    float64
	estimated, true float64 // spam prior; estimated is NaN when not estimated
	temperature     float64
}

// run trains on one split and returns every variant's results.
func run(docs []corpus.Document, cfg pipeline.Config, seed uint64) ([]row, error) {
	labels := bench.Labels(docs)
	trainIdx, testIdx := split.StratifiedSplit(labels, 0.5, seed)
	balanced := bench.Pick(trainIdx, split.Undersample(bench.Pick(labels, trainIdx), seed))
	m, err := fit(cfg, docs, balanced)
	if err != nil {
		return nil, err
	}
	temp, err := temperature(cfg, docs, labels, balanced, m.Classes, seed)
	if err != nil {
		return nil, err
	}
	jll, y := scores(nil, nil, m, docs, testIdx, m.Classes)
	k := len(m.Classes)
	truth := make([]float64, k)
	for _, c := range y {
		truth[c] += 1 / float64(len(y))
	}
	spam := slices.Index(m.Classes, "spam")
	var out []row
	for _, t := range []float64{1, temp} {
		name := func(s string) string {
			if t == 1 {
				return s
			}
			return s + ", calibrated"
		}
		proba := softmax(jll, k, t)
		assumed := m.PosteriorPriors()
		q, _, err := nb.PriorEM{}.Estimate(proba, assumed)
		if err != nil {
			return nil, err
		}
		known, _ := nb.AdjustPriors(nil, proba, assumed, truth)
		est, _ := nb.AdjustPriors(nil, proba, assumed, q)
		ll, acc := metrics(proba, y, k)
		out = append(out, row{name("uncorrected"), ll, acc, math.NaN(), truth[spam], t})
		ll, acc = metrics(known, y, k)
		out = append(out, row{name("true test priors"), ll, acc, math.NaN(), truth[spam], t})
		ll, acc = metrics(est, y, k)
		out = append(out, row{name("EM-estimated priors"), ll, acc, q[spam], truth[spam], t})
	}
	return out, nil
}

// fit trains a model on docs[idx].
func fit(cfg pipeline.Config, docs []corpus.Document, idx []int) (*pipeline.Model, error) {
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		return nil, err
	}
	for _, i := range idx {
		if err := tr.Add(docs[i].Label, docs[i].Text); err != nil {
			return nil, err
		}
	}
	m, _, err := tr.Finish()
	return m, err
}

// scores appends the joint log-likelihoods of docs[idx] to jll and their
// classes to y, both with the classes numbered as in order.
func scores(jll []float64, y []int, m *pipeline.Model, docs []corpus.Document, idx []int, order []string) ([]float64, []int) {
	p := m.NewPredictor()
	cols := make([]int, len(order)) // the model's column of each class in order
	for k, name := range order {
		cols[k] = slices.Index(m.Classes, name)
	}
	var buf []float64
	for _, i := range idx {
		buf = p.JointLogLikelihood(buf[:0], docs[i].Text)
		for _, c := range cols {
			jll = append(jll, buf[c])
		}
		y = append(y, slices.Index(order, docs[i].Label))
	}
	return jll, y
}

// temperature fits T on out-of-fold scores of the training documents idx.
func temperature(cfg pipeline.Config, docs []corpus.Document, labels []string, idx []int, classes []string, seed uint64) (float64, error) {
	var jll []float64
	var y []int
	k := len(classes)
	parts := split.StratifiedKFold(bench.Pick(labels, idx), folds, seed)
	for i, part := range parts {
		m, err := fit(cfg, docs, bench.Pick(idx, split.FoldTrain(nil, parts, i)))
		if err != nil {
			return 0, err
		}
		jll, y = scores(jll, y, m, docs, bench.Pick(idx, part), classes)
	}
	nll := func(logT float64) float64 {
		ll, _ := metrics(softmax(jll, k, math.Exp(logT)), y, k)
		return ll
	}
	return math.Exp(goldenMin(nll, math.Log(1e-3), math.Log(1e3))), nil
}

// softmax returns the rows of jll/t turned into probabilities.
func softmax(jll []float64, k int, t float64) []float64 {
	out := make([]float64, len(jll))
	for i := 0; i < len(jll); i += k {
		row := out[i : i+k]
		for c := range row {
			row[c] = jll[i+c] / t
		}
		lse := floats.LogSumExp(row)
		for c := range row {
			row[c] = math.Exp(row[c] - lse)
		}
	}
	return out
}

// metrics returns the mean log-loss (probabilities clipped at 1e-15, as in
// scikit-learn) and the accuracy.
func metrics(proba []float64, y []int, k int) (logLoss, acc float64) {
	for r, c := range y {
		row := proba[r*k : (r+1)*k]
		logLoss -= math.Log(max(row[c], 1e-15))
		if nb.Argmax(row) == c {
			acc++
		}
	}
	n := float64(len(y))
	return logLoss / n, acc / n
}

// goldenMin minimizes a unimodal f on [a, b].
func goldenMin(f func(float64) float64, a, b float64) float64 {
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for b-a > 1e-6 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return (a + b) / 2
}

func report(model string, rows []row, seeds int) {
	fmt.Printf("### %s\n\n| posteriors | T | log-loss | accuracy | estimated spam prior | true spam prior |\n|---|---|---|---|---|---|\n", model)
	variants := len(rows) / seeds
	for v := range variants {
		var ll, acc, est, tru, t, errSum, worst float64
		for s := range seeds {
			r := rows[s*variants+v]
			ll, acc, est, tru, t = ll+r.logLoss, acc+r.acc, est+r.estimated, tru+r.true, t+r.temperature
			errSum += math.Abs(r.estimated - r.true)
			worst = max(worst, math.Abs(r.estimated-r.true))
		}
		n := float64(seeds)
		estimate := "–"
		if !math.IsNaN(est) {
			estimate = fmt.Sprintf("%.4f (%.4f, %.4f)", est/n, errSum/n, worst)
		}
		fmt.Printf("| %s | %.3g | %.4f | %.4f | %s | %.4f |\n", rows[v].name, t/n, ll/n, acc/n, estimate, tru/n)
	}
	fmt.Println()
}
