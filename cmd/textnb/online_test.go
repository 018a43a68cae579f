package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// onlineDoc is a document of a test corpus, in its time order.
type onlineDoc struct{ label, name, text string }

// enronLike writes n documents as Enron-Spam names them (NNNN.date.user.label.txt
// in ham/ and spam/), numbered in time order but with dates that put every
// ham before every spam, and mtimes in reverse: only the numbers give the
// order. It returns the folder and the documents in time order.
func enronLike(t *testing.T, n int, seed uint64) (string, []onlineDoc) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	vocab := map[string][]string{
		"ham":  strings.Fields("meeting gas schedule report attached deal price contract monday team enron call"),
		"spam": strings.Fields("cheap viagra offer click free money winner price deal now pills save"),
	}
	files := map[string]string{}
	var docs []onlineDoc
	for i := range n {
		label, other, year := "ham", "spam", 2000
		if r.IntN(3) == 0 {
			label, other, year = "spam", "ham", 2004
		}
		var b strings.Builder
		b.WriteString("Subject: ")
		for k := range 4 + r.IntN(8) {
			if k > 0 {
				b.WriteByte(' ')
			}
			switch words := vocab[label]; r.IntN(8) {
			case 0: // a word of the other class, or a rare one
				words = vocab[other]
				b.WriteString(words[r.IntN(len(words))])
			case 1:
				fmt.Fprintf(&b, "w%d", r.IntN(40))
			default:
				b.WriteString(words[r.IntN(len(words))])
			}
		}
		day := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i)
		name := fmt.Sprintf("%s/%04d.%s.user.%s.txt", label, i+1, day.Format("2006-01-02"), label)
		files[name] = b.String()
		docs = append(docs, onlineDoc{label, name, b.String()})
	}
	dir := write(t, files)
	for i, d := range docs {
		mt := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n-i) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, d.name), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	return dir, docs
}

// referenceOnline replays docs by brute force: each document is classified
// by a model trained from scratch on the documents learned before it,
// then learned if learnAll or if it was misclassified (always while there
// is no model). It returns the decided classes, the spam log-odds and the
// number learned.
func referenceOnline(t *testing.T, docs []onlineDoc, cfg facade.Config, learnAll bool) ([]string, []float64, int) {
	t.Helper()
	var learned []onlineDoc
	var decided []string
	var scores []float64
	for _, d := range docs {
		class, score, model := classifyAfter(t, cfg, learned, d.text)
		decided = append(decided, class)
		scores = append(scores, score)
		if learnAll || !model || class != d.label {
			learned = append(learned, d)
		}
	}
	return decided, scores, len(learned)
}

