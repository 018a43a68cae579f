package textnb

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/roc"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// spamLike returns n ham and spam documents in their time order, a third
// of them spam, each with words of the other class and rare ones mixed in.
func spamLike(n int, seed uint64) []corpus.Document {
	labels, texts := testkit.SpamLike(n, seed)
	docs := make([]corpus.Document, n)
	for i := range docs {
		docs[i] = corpus.Document{Source: fmt.Sprintf("%04d", i+1), Label: labels[i], Text: texts[i]}
	}
	return docs
}

// spamTSV returns testdata/spam.tsv's documents in their order.
func spamTSV(t *testing.T) []corpus.Document {
	t.Helper()
	docs, err := corpus.ReadAll("testdata/spam.tsv", corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// referenceOnline replays docs by brute force: each document is classified
// by a model trained from scratch on the documents learned before it,
// then learned if learnAll or if it was misclassified (always while there
// is no model). It returns the decided classes, the spam log-odds and the
// number learned.
func referenceOnline(t *testing.T, docs []corpus.Document, cfg pipeline.Config, learnAll bool) ([]string, []float64, int) {
	t.Helper()
	var learned []corpus.Document
	var decided []string
	var scores []float64
	for _, d := range docs {
		class, score, model := classifyAfter(t, cfg, learned, d.Text)
		decided = append(decided, class)
		scores = append(scores, score)
		if learnAll || !model || class != d.Label {
			learned = append(learned, d)
		}
	}
	return decided, scores, len(learned)
}

// classifyAfter classifies text with a model trained on learned, and
// returns the class, the spam log-odds and whether there was a model:
// none while learned holds fewer than two classes, when every class is
// equally likely and the first, "ham", is decided.
func classifyAfter(t *testing.T, cfg pipeline.Config, learned []corpus.Document, text string) (string, float64, bool) {
	t.Helper()
	labels := map[string]bool{}
	for _, l := range learned {
		labels[l.Label] = true
	}
	if len(labels) < 2 {
		return "ham", 0, false
	}
	m := trainOn(t, cfg, learned)
	jll := m.NewPredictor().JointLogLikelihood(nil, text)
	s := slices.Index(m.Classes, "spam")
	return m.Classes[nb.Argmax(jll)], jll[s] - jll[1-s], true
}

func trainOn(t *testing.T, cfg pipeline.Config, docs []corpus.Document) *pipeline.Model {
	t.Helper()
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := tr.Add(d.Label, d.Text); err != nil {
			t.Fatal(err)
		}
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// batchReference classifies each document of docs with a model trained
// on the batches before its own, as classifyAfter does.
func batchReference(t *testing.T, docs []corpus.Document, cfg pipeline.Config, batch int) ([]string, []float64) {
	t.Helper()
	decided := make([]string, len(docs))
	scores := make([]float64, len(docs))
	for i, d := range docs {
		decided[i], scores[i], _ = classifyAfter(t, cfg, docs[:i/batch*batch], d.Text)
	}
	return decided, scores
}

// sameScores compares an online evaluation of docs[from:] with the
// reference's decisions and spam log-odds of them.
func sameScores(t *testing.T, what string, got *metrics.Evaluation, docs []corpus.Document, decided []string, scores []float64, from int) {
	t.Helper()
	ev := metrics.NewEvaluator([]string{"ham", "spam"})
	var pos []bool
	for i, d := range docs[from:] {
		ev.Add(d.Label, decided[from+i])
		pos = append(pos, d.Label == "spam")
	}
	want := ev.Result()
	_, auc := roc.Curve(scores[from:], pos)
	if got == nil || got.BinaryScores == nil {
		t.Fatalf("%s: no two-class scores: %+v", what, got)
	}
	if got.N != want.N || got.Accuracy != want.Accuracy || got.Positive != "spam" || math.Abs(got.ROCAUC-auc) > 1e-12 {
		t.Errorf("%s: n %d accuracy %v AUC %v (positive %s); the reference: n %d accuracy %v AUC %v (spam)",
			what, got.N, got.Accuracy, got.ROCAUC, got.Positive, want.N, want.Accuracy, auc)
	}
	for _, c := range []string{"ham", "spam"} {
		if g, w := got.PerClass[c], want.PerClass[c]; g.Recall != w.Recall || g.Support != w.Support {
			t.Errorf("%s: %s recall %v of %d, the reference %v of %d", what, c, g.Recall, g.Support, w.Recall, w.Support)
		}
	}
}

var countsConfig = Config{Weighting: pipeline.RawCounts}

// TestEvalOnlineReference checks EvalOnline against retraining on each
// prefix, for learning everything and learning only the mistakes.
func TestEvalOnlineReference(t *testing.T) {
	docs := spamLike(120, 1)
	cfg := pipeline.Config{Fast: true, Weighting: pipeline.RawCounts}
	for _, learnAll := range []bool{true, false} {
		got, err := EvalOnline(docs, OnlineOptions{Config: countsConfig, LearnErrors: !learnAll, Warmup: 30})
		if err != nil {
			t.Fatal(err)
		}
		decided, scores, learned := referenceOnline(t, docs, cfg, learnAll)
		what := fmt.Sprintf("learn all %v", learnAll)
		if got.Learned != learned || got.Model == nil {
			t.Errorf("%s: %d learned, model %v; want %d and a model", what, got.Learned, got.Model, learned)
		}
		if !learnAll && learned >= len(docs)-10 {
			t.Errorf("LearnErrors learned %d of %d: the test needs a corpus with fewer mistakes", learned, len(docs))
		}
		sameScores(t, what+", all", got.All, docs, decided, scores, 0)
		sameScores(t, what+", after 30", got.AfterWarmup, docs, decided, scores, 30)
	}
}

// TestEvalOnlineBatch checks Batch: a batch is classified by the model
// before it, then learned; the first, with no model, is decided ham.
func TestEvalOnlineBatch(t *testing.T) {
	docs := spamLike(60, 2)
	got, err := EvalOnline(docs, OnlineOptions{Config: countsConfig, Batch: 20, Warmup: 20})
	if err != nil {
		t.Fatal(err)
	}
	decided, scores := batchReference(t, docs, pipeline.Config{Fast: true, Weighting: pipeline.RawCounts}, 20)
	sameScores(t, "batch 20, after 20", got.AfterWarmup, docs, decided, scores, 20)
	sameScores(t, "batch 20, all", got.All, docs, decided, scores, 0)
	if got.Learned != len(docs) {
		t.Errorf("%d learned of %d", got.Learned, len(docs))
	}
}

// TestEvalOnlineStart starts from a trained model, which learns the
// documents, and keeps its classes' order.
func TestEvalOnlineStart(t *testing.T) {
	docs := spamLike(40, 3)
	var train []Document
	for _, d := range docs[:20] {
		train = append(train, Document{Label: d.Label, Text: d.Text})
	}
	m, err := Train(train, Config{Fast: true, Weighting: pipeline.RawCounts})
	if err != nil {
		t.Fatal(err)
	}
	got, err := EvalOnline(docs[20:], OnlineOptions{Start: m})
	if err != nil {
		t.Fatal(err)
	}
	info, err := m.Inspect(0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Model != m || info.Learned == nil || info.Learned.Documents != 20 || !slices.Equal(got.All.Labels, m.Classes()) {
		t.Errorf("model %p (start %p), learned %+v, labels %v", got.Model, m, info.Learned, got.All.Labels)
	}
	decided, scores, _ := referenceOnline(t, docs, pipeline.Config{Fast: true, Weighting: pipeline.RawCounts}, true)
	sameScores(t, "from a model", got.All, docs[20:], decided[20:], scores[20:], 0)
	if got.AfterWarmup != nil {
		t.Error("AfterWarmup without Warmup")
	}
}

// TestEvalOnlineSelect checks Config.Select, Metsis et al.'s protocol on
// testdata/spam.tsv (rows in their order): each batch is classified by a
// model of the terms of most mutual information in the documents before
// it, with Boolean attributes, as training with that selection on them
// would make it.
func TestEvalOnlineSelect(t *testing.T) {
	docs := spamTSV(t)
	const batch, k = 20, 30
	cfg := pipeline.Config{Weighting: pipeline.RawCounts, Alpha: 1, Vocab: vectorize.VocabConfig{Binary: true, MaxFeatures: k},
		Select: pipeline.Selection{Method: pipeline.MutualInfo, K: k}}
	cfg.Tokenize.WordNGrams = tokenize.NGramRange{Min: 1, Max: 1}
	got, err := EvalOnline(docs, OnlineOptions{Config: cfg, Batch: batch, Warmup: batch})
	if err != nil {
		t.Fatal(err)
	}
	ref := cfg
	ref.Fast, ref.Vocab.MaxFeatures = true, 0
	decided, scores := batchReference(t, docs, ref, batch)
	sameScores(t, "select mi 30", got.AfterWarmup, docs, decided, scores, batch)
	if r := got.AfterWarmup.PerClass; r["spam"].Recall == 0 || r["ham"].Recall == 0 {
		t.Errorf("no spam or no ham found: %+v", r)
	}
	// Without the selection every term decides: other scores.
	cfg.Select = pipeline.Selection{}
	all, err := EvalOnline(docs, OnlineOptions{Config: cfg, Batch: batch, Warmup: batch})
	if err != nil {
		t.Fatal(err)
	}
	if all.AfterWarmup.ROCAUC == got.AfterWarmup.ROCAUC {
		t.Errorf("selecting 30 terms ranks as every term does (AUC %v)", all.AfterWarmup.ROCAUC)
	}
}

// TestEvalOnlineUnseen checks Unseen on testdata/spam.tsv in batches:
// each class's score of a document adds, to the model's, its unseen mass's
// log for each occurrence of a term no earlier batch held and the log of
// the rest for each known one, from a model trained on the batches before.
func TestEvalOnlineUnseen(t *testing.T) {
	docs := spamTSV(t)
	const batch = 20
	decided := make([]string, len(docs))
	scores := make([]float64, len(docs))
	for i := batch; i < len(docs); i += batch {
		m := trainOn(t, pipeline.Config{Fast: true, Weighting: pipeline.RawCounts}, docs[:i])
		mass, err := m.UnseenMass()
		if err != nil {
			t.Fatal(err)
		}
		p := m.NewPredictor()
		for k := i; k < min(i+batch, len(docs)); k++ {
			jll := p.JointLogLikelihood(nil, docs[k].Text)
			known, unknown := p.Coverage()
			for c := range jll {
				jll[c] += known*math.Log1p(-mass[c]) + float64(unknown)*math.Log(mass[c])
			}
			s := slices.Index(m.Classes, "spam")
			decided[k], scores[k] = m.Classes[nb.Argmax(jll)], jll[s]-jll[1-s]
		}
	}
	got, err := EvalOnline(docs, OnlineOptions{Config: countsConfig, Batch: batch, Warmup: batch, Unseen: true})
	if err != nil {
		t.Fatal(err)
	}
	sameScores(t, "unseen", got.AfterWarmup, docs, decided, scores, batch)
	plain, err := EvalOnline(docs, OnlineOptions{Config: countsConfig, Batch: batch, Warmup: batch})
	if err != nil {
		t.Fatal(err)
	}
	if plain.AfterWarmup.ROCAUC == got.AfterWarmup.ROCAUC {
		t.Errorf("Unseen ranks as without it (AUC %v)", got.AfterWarmup.ROCAUC)
	}
}

// TestEvalOnlineOptions checks that options that cannot work are refused
// with ErrConfig before any document, and the positive class.
func TestEvalOnlineOptions(t *testing.T) {
	docs := spamTSV(t)
	m, err := Train([]Document{{Label: "ham", Text: "meeting agenda"}, {Label: "spam", Text: "cheap pills"}}, Config{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	mi := pipeline.Selection{Method: pipeline.MutualInfo, K: 10}
	binary := vectorize.VocabConfig{Binary: true}
	for _, c := range []struct {
		opt  OnlineOptions
		want string
	}{
		{OnlineOptions{Config: Config{Weighting: pipeline.RawCounts, Select: mi}}, "counts documents: it needs Binary"},
		{OnlineOptions{Config: Config{Vocab: binary, Select: mi}}, "on raw counts of the vocab vectorizer (not weighting tfidf"},
		{OnlineOptions{Config: Config{Weighting: pipeline.RawCounts, Vocab: binary}, Unseen: true}, "raw counts of term occurrences"},
		{OnlineOptions{Config: Config{Weighting: pipeline.RawCounts, Classifier: pipeline.Complement}, Unseen: true}, "not cnb"},
		{OnlineOptions{Config: Config{Weighting: pipeline.RawCounts, Select: pipeline.Selection{Method: pipeline.Chi2, K: 10}}, Unseen: true},
			"a selection leaves terms of the vocabulary out"},
		{OnlineOptions{Start: m, Unseen: true}, "a Start model has its settings"},
		{OnlineOptions{Config: Config{Alpha: -1}}, ""},
		{OnlineOptions{Config: countsConfig, Positive: "nope"}, `positive class "nope": want one of the corpus's classes ham, spam`},
	} {
		_, err := EvalOnline(docs, c.opt)
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want ErrConfig with %q", c.opt, err, c.want)
		}
	}
	got, err := EvalOnline(docs, OnlineOptions{Config: countsConfig, Positive: "ham"})
	if err != nil || got.All.Positive != "ham" {
		t.Errorf("Positive ham: %v, %v", got.All.BinaryScores, err)
	}
}
