package main

import (
	"flag"
	"fmt"
	facade "github.com/textnb/textnb"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/nb"
)

// onlineFlags are eval's flags of --online.
type onlineFlags struct {
	on            *bool
	order, learn  *string
	warmup, batch *int
	sel           *facade.SelectMethod
	unseen        *bool
	text          textFlags
}

func newOnlineFlags(fs *flag.FlagSet) onlineFlags {
	return onlineFlags{
		on: fs.Bool("online", false, "replay CORPUS in time order: classify each document, then learn it (the TREC spam track's immediate "+
			"feedback); from an empty model with train's settings (the flags of train; --fast's fixed α; --weighting counts unless given), "+
			"or from -m MODEL (docs/online.md)"),
		order: fs.String("online-order", "auto", "--online: the time order: auto (dates in the file names, else the messages' dates for mail, "+
			"else modification times), name, date, mtime, or a `FILE` naming the documents in order, one a line"),
		learn:  fs.String("learn", "all", "--online: learn every document (all), or only those classified wrongly (errors: train on error)"),
		warmup: fs.Int("warmup", 100, "--online: also score the documents after the first `N`"),
		batch:  fs.Int("batch", 1, "--online: classify `K` documents before learning them (1: immediate feedback; Metsis et al. retrain every 100)"),
		sel: textFlag(fs, "select", facade.NoSelect, "--online: before each batch, keep only the --features K terms that mi (mutual information, "+
			"Metsis et al.'s information gain; needs --binary), chi2 or df (document frequency; needs --binary) ranks best on the documents "+
			"learned so far (raw counts; an empty start)"),
		unseen: fs.Bool("unseen", false, "--online: also score the terms that no learned document held, by each class's Good–Turing "+
			"unseen mass (its share of terms counted once, in it alone), the known terms by the rest (raw counts; an empty start; "+
			"not --binary or --select)"),
		text: newTextFlags(fs),
	}
}

// textFlagNames are the flags of newTextFlags, which eval takes only with
// --online and without -m.
var textFlagNames = []string{"model", "alpha", "fast", "weighting", "norm", "vectorizer", "features", "min-df", "max-df",
	"binary", "ngrams", "char-ngrams", "stem", "no-stem", "stopwords", "lang"}

// learnMode is --learn.
type learnMode uint8

const (
	learnAll learnMode = iota
	learnErrors
)

// onlineReport is what eval --online prints.
type onlineReport struct {
	Corpus string `json:"corpus"`
	// Order is the order used: name, date, mtime or list.
	Order   string `json:"order"`
	Learn   string `json:"learn"`
	Batch   int    `json:"batch"`
	Warmup  int    `json:"warmup"`
	Start   string `json:"start"`   // "empty", or the model file
	Setting string `json:"setting"` // the model's classifier and α at the end
	// Select is the selection made before each batch, as "mi 3000".
	Select string `json:"select,omitempty"`
	// Unseen says that the terms no learned document held were scored.
	Unseen    bool `json:"unseen,omitempty"`
	Documents int  `json:"documents"`
	Learned   int  `json:"learned"`
	// Seconds is the time of classifying and learning, after reading.
	Seconds     float64       `json:"seconds"`
	ReadSeconds float64       `json:"read_seconds"`
	All         onlineScores  `json:"all"`
	AfterWarmup *onlineScores `json:"after_warmup,omitempty"`
}

// onlineScores are eval's scores of a run of documents, with 1 − ROC AUC
// in percent as the TREC spam track reports it.
type onlineScores struct {
	metrics.Evaluation
	OneMinusAUCPct *float64 `json:"one_minus_auc_pct,omitempty"`
}