// classifyAfter classifies text with a model trained on learned, and
// returns the class, the spam log-odds and whether there was a model:
// none while learned holds fewer than two classes, when every class is
// equally likely and the first, "ham", is decided.
func classifyAfter(t *testing.T, cfg facade.Config, learned []onlineDoc, text string) (string, float64, bool) {
	t.Helper()
	labels := map[string]bool{}
	for _, l := range learned {
		labels[l.label] = true
	}
	if len(labels) < 2 {
		return "ham", 0, false
	}
	tr, err := facade.NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range learned {
		if err := tr.Add(l.label, l.text); err != nil {
			t.Fatal(err)
		}
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	jll := m.NewPredictor().JointLogLikelihood(nil, text)
	s := slices.Index(m.Classes, "spam")
	return m.Classes[nb.Argmax(jll)], jll[s] - jll[1-s], true
}

// scoresOf is the part of an online run's JSON a test compares.
type scoresOf struct {
	N        int                            `json:"n"`
	Accuracy float64                        `json:"accuracy"`
	PerClass map[string]metrics.ClassScores `json:"per_class"`
	ROCAUC   float64                        `json:"roc_auc"`
	OneMinus float64                        `json:"one_minus_auc_pct"`
	Positive string                         `json:"positive"`
}

type onlineJSON struct {
	Order, Learn, Start, Setting string
	Documents, Learned, Warmup   int
	All                          scoresOf  `json:"all"`
	AfterWarmup                  *scoresOf `json:"after_warmup"`
}

// expected scores the reference's decisions of docs[from:] as eval --online must.
func expected(docs []onlineDoc, decided []string, scores []float64, from int) scoresOf {
	ev := metrics.NewEvaluator([]string{"ham", "spam"})
	var pos []bool
	for i, d := range docs[from:] {
		ev.Add(d.label, decided[from+i])
		pos = append(pos, d.label == "spam")
	}
	r := ev.Result()
	_, auc := metrics.ROC(scores[from:], pos)
	return scoresOf{N: r.N, Accuracy: r.Accuracy, PerClass: r.PerClass, ROCAUC: auc, OneMinus: 100 * (1 - auc), Positive: "spam"}
}

func sameScores(t *testing.T, what string, got, want scoresOf) {
	t.Helper()
	if got.N != want.N || got.Accuracy != want.Accuracy || got.Positive != want.Positive ||
		math.Abs(got.ROCAUC-want.ROCAUC) > 1e-12 || math.Abs(got.OneMinus-want.OneMinus) > 1e-9 {
		t.Errorf("%s: n %d accuracy %v AUC %v (1−AUC %v%%, positive %s); the reference: n %d accuracy %v AUC %v (%v%%, %s)",
			what, got.N, got.Accuracy, got.ROCAUC, got.OneMinus, got.Positive, want.N, want.Accuracy, want.ROCAUC, want.OneMinus, want.Positive)
	}
	for _, c := range []string{"ham", "spam"} {
		if g, w := got.PerClass[c], want.PerClass[c]; g.Recall != w.Recall || g.Support != w.Support {
			t.Errorf("%s: %s recall %v of %d, the reference %v of %d", what, c, g.Recall, g.Support, w.Recall, w.Support)
		}
	}
}

// TestCLIEvalOnlineReference checks eval --online against retraining on
// each prefix, for learning everything and learning only the mistakes,
// in the order of the names' sequence numbers.
func TestCLIEvalOnlineReference(t *testing.T) {
	dir, docs := enronLike(t, 120, 1)
	cfg := facade.Config{Fast: true, Weighting: facade.RawCounts}
	for _, mode := range []string{"all", "errors"} {
		var got onlineJSON
		out := mustRun(t, "", "eval", "--online", "--learn", mode, "--warmup", "30", "--json", "--input", "text", dir)
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		decided, scores, learned := referenceOnline(t, docs, cfg, mode == "all")
		if got.Order != "name" || got.Learn != mode || got.Start != "empty" || got.Documents != len(docs) || got.Learned != learned {
			t.Errorf("--learn %s: order %s, learn %s, start %s, %d documents, %d learned; want name, %s, empty, %d, %d",
				mode, got.Order, got.Learn, got.Start, got.Documents, got.Learned, mode, len(docs), learned)
		}
		if mode == "errors" && learned >= len(docs)-10 {
			t.Errorf("--learn errors learned %d of %d: the test needs a corpus with fewer mistakes", learned, len(docs))
		}
		sameScores(t, "--learn "+mode+" all", got.All, expected(docs, decided, scores, 0))
		if got.AfterWarmup == nil {
			t.Fatalf("--learn %s: no after_warmup", mode)
		}
		sameScores(t, "--learn "+mode+" after 30", *got.AfterWarmup, expected(docs, decided, scores, 30))
	}
}

// TestCLIEvalOnlineBatch checks --batch: a batch is classified by the
// model before it, then learned.
func TestCLIEvalOnlineBatch(t *testing.T) {
	dir, docs := enronLike(t, 60, 2)
	var got onlineJSON
	out := mustRun(t, "", "eval", "--online", "--batch", "20", "--warmup", "20", "--json", "--input", "text", dir)
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// the reference: a model trained on each batch's predecessors
	cfg := facade.Config{Fast: true, Weighting: facade.RawCounts}
	decided := make([]string, len(docs))
	scores := make([]float64, len(docs))
	for i, d := range docs {
		decided[i], scores[i], _ = classifyAfter(t, cfg, docs[:i/20*20], d.text)
	}
	sameScores(t, "--batch 20 after 20", *got.AfterWarmup, expected(docs, decided, scores, 20))
	if got.All.PerClass["ham"].Recall != expected(docs, decided, scores, 0).PerClass["ham"].Recall {
		t.Errorf("--batch 20: the first batch, with no model, is decided ham: recall %v", got.All.PerClass["ham"].Recall)
	}
}

// TestCLIEvalOnlineOrders checks the order eval --online reports for mail
// with Date fields and for plain text (modification times), its text
// report, and that -m MODEL starts from a trained model.
func TestCLIEvalOnlineOrders(t *testing.T) {
	msg := func(date, body string) string {
		return "From: a@example.com\nMessage-ID: <" + body + "@x>\nDate: " + date + "\nSubject: " + body + "\n\n" + body + "\n"
	}
	mailDir := write(t, map[string]string{
		"ham/1":  msg("Thu, 22 Aug 2002 09:00:00 +0000", "meeting agenda"),
		"ham/2":  msg("Fri, 23 Aug 2002 09:00:00 +0000", "agenda notes"),
		"spam/1": msg("Wed, 21 Aug 2002 09:00:00 +0000", "cheap pills"),
		"spam/2": msg("Sat, 24 Aug 2002 09:00:00 +0000", "pills offer"),
	})
	var got onlineJSON
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "--online", "--json", mailDir)), &got); err != nil {
		t.Fatal(err)
	}
	// spam/1 (no model: ham decided), ham/1 (one class learned: ham), then a model
	if got.Order != "date" || got.Documents != 4 || got.All.PerClass["ham"].Support != 2 {
		t.Errorf("mail: order %s, %d documents, %+v", got.Order, got.Documents, got.All)
	}
	textDir := write(t, map[string]string{"pos/a": "good fine", "pos/b": "fine great", "neg/c": "bad awful", "neg/d": "awful poor"})
	rep := mustRun(t, "", "eval", "--online", "--warmup", "1", textDir)
	for _, want := range []string{"in time order by modification times", "each classified, then learned (--learn all)",
		"start   an empty model; at the end mnb α 0.1 plain, counts, 4 documents learned", "after 1", "recall neg", "recall pos", "1−AUC %"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	model := trainTo(t, textDir, "--fast", "--weighting", "counts")
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "--online", "--json", "-m", model, "--online-order", "name", textDir)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Start != model || got.Order != "name" || got.All.Accuracy != 1 {
		t.Errorf("-m: start %s, order %s, accuracy %v; want the model, name, 1 (it was trained on these)", got.Start, got.Order, got.All.Accuracy)
	}
}

