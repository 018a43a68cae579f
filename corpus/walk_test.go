package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/textnb/textnb/internal/testkit"
)

// brief renders documents as "label|text" with sources relative to dir.
func brief(dir string, docs []Document) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		src, _ := filepath.Rel(dir, strings.SplitN(d.Source, ":", 2)[0])
		if _, line, ok := strings.Cut(d.Source, ":"); ok {
			src += ":" + line
		}
		out[i] = src + " " + d.Label + "|" + d.Text
	}
	return out
}

func mustReadAll(t *testing.T, path string, opt Options) []Document {
	t.Helper()
	docs, err := ReadAll(path, opt)
	if err != nil {
		t.Fatalf("ReadAll(%s): %v", path, err)
	}
	return docs
}

func assertDocs(t *testing.T, dir string, docs []Document, want []string) {
	t.Helper()
	if got := brief(dir, docs); !reflect.DeepEqual(got, want) {
		t.Errorf("documents:\n got %q\nwant %q", got, want)
	}
}

func TestWalkDirectory(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "sport/b.txt", "goal")
	testkit.Write(t, dir, "sport/a.txt", "match")
	testkit.Write(t, dir, "sport/.hidden", "skip me")
	testkit.Write(t, dir, "sport/deep/c", "nested")
	testkit.Write(t, dir, "politics/1", "vote")
	testkit.Write(t, dir, ".git/config", "not a class")
	for _, workers := range []int{0, 1, 3} {
		docs := mustReadAll(t, dir, Options{Workers: workers})
		assertDocs(t, dir, docs, []string{
			"politics/1 politics|vote",
			"sport/a.txt sport|match",
			"sport/b.txt sport|goal",
			"sport/deep/c sport|nested",
		})
	}
}

func TestWalkDirectorySymlinks(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	target := testkit.Write(t, other, "real.txt", "linked text")
	testkit.Write(t, dir, "a/x", "plain")
	if err := os.Symlink(target, filepath.Join(dir, "a", "y")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	// A symlinked class folder is followed too.
	testkit.Write(t, other, "cls/z", "in linked class")
	if err := os.Symlink(filepath.Join(other, "cls"), filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	docs := mustReadAll(t, dir, Options{})
	assertDocs(t, dir, docs, []string{"a/x a|plain", "a/y a|linked text", "b/z b|in linked class"})

	// A dangling link is an error naming it.
	if err := os.Symlink(filepath.Join(other, "gone"), filepath.Join(dir, "a", "z")); err != nil {
		t.Fatal(err)
	}
	_, err := ReadAll(dir, Options{})
	testkit.ErrorMentions(t, err, filepath.Join(dir, "a", "z"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dangling link: %v is not fs.ErrNotExist", err)
	}
}

func TestWalkRootFiles(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "c1/a", "one")
	testkit.Write(t, dir, "loose.txt", "two")
	_, err := ReadAll(dir, Options{})
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("labeled root file: got %v, want ErrUnsupported", err)
	}
	testkit.ErrorMentions(t, err, "loose.txt")

	docs := mustReadAll(t, dir, Options{Unlabeled: true})
	assertDocs(t, dir, docs, []string{"c1/a |one", "loose.txt |two"})
}

func TestWalkUnlabeledFlat(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "b", "beta")
	testkit.Write(t, dir, "a", "alpha")
	testkit.Write(t, dir, ".a", "hidden")
	docs := mustReadAll(t, dir, Options{Unlabeled: true})
	assertDocs(t, dir, docs, []string{"a |alpha", "b |beta"})
}

func TestEmptyClass(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "full/a", "x")
	testkit.Write(t, dir, "hollow/.only-hidden", "x")
	called := false
	_, err := Walk(dir, Options{}, func(Document) error { called = true; return nil })
	if !errors.Is(err, ErrEmptyClass) {
		t.Fatalf("got %v, want ErrEmptyClass", err)
	}
	testkit.ErrorMentions(t, err, "hollow")
	if called {
		t.Error("fn was called before the layout error was reported")
	}
	// Unlabeled reading ignores class folders, empty ones included.
	docs := mustReadAll(t, dir, Options{Unlabeled: true})
	assertDocs(t, dir, docs, []string{"full/a |x"})
}

// Class folders are listed concurrently: documents still come in name
// order, and of several bad folders the first in name order is reported.
func TestListClassesInOrder(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for c := range 30 {
		for f := range 3 {
			label, name := fmt.Sprintf("c%02d", c), fmt.Sprintf("f%d", f)
			testkit.Write(t, dir, label+"/"+name, label+name)
			want = append(want, label+"/"+name+" "+label+"|"+label+name)
		}
	}
	for _, workers := range []int{1, 4} { // listing and reading on one goroutine, then several
		assertDocs(t, dir, mustReadAll(t, dir, Options{Workers: workers}), want)
	}
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "c20", "link")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "c27"), 0o755); err != nil { // empty
		t.Fatal(err)
	}
	for range 5 {
		_, err := ReadAll(dir, Options{Workers: 4})
		testkit.ErrorMentions(t, err, filepath.Join(dir, "c20", "link"))
	}
	os.Remove(filepath.Join(dir, "c20", "link"))
	if err := os.MkdirAll(filepath.Join(dir, "c05x"), 0o755); err != nil { // empty, before c27
		t.Fatal(err)
	}
	for range 5 {
		_, err := ReadAll(dir, Options{Workers: 4})
		if !errors.Is(err, ErrEmptyClass) {
			t.Fatalf("got %v, want ErrEmptyClass", err)
		}
		testkit.ErrorMentions(t, err, "c05x")
	}
}

