package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
)

// Eval, which reads its corpus ahead, counts every document of a corpus of
// several batches once, with the predictions that predict (which reads as
// it goes) makes for them.
func TestCLIEvalReadsAheadEveryDocument(t *testing.T) {
	model := filepath.Join(t.TempDir(), "news.model")
	mustRun(t, "", "train", newsTrain, "-o", model)
	root, n := copyCorpus(t, newsTest, 0, 8) // 640 documents: two full batches and a partial one
	var ev metrics.Evaluation
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
	root, _ := copyCorpus(t, newsTest, 0, 60) // 4,800 documents: more than the buffer holds
	r := startReadAhead(root, corpus.Options{})
	for len(r.batches) < cap(r.batches) { // a read-ahead that never fills it fails by the test timeout
		time.Sleep(time.Millisecond)
	}
	r.stop()
	if _, open := <-r.batches; open {
		t.Error("the read-ahead still sends after stop returned")
	}
	if r.err != errStopped {
		t.Errorf("error after stop: %v, want errStopped", r.err)
	}
}

// A batch ends at aheadBytes of text as well as at aheadDocs documents, so
// that what waits stays small whatever the documents' length.
func TestReadAheadBatchBytes(t *testing.T) {
	long := strings.Repeat("word ", aheadBytes/5*4/5) // 4/5 of the bound
	dir := write(t, map[string]string{"long/0": long, "long/1": long, "long/2": long})
	r := startReadAhead(dir, corpus.Options{})
	defer r.stop()
	var sizes []int
	for b := range r.batches {
		sizes = append(sizes, len(b))
	}
	if r.err != nil || !slices.Equal(sizes, []int{2, 1}) {
		t.Errorf("batches of %v documents (%v), want [2 1]: the second long document fills the first", sizes, r.err)
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