func TestCLIEvalOnlineUsage(t *testing.T) {
	dir := write(t, map[string]string{"pos/a": "good", "neg/b": "bad"})
	model := trainTo(t, dir, "--fast")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--learn", "some"}, "--learn \"some\": want all or errors"},
		{[]string{"--online-order", filepath.Join(dir, "nothing")}, "want auto, name, date, mtime or a list FILE"},
		{[]string{"--batch", "0"}, "--batch 0"},
		{[]string{"-m", model, "--alpha", "1"}, "--alpha: -m MODEL has its settings"},
		{[]string{"--errors", "3"}, "--errors does not combine with --online"},
		{[]string{"--select", "mi"}, "--select mi needs --features K"},
		{[]string{"--select", "mi", "--features", "10"}, "--select mi counts documents: with --online it needs --binary"},
		{[]string{"--select", "chi2", "--features", "10", "--weighting", "tfidf"}, "scores the terms on raw counts"},
		{[]string{"-m", model, "--select", "chi2"}, "--select: -m MODEL has its settings"},
		{[]string{"--unseen", "--binary"}, "--unseen estimates the unseen mass from raw counts"},
		{[]string{"--unseen", "--select", "chi2", "--features", "10"}, "--select leaves terms of the vocabulary out"},
		{[]string{"-m", model, "--unseen"}, "--unseen: -m MODEL has its settings"},
		{[]string{"--unseen", "--model", "cnb"}, "--unseen completes a Multinomial NB's probabilities"},
	} {
		mustFail(t, 2, []string{c.msg}, append(append([]string{"eval", "--online"}, c.args...), dir)...)
	}
	mustFail(t, 2, []string{"--warmup needs --online"}, "eval", "-m", model, "--warmup", "5", dir)
	mustFail(t, 2, []string{"--select needs --online"}, "eval", "-m", model, "--select", "mi", dir)
}