// runOnline is eval --online of the corpus at path: from the model file
// modelPath, or from nothing with the text flags' settings if it is "".
func runOnline(fs *flag.FlagSet, o onlineFlags, modelPath, path string, fields fieldFlags, positive string, asJSON, seen, quiet bool, stdout, stderr io.Writer) error {
	given := givenFlags(fs)
	for _, f := range []string{"report", "errors", "priors", "estimate-priors", "threshold"} {
		if given[f] {
			return fmt.Errorf("%w: --%s does not combine with --online", errUsage, f)
		}
	}
	mode := learnAll
	switch *o.learn {
	case "all":
	case "errors":
		mode = learnErrors
	default:
		return fmt.Errorf("%w: --learn %q: want all or errors", errUsage, *o.learn)
	}
	if *o.warmup < 0 || *o.batch < 1 {
		return fmt.Errorf("%w: --warmup %d, --batch %d: want N ≥ 0 and K ≥ 1", errUsage, *o.warmup, *o.batch)
	}
	by, list := corpus.OrderList, ""
	switch *o.order {
	case "auto":
		by = corpus.OrderAuto
	case "name":
		by = corpus.OrderName
	case "date":
		by = corpus.OrderDate
	case "mtime":
		by = corpus.OrderMtime
	default:
		list = *o.order
		if fi, err := os.Stat(list); err != nil || fi.IsDir() {
			return fmt.Errorf("%w: --online-order %q: want auto, name, date, mtime or a list FILE", errUsage, *o.order)
		}
	}
	l := &onlineLearner{}
	opt := fields.options(false)
	if modelPath != "" {
		for _, f := range append([]string{"select", "unseen"}, textFlagNames...) {
			if given[f] {
				return fmt.Errorf("%w: --%s: -m MODEL has its settings; the text flags configure an empty start (no -m)", errUsage, f)
			}
		}
		if kind, err := facade.FileKind(modelPath); err == nil && kind != facade.TextModel {
			return fmt.Errorf("%w: --online learns text models; %s is not one", errUsage, modelPath)
		}
		c, err := openClassifier(modelPath, &inputs{})
		if err != nil {
			return err
		}
		m, err := c.text(modelPath)
		if err != nil {
			return err
		}
		l.setModel(m.Pipeline())
		fields.useStored(fs, &opt, c)
	} else {
		if err := explicitAlpha(o.text.alpha, given["alpha"], stderr); err != nil {
			return err
		}
		cfg, err := o.text.config(given)
		if err != nil {
			return err
		}
		cfg.Fast = true // no cross-validated choice: nothing is known before the first document
		if !given["weighting"] {
			// An IDF changes with every document, and learning a weighted
			// model refits it: O(model) a document (docs/online.md).
			cfg.Weighting = facade.RawCounts
		}
		if *o.sel != facade.NoSelect {
			if l.sel, err = onlineSelection(cfg, *o.sel, *o.text.features, given["features"]); err != nil {
				return err
			}
			cfg.Vocab.MaxFeatures = 0 // every term is counted; each batch selects from them
		}
		if *o.unseen {
			if err := unseenUsable(cfg, *o.sel); err != nil {
				return err
			}
			l.unseen = true
		}
		if _, err := facade.NewTrainer(cfg); err != nil {
			return usageErr(err)
		}
		l.cfg = cfg
	}
	meter := newMeter(stderr, "eval --online: reading", path, quiet)
	start := time.Now()
	docs, used, err := corpus.ReadOrdered(path, opt, by, list)
	meter.Stop()
	if err != nil {
		return err
	}
	read := time.Since(start)
	classes, counts := onlineClasses(l.m, docs)
	rep := onlineReport{Corpus: path, Order: used.String(), Learn: *o.learn, Batch: *o.batch, Warmup: *o.warmup, Start: "empty",
		Documents: len(docs), ReadSeconds: read.Seconds()}
	if modelPath != "" {
		rep.Start = modelPath
	}
	if l.sel.Method != facade.NoSelect {
		rep.Select = fmt.Sprintf("%v %d", l.sel.Method, l.sel.K)
	}
	rep.Unseen = l.unseen
	pos := -1 // the positive class of a two-class corpus
	if len(classes) == 2 {
		switch {
		case positive != "":
			if pos = slices.Index(classes, positive); pos < 0 {
				return fmt.Errorf("%w: --positive %s: want one of the corpus's classes %s", errUsage, plain(positive), plain(strings.Join(classes, ", ")))
			}
		case counts[0] < counts[1]:
			pos = 0
		default:
			pos = 1
		}
	}
	all, after := newOnlineScorer(classes, pos), newOnlineScorer(classes, pos)
	meter = newMeter(stderr, "eval --online", path, quiet)
	start = time.Now()
	var learn []facade.Example
	for i := 0; i < len(docs); i += *o.batch {
		batch := docs[i:min(i+*o.batch, len(docs))]
		learn = learn[:0]
		if err := l.beforeBatch(); err != nil {
			return fmt.Errorf("%s: before document %d: %w", path, i+1, err)
		}
		for k, d := range batch {
			p, c, score, err := l.classify(classes, pos, d.Text)
			if err != nil {
				return fmt.Errorf("%s: %w", d.Source, err)
			}
			all.add(d.Label, c, p, score)
			if i+k >= *o.warmup {
				after.add(d.Label, c, p, score)
			}
			if mode == learnAll || l.m == nil || classes[c] != d.Label {
				learn = append(learn, facade.Example{Label: d.Label, Text: d.Text})
			}
			meter.Add(1, int64(len(d.Text)))
		}
		if err := l.learn(learn); err != nil {
			return fmt.Errorf("%s: learning documents %d–%d: %w", path, i+1, i+len(batch), err)
		}
		rep.Learned += len(learn)
	}
	meter.Stop()
	rep.Seconds = time.Since(start).Seconds()
	if l.m != nil {
		rep.Setting = facade.Setting(l.m.Config) + ", " + l.m.Config.Weighting.String()
	}
	rep.All = all.result()
	if *o.warmup > 0 && len(docs) > *o.warmup {
		s := after.result()
		rep.AfterWarmup = &s
	}
	if asJSON {
		return printJSON(stdout, rep)
	}
	printOnline(stdout, rep, seen)
	return nil
}

