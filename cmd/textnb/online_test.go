package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"

	"github.com/textnb/textnb/internal/testkit"
)

// onlineDoc is a document of a test corpus, in its time order.
type onlineDoc struct{ label, name, text string }

// enronLike writes n documents as Enron-Spam names them (NNNN.date.user.label.txt
// in ham/ and spam/), numbered in time order but with dates that put every
// ham before every spam, and mtimes in reverse: only the numbers give the
// order. It returns the folder and the documents in time order.
func enronLike(t *testing.T, n int, seed uint64) (string, []onlineDoc) {
	t.Helper()
	labels, texts := testkit.SpamLike(n, seed)
	files := map[string]string{}
	var docs []onlineDoc
	for i, label := range labels {
		year := 2000
		if label == "spam" {
			year = 2004
		}
		day := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i)
		name := fmt.Sprintf("%s/%04d.%s.user.%s.txt", label, i+1, day.Format("2006-01-02"), label)
		files[name] = texts[i]
		docs = append(docs, onlineDoc{label, name, texts[i]})
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

// TestCLIEvalOnlineFlags checks that eval --online's flags reach
// textnb.EvalOnline, on Enron-like names whose sequence numbers alone
// give the time order.
// onlineScores are the scores of eval --online --json.
type onlineScores struct {
	metrics.Evaluation
	OneMinusAUCPct *float64 `json:"one_minus_auc_pct"`
}

func TestCLIEvalOnlineFlags(t *testing.T) {
	dir, docs := enronLike(t, 120, 1)
	read := make([]corpus.Document, len(docs))
	for i, d := range docs {
		read[i] = corpus.Document{Source: filepath.Join(dir, d.name), Label: d.label, Text: d.text}
	}
	counts := facade.Config{Weighting: facade.RawCounts}
	binary := counts
	binary.Alpha, binary.Vocab.Binary, binary.Vocab.MaxFeatures = 1, true, 30
	binary.Select = facade.Selection{Method: facade.MutualInfo, K: 30}
	for _, c := range []struct {
		args []string
		opt  facade.OnlineOptions
	}{
		{[]string{"--learn", "errors", "--warmup", "30"}, facade.OnlineOptions{Config: counts, LearnErrors: true, Warmup: 30}},
		{[]string{"--batch", "20", "--warmup", "20", "--unseen", "--positive", "ham"},
			facade.OnlineOptions{Config: counts, Batch: 20, Warmup: 20, Unseen: true, Positive: "ham"}},
		{[]string{"--batch", "20", "--binary", "--select", "mi", "--features", "30", "--alpha", "1"},
			facade.OnlineOptions{Config: binary, Batch: 20, Warmup: 100}},
	} {
		var got struct { // eval --online --json, as a program reads it
			Order, Start, Select string
			Documents, Learned   int
			Unseen               bool
			All                  onlineScores
			AfterWarmup          *onlineScores `json:"after_warmup"`
		}
		out := mustRun(t, "", append(append([]string{"eval", "--online", "--json", "--input", "text"}, c.args...), dir)...)
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		want, err := facade.EvalOnline(read, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		what := strings.Join(c.args, " ")
		if got.Order != "name" || got.Start != "empty" || got.Documents != len(docs) || got.Learned != want.Learned ||
			got.Unseen != c.opt.Unseen || (got.Select != "") != (c.opt.Config.Select.K > 0) {
			t.Errorf("%s: order %s, start %s, %d documents, %d learned, unseen %v, select %q; want name, empty, %d, %d, %v",
				what, got.Order, got.Start, got.Documents, got.Learned, got.Unseen, got.Select, len(docs), want.Learned, c.opt.Unseen)
		}
		for _, s := range []struct {
			got  *onlineScores
			want *metrics.Evaluation
		}{{&got.All, want.All}, {got.AfterWarmup, want.AfterWarmup}} {
			if s.got == nil || s.got.N != s.want.N || s.got.Accuracy != s.want.Accuracy || s.got.Positive != s.want.Positive ||
				s.got.ROCAUC != s.want.ROCAUC || *s.got.OneMinusAUCPct != 100*(1-s.want.ROCAUC) {
				t.Errorf("%s: scores %+v, textnb.EvalOnline's %+v", what, s.got, s.want)
			}
		}
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
	var got facade.OnlineReport
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
		{[]string{"--select", "mi", "--features", "10"}, "selecting terms by mi online counts documents: it needs Binary"},
		{[]string{"--select", "chi2", "--features", "10", "--weighting", "tfidf"}, "on raw counts of the vocab vectorizer (not weighting tfidf"},
		{[]string{"-m", model, "--select", "chi2"}, "--select: -m MODEL has its settings"},
		{[]string{"--unseen", "--binary"}, "estimates the unseen mass from raw counts of term occurrences"},
		{[]string{"--unseen", "--select", "chi2", "--features", "10"}, "a selection leaves terms of the vocabulary out"},
		{[]string{"-m", model, "--unseen"}, "--unseen: -m MODEL has its settings"},
		{[]string{"--unseen", "--model", "cnb"}, "completes a Multinomial NB's probabilities (mnb, or auto for two classes), not cnb"},
	} {
		mustFail(t, 2, []string{c.msg}, append(append([]string{"eval", "--online"}, c.args...), dir)...)
	}
	mustFail(t, 2, []string{"--warmup needs --online"}, "eval", "-m", model, "--warmup", "5", dir)
	mustFail(t, 2, []string{"--select needs --online"}, "eval", "-m", model, "--select", "mi", dir)
}
