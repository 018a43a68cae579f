package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"

	"github.com/textnb/textnb/metrics"
)

const (
	newsTrain = "../../testdata/news/train"
	newsTest  = "../../testdata/news/test"
	spamTSV   = "../../testdata/spam.tsv"
)

// textnb runs one command line in process and returns its output and exit
// code.
func textnb(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), code
}

// mustRun runs a command line that must succeed and returns its stdout.
func mustRun(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	out, errOut, code := textnb(t, stdin, args...)
	if code != 0 {
		t.Fatalf("textnb %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// mustFail runs a command line that must fail with exit code want and a
// message containing every one of msgs.
func mustFail(t *testing.T, want int, msgs []string, args ...string) {
	t.Helper()
	out, errOut, code := textnb(t, "", args...)
	if code != want {
		t.Fatalf("textnb %s: exit %d, want %d\nstdout %s\nstderr %s", strings.Join(args, " "), code, want, out, errOut)
	}
	for _, m := range msgs {
		if !strings.Contains(errOut, m) {
			t.Errorf("textnb %s: message %q lacks %q", strings.Join(args, " "), errOut, m)
		}
	}
}

// trainTo trains a model on path into a temporary folder.
func trainTo(t *testing.T, path string, args ...string) string {
	t.Helper()
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, "", append([]string{"train", path, "-o", model}, args...)...)
	return model
}

// lines splits output into its lines, without the final newline.
func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

func TestCLINews(t *testing.T) {
	model := filepath.Join(t.TempDir(), "news.model")
	out := mustRun(t, "", "train", newsTrain, "-o", model)
	// α 0.1 ties α 0.3, the plain default, which a tie keeps
	if !strings.Contains(out, "trained cnb (alpha 0.3) on 240 documents (0 empty), 4 classes") || !strings.Contains(out, "wrote "+model) ||
		!strings.Contains(out, "chose cnb α 0.3 plain (cv accuracy ") || !strings.Contains(out, "runner-up cnb α 0.1 plain") {
		t.Fatalf("train summary:\n%s", out)
	}
	if c, err := facade.Open(model); err != nil || c.Kind() != facade.TextModel {
		t.Fatalf("Open = %v, %v", c, err)
	}

	report := mustRun(t, "", "eval", "-m", model, newsTest)
	first := lines(report)[:3]
	acc, err := strconv.ParseFloat(strings.Fields(first[1])[1], 64)
	if first[0] != "documents 80" || err != nil || acc < 0.85 {
		t.Fatalf("eval report starts %q", first)
	}
	var ev metrics.Evaluation
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", newsTest)), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.N != 80 || len(ev.Labels) != 4 || math.Abs(ev.Accuracy-acc) > 1e-4 {
		t.Fatalf("eval --json: %+v, want 80 documents, 4 labels, accuracy %g", ev, acc)
	}

	for _, top := range []int{1, 2, 9} {
		rows := lines(mustRun(t, "", "predict", "-m", model, "--top", strconv.Itoa(top), newsTest))
		if len(rows) != 80 {
			t.Fatalf("--top %d: %d lines, want 80", top, len(rows))
		}
		for _, r := range rows {
			f := strings.Split(r, "\t")
			if len(f) != 1+2*min(top, 4) || !strings.HasPrefix(f[0], newsTest) {
				t.Fatalf("--top %d: line %q", top, r)
			}
			for i := 4; i < len(f); i += 2 {
				if p, q := num(t, f[i-2]), num(t, f[i]); q > p {
					t.Fatalf("--top %d: probabilities out of order in %q", top, r)
				}
			}
		}
	}
	js := lines(mustRun(t, "", "predict", "-m", model, "--json", "--top", "2", newsTest+"/sport"))
	for _, l := range js {
		var p jsonPrediction
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, v := range p.Proba {
			sum += v
		}
		if len(p.Proba) != 4 || math.Abs(sum-1) > 1e-9 || len(p.Top) != 2 || p.Top[0].Label != p.Label {
			t.Fatalf("--json line %s", l)
		}
	}
	if len(js) != 20 {
		t.Fatalf("predict on one class folder: %d lines, want 20", len(js))
	}
	std := lines(mustRun(t, "The striker scored twice\nShares fell on the stock market\n", "predict", "-m", model, "-"))
	if len(std) != 2 || !strings.HasPrefix(std[0], "stdin:1\tsport\t") || !strings.HasPrefix(std[1], "stdin:2\tfinance\t") {
		t.Fatalf("predict from stdin:\n%s", strings.Join(std, "\n"))
	}
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCLIUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "Commands:"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"train", newsTrain}, 2, "-o MODEL"},
		{[]string{"train", newsTrain, "-o", "x", "--model", "svm"}, 2, `--model "svm": want auto, cnb, mnb or bnb for text, or gaussian or categorical`},
		{[]string{"predict", newsTest}, 2, "-m MODEL"},
		{[]string{"predict", "-m", "x", "--top", "0", "-"}, 2, "--top 0"},
		{[]string{"eval", "-m", "x"}, 2, "one CORPUS"},
		{[]string{"eval", "-m", "x", "--nope", newsTest}, 2, "unknown flag --nope (textnb eval --help lists the flags)"},
	} {
		mustFail(t, tc.code, []string{tc.msg}, tc.args...)
	}
	if _, errOut, code := textnb(t, "", "predict", "--help"); code != 0 || !strings.Contains(errOut, "--estimate-priors") {
		t.Errorf("predict --help: exit %d\n%s", code, errOut)
	}
}