// onlineSelection returns the selection of --select method and --features
// k for an empty start of configuration cfg, or says why it cannot be:
// the terms are scored on the model's counts (facade.Pipeline.Selected).
func onlineSelection(cfg facade.Config, method facade.SelectMethod, k int, given bool) (facade.Selection, error) {
	sel := facade.Selection{Method: method, K: k}
	switch {
	case !given:
		return sel, fmt.Errorf("%w: --select %v needs --features K, the number of terms to keep", errUsage, method)
	case cfg.Vectorizer != facade.Vocab || cfg.Weighting != facade.RawCounts:
		return sel, fmt.Errorf("%w: --select with --online scores the terms on raw counts of the vocab vectorizer (not --weighting %v, --vectorizer %v)",
			errUsage, cfg.Weighting, cfg.Vectorizer)
	case method != facade.Chi2 && !cfg.Vocab.Binary:
		return sel, fmt.Errorf("%w: --select %v counts documents: with --online it needs --binary, whose counts are the documents of each class that hold a term", errUsage, method)
	}
	return sel, nil
}

// unseenUsable says why --unseen cannot score a model of cfg selecting
// by method, if it cannot: the unseen mass counts occurrences.
func unseenUsable(cfg facade.Config, method facade.SelectMethod) error {
	switch {
	case method != facade.NoSelect:
		return fmt.Errorf("%w: --unseen scores the terms outside the vocabulary; --select leaves terms of the vocabulary out", errUsage)
	case cfg.Classifier != facade.Auto && cfg.Classifier != facade.Multinomial:
		return fmt.Errorf("%w: --unseen completes a Multinomial NB's probabilities (--model mnb, or auto for two classes), not --model %v", errUsage, cfg.Classifier)
	case cfg.Vectorizer != facade.Vocab || cfg.Weighting != facade.RawCounts || cfg.Vocab.Binary:
		return fmt.Errorf("%w: --unseen estimates the unseen mass from raw counts of term occurrences: the vocab vectorizer, --weighting counts, not --binary", errUsage)
	}
	return nil
}

// onlineClasses returns the classes an online evaluation scores, in the
// order of m's classes then of the labels that only docs have (seen
// order), or sorted without a model, with the documents of each.
func onlineClasses(m *facade.Pipeline, docs []corpus.Document) ([]string, []int) {
	var classes []string
	if m != nil {
		classes = slices.Clone(m.Classes)
	}
	known := len(classes)
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	var counts []int
	counts = append(counts, make([]int, len(classes))...)
	for _, d := range docs {
		i, ok := index[d.Label]
		if !ok {
			i = len(classes)
			index[d.Label] = i
			classes = append(classes, d.Label)
			counts = append(counts, 0)
		}
		counts[i]++
	}
	if known == 0 {
		idx := make([]int, len(classes))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(a, b int) int { return strings.Compare(classes[a], classes[b]) })
		cs, ns := make([]string, len(idx)), make([]int, len(idx))
		for k, i := range idx {
			cs[k], ns[k] = classes[i], counts[i]
		}
		classes, counts = cs, ns
	}
	return classes, counts
}

// onlineLearner is the model of an online evaluation: none until the
// documents learned hold two classes (a model needs them), then the
// model trained on them, which learns each document after.
type onlineLearner struct {
	cfg facade.Config
	m   *facade.Pipeline
	p   *facade.Predictor
	// sel, if set, selects the terms of m before each batch: sm, the model
	// of them, classifies with sp.
	sel facade.Selection
	sm  *facade.Pipeline
	sp  *facade.Predictor
	// unseen scores each occurrence of a term m lacks by logM, the log of
	// the class's unseen mass, and each known one by log1mM as well.
	unseen       bool
	logM, log1mM []float64
	pending      []facade.Example // learned before there was a model
	labels       map[string]bool  // of pending
	index        []int            // the scored class of each of m's classes
	jll, pr      []float64
}