// TestCLIEvalOnlineSelect checks --select, Metsis et al.'s protocol on
// testdata/spam.tsv (rows in their order): each batch is classified by a
// model of the terms of most mutual information in the documents before
// it, with Boolean attributes, as training with that selection on them
// would make it.
func TestCLIEvalOnlineSelect(t *testing.T) {
	path := "../../testdata/spam.tsv"
	read, err := corpus.ReadAll(path, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var docs []onlineDoc
	for _, d := range read {
		docs = append(docs, onlineDoc{label: d.Label, name: d.Source, text: d.Text})
	}
	const batch, k = 20, 30
	var got onlineJSON
	out := mustRun(t, "", "eval", "--online", "--batch", "20", "--warmup", "20", "--binary", "--select", "mi", "--features", "30",
		"--alpha", "1", "--ngrams", "1,1", "--json", path)
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	cfg := facade.Config{Fast: true, Weighting: facade.RawCounts, Alpha: 1, Vocab: vectorize.VocabConfig{Binary: true},
		Select: facade.Selection{Method: facade.MutualInfo, K: k}}
	cfg.Tokenize.WordNGrams = tokenize.NGramRange{Min: 1, Max: 1}
	decided := make([]string, len(docs))
	scores := make([]float64, len(docs))
	for i, d := range docs {
		decided[i], scores[i], _ = classifyAfter(t, cfg, docs[:i/batch*batch], d.text)
	}
	want := expected(docs, decided, scores, batch)
	sameScores(t, "--select mi --features 30", *got.AfterWarmup, want)
	if want.PerClass["spam"].Recall == 0 || want.PerClass["ham"].Recall == 0 {
		t.Errorf("the reference finds no spam or no ham: %+v", want.PerClass)
	}
	// Without the selection every term decides: other scores.
	var all onlineJSON
	out = mustRun(t, "", "eval", "--online", "--batch", "20", "--warmup", "20", "--binary", "--alpha", "1", "--ngrams", "1,1", "--json", path)
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatal(err)
	}
	if all.AfterWarmup.ROCAUC == got.AfterWarmup.ROCAUC {
		t.Errorf("--select mi --features 30 ranks as every term does (AUC %v)", all.AfterWarmup.ROCAUC)
	}
	if strings.Contains(out, `"select"`) {
		t.Errorf("--json without --select reports a selection")
	}
	var sel struct{ Select string }
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "--online", "--batch", "20", "--binary", "--select", "mi", "--features", "30", "--json", path)), &sel); err != nil || sel.Select != "mi 30" {
		t.Errorf("--json: select %q (%v), want \"mi 30\"", sel.Select, err)
	}
}

// TestCLIEvalOnlineUnseen checks --unseen on testdata/spam.tsv in batches:
// each class's score of a document adds, to the model's, its unseen mass's
// log for each occurrence of a term no earlier batch held and the log of
// the rest for each known one, from a model trained on the batches before.
func TestCLIEvalOnlineUnseen(t *testing.T) {
	path := "../../testdata/spam.tsv"
	read, err := corpus.ReadAll(path, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const batch = 20
	var docs []onlineDoc
	for _, d := range read {
		docs = append(docs, onlineDoc{label: d.Label, name: d.Source, text: d.Text})
	}
	cfg := facade.Config{Fast: true, Weighting: facade.RawCounts}
	decided := make([]string, len(docs))
	scores := make([]float64, len(docs))
	for i := batch; i < len(docs); i += batch {
		tr, err := facade.NewTrainer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs[:i] {
			if err := tr.Add(d.label, d.text); err != nil {
				t.Fatal(err)
			}
		}
		m, _, err := tr.Finish()
		if err != nil {
			t.Fatal(err)
		}
		mass, err := m.UnseenMass()
		if err != nil {
			t.Fatal(err)
		}
		p := m.NewPredictor()
		for k := i; k < min(i+batch, len(docs)); k++ {
			jll := p.JointLogLikelihood(nil, docs[k].text)
			known, unknown := p.Coverage()
			for c := range jll {
				jll[c] += known*math.Log1p(-mass[c]) + float64(unknown)*math.Log(mass[c])
			}
			s := slices.Index(m.Classes, "spam")
			decided[k], scores[k] = m.Classes[nb.Argmax(jll)], jll[s]-jll[1-s]
		}
	}
	var got, plain onlineJSON
	out := mustRun(t, "", "eval", "--online", "--batch", "20", "--warmup", "20", "--unseen", "--json", path)
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := expected(docs, decided, scores, batch)
	sameScores(t, "--unseen", *got.AfterWarmup, want)
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "--online", "--batch", "20", "--warmup", "20", "--json", path)), &plain); err != nil {
		t.Fatal(err)
	}
	if plain.AfterWarmup.ROCAUC == got.AfterWarmup.ROCAUC {
		t.Errorf("--unseen ranks as without it (AUC %v)", got.AfterWarmup.ROCAUC)
	}
	if !strings.Contains(out, `"unseen":true`) {
		t.Errorf("--json does not report --unseen:\n%s", out)
	}
}
