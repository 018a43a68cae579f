package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/pipeline"
)

// bigCorpus copies the news test corpus n times over into one folder: more
// documents than several read-ahead batches hold, ending in a partial one.
func bigCorpus(t *testing.T, n int) (root string, docs int) { return copyCorpus(t, newsTest, 0, n) }

// Eval, which reads its corpus ahead, counts every document of a corpus of
// several batches once, with the predictions that predict (which reads as
// it goes) makes for them.
func TestCLIEvalReadsAheadEveryDocument(t *testing.T) {
	model := filepath.Join(t.TempDir(), "news.model")
	mustRun(t, "", "train", newsTrain, "-o", model)
	root, n := bigCorpus(t, 8) // 640 documents: two full batches and a partial one
	var ev pipeline.Evaluation
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", root)), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.N != n {
		t.Fatalf("eval counted %d documents, want %d", ev.N, n)
	}
	index := map[string]int{}
	for i, l := range ev.Labels {
		index[l] = i
	}
	want := make([][]int, len(ev.Labels))
	for i := range want {
		want[i] = make([]int, len(ev.Labels))
	}
	for _, l := range lines(mustRun(t, "", "predict", "-m", model, "--json", root)) {
		var p jsonPrediction
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		truth := filepath.Base(filepath.Dir(p.Source))
		want[index[truth]][index[p.Label]]++
	}
	if fmt.Sprint(ev.Confusion) != fmt.Sprint(want) {
		t.Errorf("eval's confusion matrix %v, predict's %v", ev.Confusion, want)
	}
}

// stop ends a read-ahead that is blocked on a full buffer, and returns
// once its goroutine has.
func TestReadAheadStop(t *testing.T) {
	root, _ := bigCorpus(t, 60) // 4,800 documents: more than the buffer holds
	r := startReadAhead(root, corpus.Options{})
	first := <-r.batches // the reading has started
	if len(first) == 0 {
		t.Fatal("an empty batch")
	}
	r.stop()
	if _, open := <-r.batches; open {
		t.Error("the read-ahead still sends after stop returned")
	}
	if r.err != errStopped {
		t.Errorf("error after stop: %v, want errStopped", r.err)
	}
}

// A corpus error comes after the documents read before it.
func TestReadAheadErrorAfterDocuments(t *testing.T) {
	path := filepath.Join(t.TempDir(), "late.tsv")
	text := "label\ttext\n" + strings.Repeat("ham\thi there\n", 300) + "spam no tab\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := startReadAhead(path, corpus.Options{})
	defer r.stop()
	n := 0
	err := r.each(func(corpus.Document) { n++ })
	if n != 300 || err == nil || !strings.Contains(err.Error(), "late.tsv:302") {
		t.Errorf("%d documents, then %v; want 300, then an error at late.tsv:302", n, err)
	}
}