// A document's Source is its path as filepath.Join would make it from the
// corpus path, whatever the reading goroutines join.
func TestWalkSources(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "a/x", "one")
	testkit.Write(t, dir, "a/deep/y", "two")
	for _, root := range []string{dir, dir + "/", dir + "//", "."} {
		if root == "." {
			t.Chdir(dir)
		}
		var got []string
		for _, d := range mustReadAll(t, root, Options{}) {
			got = append(got, d.Source)
		}
		want := []string{filepath.Join(root, "a", "deep", "y"), filepath.Join(root, "a", "x")}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("corpus %q: sources %q, want %q", root, got, want)
		}
	}
}

func TestEmptyCorpus(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadAll(dir, Options{}); !errors.Is(err, ErrEmptyCorpus) {
		t.Errorf("empty dir: got %v, want ErrEmptyCorpus", err)
	}
	for name, content := range map[string]string{
		"blank.tsv":   "\n\n",
		"header.tsv":  "label\ttext\n",
		"none.csv":    "",
		"header.csv":  "label,text\n",
		"empty.jsonl": "\n  \n",
	} {
		p := testkit.Write(t, dir, name, content)
		if _, err := ReadAll(p, Options{}); !errors.Is(err, ErrEmptyCorpus) {
			t.Errorf("%s: got %v, want ErrEmptyCorpus", name, err)
		}
	}
}

func TestMissingPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope")
	for _, path := range []string{p, p + ".tsv"} {
		_, err := ReadAll(path, Options{})
		if !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("got %v, want fs.ErrNotExist", err)
		}
		testkit.ErrorMentions(t, err, path)
	}
}

func TestUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	dir := t.TempDir()
	testkit.Write(t, dir, "c/a", "fine")
	p := testkit.Write(t, dir, "c/b", "secret")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	var seen []string
	_, err := Walk(dir, Options{}, func(d Document) error { seen = append(seen, d.Text); return nil })
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("got %v, want fs.ErrPermission", err)
	}
	testkit.ErrorMentions(t, err, p)
	if !reflect.DeepEqual(seen, []string{"fine"}) {
		t.Errorf("documents before the error: %q", seen)
	}
}

func TestTxtAndUnknownExtension(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "doc.txt", "\xef\xbb\xbfjust one document\nover lines\n")
	docs := mustReadAll(t, p, Options{Unlabeled: true})
	assertDocs(t, dir, docs, []string{"doc.txt |just one document\nover lines\n"})

	_, err := ReadAll(p, Options{})
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("labeled .txt: got %v, want ErrUnsupported", err)
	}
	q := testkit.Write(t, dir, "data.xml", "<x/>")
	_, err = ReadAll(q, Options{})
	if !errors.Is(err, ErrUnsupported) {
		t.Errorf("unknown extension: got %v, want ErrUnsupported", err)
	}
	testkit.ErrorMentions(t, err, "data.xml", ".tsv", ".csv", ".jsonl")
}

func TestWalkEncodingsAndStats(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "zh/gbk", string(testkit.GBK(t, "自然语言处理很有趣")))
	testkit.Write(t, dir, "en/latin1", "na\xefve caf\xe9")
	testkit.Write(t, dir, "en/utf8", "\xef\xbb\xbfplain")
	testkit.Write(t, dir, "en/blank", " \n\t")
	testkit.Write(t, dir, "en/empty", "")
	st, err := Walk(dir, Options{}, func(Document) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := Stats{Docs: 5, Empty: 2, Encodings: map[Encoding]int{UTF8: 3, Latin1: 1, GB18030: 1}}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
	docs := mustReadAll(t, dir, Options{})
	assertDocs(t, dir, docs, []string{
		"en/blank en| \n\t", "en/empty en|", "en/latin1 en|naïve café", "en/utf8 en|plain", "zh/gbk zh|自然语言处理很有趣",
	})
}

// TestWalkOrderParallel checks that any number of workers yields the
// documents in the same sorted order.
func TestWalkOrderParallel(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for c := range 5 {
		for i := range 60 {
			name := fmt.Sprintf("class%d/doc%03d", c, i)
			// Uneven sizes make workers finish out of order.
			testkit.Write(t, dir, name, strings.Repeat("w ", (i*7919)%500))
			want = append(want, name)
		}
	}
	for _, workers := range []int{1, 2, 7, 64} {
		var got []string
		_, err := Walk(dir, Options{Workers: workers}, func(d Document) error {
			rel, _ := filepath.Rel(dir, d.Source)
			if d.Label != filepath.Dir(rel) {
				t.Fatalf("%s labeled %q", rel, d.Label)
			}
			got = append(got, rel)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers=%d: order differs", workers)
		}
	}
}

func TestWalkStopsOnCallbackError(t *testing.T) {
	dir := t.TempDir()
	var lines strings.Builder
	for i := range 300 {
		testkit.Write(t, dir, fmt.Sprintf("c/%04d", i), "x")
		fmt.Fprintf(&lines, "c\tline %d\n", i)
	}
	tsv := testkit.Write(t, t.TempDir(), "d.tsv", lines.String())
	before := runtime.NumGoroutine()
	for _, path := range []string{dir, tsv} {
		stop := errors.New("stop")
		n := 0
		_, err := Walk(path, Options{Workers: 4}, func(Document) error {
			n++
			if n == 5 {
				return stop
			}
			return nil
		})
		if err != stop {
			t.Errorf("got %v, want the callback's error unchanged", err)
		}
		if n != 5 {
			t.Errorf("callback ran %d times after failing at 5", n)
		}
	}
	// Every reading goroutine has exited (allow them a moment to unwind).
	for range 100 {
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines left running", runtime.NumGoroutine()-before)
}