// copyCorpus copies the first n documents (all if n is 0) of every class
// of the corpus folder src, times times over, into a new corpus folder,
// and returns it with the number of documents written.
func copyCorpus(t *testing.T, src string, n, times int) (dir string, docs int) {
	t.Helper()
	dir = t.TempDir()
	classes, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		files, err := os.ReadDir(filepath.Join(src, c.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			files = files[:n]
		}
		if err := os.MkdirAll(filepath.Join(dir, c.Name()), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(src, c.Name(), f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			for k := range times {
				name := f.Name()
				if k > 0 {
					name = strconv.Itoa(k) + "-" + name
				}
				if err := os.WriteFile(filepath.Join(dir, c.Name(), name), b, 0o644); err != nil {
					t.Fatal(err)
				}
				docs++
			}
		}
	}
	return dir, docs
}

// write creates the files of a small corpus under a temporary folder; a
// name ending in "/" is an empty folder.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		p := filepath.Join(root, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestCLIBadInput checks that every kind of bad training input fails with
// a message naming the problem, exit code 1 and no model file.
func TestCLIBadInput(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string
		corpus string // under the folder; "" is the folder itself
		msgs   []string
	}{
		{"empty folder", map[string]string{"c/": ""}, "c", []string{"no documents"}},
		{"empty class folder", map[string]string{"c/a/1.txt": "hello world", "c/b/": ""}, "c", []string{"empty class folder", filepath.Join("c", "b")}},
		{"one class", map[string]string{"c/a/1.txt": "hello", "c/a/2.txt": "world"}, "c", []string{"only one class", `"a"`}},
		{"missing path", nil, "nowhere", []string{"nowhere", "no such file"}},
		{"malformed line", map[string]string{"bad.tsv": "label\ttext\nham\thi there\nspam no tab\n"}, "bad.tsv", []string{"bad.tsv:3", "wrong number of fields"}},
		{"unsupported file", map[string]string{"notes.docx": "x"}, "notes.docx", []string{"notes.docx"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := write(t, tc.files)
			model := filepath.Join(root, "out.model")
			mustFail(t, 1, tc.msgs, "train", filepath.Join(root, tc.corpus), "-o", model)
			entries, _ := os.ReadDir(root)
			for _, e := range entries {
				if strings.Contains(e.Name(), "out.model") {
					t.Errorf("a failed train left %s behind", e.Name())
				}
			}
		})
	}
}

// Eval reads its corpus while the model loads: the corpus's errors are
// still reported, naming the file and line, and a model's error comes
// first.
func TestCLIEvalBadCorpus(t *testing.T) {
	model := filepath.Join(t.TempDir(), "news.model")
	mustRun(t, "", "train", newsTrain, "-o", model)
	for _, tc := range []struct {
		name   string
		files  map[string]string
		corpus string
		msgs   []string
	}{
		{"empty folder", map[string]string{"c/": ""}, "c", []string{"no documents"}},
		{"missing path", nil, "nowhere", []string{"nowhere", "no such file"}},
		{"malformed line", map[string]string{"bad.tsv": "label\ttext\nham\thi there\nspam no tab\n"}, "bad.tsv", []string{"bad.tsv:3", "wrong number of fields"}},
		{"malformed line after a full batch", map[string]string{"late.tsv": "label\ttext\n" + strings.Repeat("ham\thi there\n", 5000) + "spam no tab\n"},
			"late.tsv", []string{"late.tsv:5002", "wrong number of fields"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := write(t, tc.files)
			mustFail(t, 1, tc.msgs, "eval", "-m", model, filepath.Join(root, tc.corpus))
		})
	}
	root := write(t, map[string]string{"bad.tsv": "label\ttext\nspam no tab\n"})
	corpusPath, missing := filepath.Join(root, "bad.tsv"), filepath.Join(root, "missing.model")
	_, errOut, code := textnb(t, "", "eval", "-m", missing, corpusPath)
	if code != 1 || !strings.Contains(errOut, missing) || !strings.Contains(errOut, "no such file") || strings.Contains(errOut, corpusPath) {
		t.Errorf("a missing model and a bad corpus: exit %d, %q; want the model's error alone", code, errOut)
	}
}