func (l *onlineLearner) setModel(m *facade.Pipeline) {
	l.m, l.p, l.pending, l.labels = m, m.NewPredictor(), nil, nil
	l.index = l.index[:0]
}

// beforeBatch makes, if there is a model, the model of the selected terms
// from what has been learned if there is a selection, and the unseen mass
// with --unseen.
func (l *onlineLearner) beforeBatch() error {
	if l.m == nil {
		return nil
	}
	if l.unseen {
		if c := l.m.Config.Classifier; c != facade.Multinomial {
			return fmt.Errorf("%w: --unseen completes a Multinomial NB's probabilities; --model auto chose %v for %d classes (give --model mnb)",
				errUsage, c, len(l.m.Classes))
		}
		mass, err := l.m.UnseenMass()
		if err != nil {
			return err
		}
		l.logM, l.log1mM = l.logM[:0], l.log1mM[:0]
		for _, v := range mass {
			l.logM, l.log1mM = append(l.logM, math.Log(v)), append(l.log1mM, math.Log1p(-v))
		}
	}
	if l.sel.Method == facade.NoSelect {
		return nil
	}
	sm, err := l.m.Selected(l.sel)
	if err != nil {
		return err
	}
	l.sm, l.sp = sm, sm.NewPredictor()
	return nil
}

// classify returns the probabilities of text for classes, the class
// decided, and for a two-class evaluation with positive class pos the
// log-odds of pos, by which ROC ranks: they do not saturate as
// probabilities do on long documents. Without a model every class is
// equally likely, and the first is decided.
func (l *onlineLearner) classify(classes []string, pos int, text string) ([]float64, int, float64, error) {
	p := make([]float64, len(classes))
	if l.m == nil {
		for c := range p {
			p[c] = 1 / float64(len(p))
		}
		return p, 0, 0, nil
	}
	mc := l.m.Labels()
	for len(l.index) < len(mc) { // learning added classes
		c := slices.Index(classes, mc[len(l.index)])
		if c < 0 {
			return nil, 0, 0, fmt.Errorf("the model's class %q is not one of the corpus's", mc[len(l.index)])
		}
		l.index = append(l.index, c)
	}
	var best int
	if l.sp != nil { // the selected terms' model: of m's classes, uncalibrated
		l.jll = l.sp.JointLogLikelihood(l.jll[:0], text)
		best = nb.Argmax(l.jll)
		l.pr = nb.Proba(l.pr[:0], l.jll)
	} else if l.m.Calibration() == nil && l.m.Threshold == nil {
		l.jll = l.p.JointLogLikelihood(l.jll[:0], text)
		if l.unseen {
			known, unknown := l.p.Coverage()
			for k := range l.jll {
				l.jll[k] += known*l.log1mM[k] + float64(unknown)*l.logM[k]
			}
		}
		best = nb.Argmax(l.jll)
		l.pr = nb.Proba(l.pr[:0], l.jll)
	} else {
		l.pr, best = l.p.Proba(l.pr[:0], text)
		l.jll = l.p.JointLogLikelihood(l.jll[:0], text)
	}
	for k, v := range l.pr {
		p[l.index[k]] = v
	}
	score := 0.0
	if pos >= 0 {
		// log-odds of pos against the other class, −∞/+∞ while the model
		// lacks one of them
		in, out := math.Inf(-1), math.Inf(-1)
		for k, v := range l.jll {
			if l.index[k] == pos {
				in = v
			} else {
				out = max(out, v)
			}
		}
		switch {
		case math.IsInf(in, -1):
			score = math.Inf(-1)
		case math.IsInf(out, -1):
			score = math.Inf(1)
		default:
			score = in - out
		}
	}
	return p, l.index[best], score, nil
}

// learn adds docs to the model, training it once the documents learned
// hold two classes.
func (l *onlineLearner) learn(docs []facade.Example) error {
	if len(docs) == 0 {
		return nil
	}
	if l.m != nil {
		return l.m.LearnBatch(docs)
	}
	if l.labels == nil {
		l.labels = map[string]bool{}
	}
	for _, d := range docs {
		l.pending = append(l.pending, d)
		l.labels[d.Label] = true
	}
	if len(l.labels) < 2 {
		return nil
	}
	tr, err := facade.NewTrainer(l.cfg)
	if err != nil {
		return err
	}
	for _, d := range l.pending {
		if err := tr.Add(d.Label, d.Text); err != nil {
			return err
		}
	}
	m, _, err := tr.Finish()
	if err != nil {
		return err
	}
	l.setModel(m)
	return nil
}