func TestCLIEmptyDocument(t *testing.T) {
	root := write(t, map[string]string{
		"c/a/1.txt": "the match ended in a draw", "c/a/2.txt": "",
		"c/b/1.txt": "interest rates rose again", "c/b/2.txt": "  \n",
	})
	out := mustRun(t, "", "train", filepath.Join(root, "c"), "-o", filepath.Join(root, "m.model"))
	if !strings.Contains(out, "on 4 documents (2 empty), 2 classes") {
		t.Fatalf("summary %q, want 4 documents with 2 empty", out)
	}
	// An empty document still gets a prediction.
	row := mustRun(t, "", "predict", "-m", filepath.Join(root, "m.model"), filepath.Join(root, "c/a/2.txt"))
	if f := strings.Split(strings.TrimSpace(row), "\t"); len(f) != 3 {
		t.Fatalf("predict of an empty document: %q", row)
	}
}

func TestCLIForeignModelFile(t *testing.T) {
	root := write(t, map[string]string{
		"junk.model":  "\x89PNG\r\n\x1a\n not a model at all",
		"short.model": "",
		"doc.txt":     "hello",
	})
	model := trainTo(t, spamTSV)
	damaged, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	damaged[len(damaged)/2] ^= 0xff
	if err := os.WriteFile(filepath.Join(root, "damaged.model"), damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(root, "doc.txt")
	for name, msg := range map[string]string{
		"junk.model":    "not a textnb model file",
		"short.model":   "not a textnb model file",
		"damaged.model": "checksum mismatch",
		"none.model":    "no such file",
	} {
		p := filepath.Join(root, name)
		mustFail(t, 1, []string{p, msg}, "predict", "-m", p, doc)
		mustFail(t, 1, []string{p, msg}, "eval", "-m", p, spamTSV)
	}
}

// TestCLIFailedTrainKeepsModel: a failed train leaves an existing model
// file as it was.
func TestCLIFailedTrainKeepsModel(t *testing.T) {
	model := trainTo(t, spamTSV)
	before, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	root := write(t, map[string]string{"c/a/1.txt": "only one class here"})
	mustFail(t, 1, []string{"only one class"}, "train", filepath.Join(root, "c"), "-o", model)
	after, err := os.ReadFile(model)
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("model file changed by a failed train (err %v)", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(model))
	if len(entries) != 1 {
		t.Fatalf("folder holds %d entries after a failed train, want the model only", len(entries))
	}
}

func TestCLIBernoulli(t *testing.T) {
	model := trainTo(t, newsTrain, "--model", "bnb")
	out := mustRun(t, "", "eval", "-m", model, newsTest)
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Scan()
	sc.Scan()
	if f := strings.Fields(sc.Text()); len(f) != 2 || num(t, f[1]) < 0.7 {
		t.Fatalf("bnb eval: %q", sc.Text())
	}
}

// loadPipeline reads a text model file as the engine holds it.
func loadPipeline(path string) (*facade.Pipeline, error) {
	m, err := facade.Load(path)
	if err != nil {
		return nil, err
	}
	return m.Pipeline(), nil
}

// loadMultiLabel reads a multi-label model file as the engine holds it.
func loadMultiLabel(path string) (*facade.MultiLabelPipeline, error) {
	c, err := facade.Open(path)
	if err != nil {
		return nil, err
	}
	m, ok := c.(*facade.MultiLabel)
	if !ok {
		return nil, fmt.Errorf("%s: a %v, not a multi-label model", path, c.Kind())
	}
	return m.Pipeline(), nil
}