// onlineScorer scores a run of documents.
type onlineScorer struct {
	ev       *metrics.Evaluator
	pos      int
	scores   []float64
	positive []bool
	classes  []string
}

func newOnlineScorer(classes []string, pos int) *onlineScorer {
	s := &onlineScorer{ev: metrics.NewEvaluator(classes), pos: pos, classes: classes}
	if pos >= 0 {
		s.ev.Positive = classes[pos]
	}
	return s
}

func (s *onlineScorer) add(truth string, class int, p []float64, score float64) {
	s.ev.AddProba(truth, class, p)
	if s.pos >= 0 {
		s.scores = append(s.scores, score)
		s.positive = append(s.positive, truth == s.classes[s.pos])
	}
}

// result returns the scores, ROC AUC ranked by the log-odds.
func (s *onlineScorer) result() onlineScores {
	r := onlineScores{Evaluation: s.ev.Result()}
	if b := r.BinaryScores; b != nil {
		roc, auc := metrics.ROC(s.scores, s.positive)
		b.ROC, b.ROCAUC = roc, auc
		for _, f := range metrics.RecallFPRs {
			b.RecallAtFPR[strconv.FormatFloat(f, 'g', -1, 64)] = metrics.RecallAtFPR(roc, f)
		}
		pct := 100 * (1 - auc)
		r.OneMinusAUCPct = &pct
	}
	return r
}

// printOnline prints an online evaluation's report.
func printOnline(w io.Writer, r onlineReport, seen bool) {
	order := map[string]string{"name": "file names", "date": "the messages' dates", "mtime": "modification times", "list": "the order list"}[r.Order]
	feedback := "each classified, then learned"
	if r.Batch > 1 {
		feedback = fmt.Sprintf("classified in batches of %d, then learned", r.Batch)
	}
	fmt.Fprintf(w, "online  %d documents of %s in time order by %s, %s (--learn %s)\n", r.Documents, plain(r.Corpus), order, feedback, r.Learn)
	start := "an empty model"
	if r.Start != "empty" {
		start = plain(r.Start)
	}
	sel := ""
	if r.Select != "" {
		sel = fmt.Sprintf(", classifying with the %s terms selected from them before each batch", r.Select)
	}
	if r.Unseen {
		sel += ", scoring the terms none of them held by each class's unseen mass"
	}
	fmt.Fprintf(w, "start   %s; at the end %s, %d documents learned%s; %.2fs (and %.2fs reading)\n\n", start, r.Setting, r.Learned, sel, r.Seconds, r.ReadSeconds)
	cols := []onlineScores{r.All}
	head := fmt.Sprintf("%-22s  %12s", "", "all")
	if r.AfterWarmup != nil {
		cols = append(cols, *r.AfterWarmup)
		head += fmt.Sprintf("  %12s", fmt.Sprintf("after %d", r.Warmup))
	}
	fmt.Fprintln(w, head)
	row := func(name string, f func(s onlineScores) string) {
		line := fmt.Sprintf("%-22s", name)
		for _, s := range cols {
			line += fmt.Sprintf("  %12s", f(s))
		}
		fmt.Fprintln(w, line)
	}
	row("documents", func(s onlineScores) string { return strconv.Itoa(s.N) })
	row("accuracy", func(s onlineScores) string { return fmt.Sprintf("%.4f", s.Accuracy) })
	for _, i := range labelOrder(r.All.Evaluation, seen) {
		name := r.All.Labels[i]
		row("recall "+plain(name), func(s onlineScores) string { return fmt.Sprintf("%.4f", s.PerClass[name].Recall) })
	}
	if r.All.BinaryScores != nil {
		row("ROC AUC ("+plain(r.All.Positive)+")", func(s onlineScores) string {
			if s.BinaryScores == nil {
				return "—"
			}
			return fmt.Sprintf("%.5f", s.ROCAUC)
		})
		row("1−AUC %", func(s onlineScores) string {
			if s.OneMinusAUCPct == nil {
				return "—"
			}
			return fmt.Sprintf("%.3f", *s.OneMinusAUCPct)
		})
	}
	row("log loss", func(s onlineScores) string {
		if s.ProbaScores == nil {
			return "—"
		}
		return fmt.Sprintf("%.4f", s.LogLoss)
	})
}
