package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
)

func readMulti(t *testing.T, path string, opt Options) []MultiDocument {
	t.Helper()
	var docs []MultiDocument
	if _, err := WalkMulti(path, opt, func(d MultiDocument) error {
		docs = append(docs, d)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return docs
}

func TestWalkMultiJSONLArrays(t *testing.T) {
	docs := readMulti(t, "../testdata/multilabel.jsonl", Options{})
	if len(docs) != 37 {
		t.Fatalf("%d documents, want 37", len(docs))
	}
	if got := docs[24].Labels; !reflect.DeepEqual(got, []string{"sport", "finance"}) {
		t.Errorf("document 25: labels %q", got)
	}
	if got := docs[36].Labels; len(got) != 0 {
		t.Errorf("document 37 (labels []): labels %q, want none", got)
	}
	if !strings.HasPrefix(docs[0].Text, "The striker") || docs[0].Source != "../testdata/multilabel.jsonl:1" {
		t.Errorf("first document %+v", docs[0])
	}
}

func TestWalkMultiTSVSeparatorMatchesJSONL(t *testing.T) {
	jsonl := readMulti(t, "../testdata/multilabel.jsonl", Options{})
	tsv := readMulti(t, "../testdata/multilabel.tsv", Options{LabelSep: ",", LabelField: "labels"})
	if len(tsv) != 36 {
		t.Fatalf("%d TSV documents, want 36", len(tsv))
	}
	for i, d := range tsv {
		if !reflect.DeepEqual(d.Labels, jsonl[i].Labels) || d.Text != jsonl[i].Text {
			t.Errorf("line %d: %q %q, JSONL has %q %q", i+2, d.Labels, d.Text, jsonl[i].Labels, jsonl[i].Text)
		}
	}
	// Without a separator the field is one label.
	one := readMulti(t, "../testdata/multilabel.tsv", Options{LabelField: "labels"})
	if got := one[24].Labels; !reflect.DeepEqual(got, []string{"sport,finance"}) {
		t.Errorf("no separator: labels %q", got)
	}
}

func TestWalkMultiJSONLDetailsAndErrors(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "c.jsonl", `{"label": [" a ", "b", "a", 7, ""], "text": "x"}`+"\n"+`{"label": "c;d", "text": "y"}`+"\n")
	docs := readMulti(t, p, Options{LabelSep: ";"})
	if !reflect.DeepEqual(docs[0].Labels, []string{"a", "b", "7"}) || !reflect.DeepEqual(docs[1].Labels, []string{"c", "d"}) {
		t.Errorf("labels %q and %q", docs[0].Labels, docs[1].Labels)
	}
	bad := testkit.Write(t, dir, "bad.jsonl", `{"labels": ["a"], "text": "x"}`+"\n"+`{"labels": [["a"]], "text": "y"}`+"\n")
	_, err := WalkMulti(bad, Options{}, func(MultiDocument) error { return nil })
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), "array of strings or numbers") {
		t.Errorf("nested array: %v, want a ParseError at line 2", err)
	}
	// Walk still refuses arrays: single-label reading is unchanged.
	if _, err := Walk(p, Options{}, func(Document) error { return nil }); err == nil {
		t.Error("Walk accepted a label array")
	}
}

func TestIsMultiLabel(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, line string
		opt        Options
		want       bool
	}{
		{"labels.jsonl", `{"labels": ["a"], "text": "x"}`, Options{}, true},
		{"label.jsonl", `{"label": "a", "labels": ["a"], "text": "x"}`, Options{}, false},
		{"array.jsonl", `{"topic": ["a", "b"], "text": "x"}`, Options{LabelField: "topic"}, true},
		{"string.jsonl", `{"topic": "a", "text": "x"}`, Options{LabelField: "topic"}, false},
		{"c.tsv", "a\tx", Options{}, false},
	} {
		if got := IsMultiLabel(testkit.Write(t, dir, c.name, c.line+"\n"), c.opt); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestWalkMultiFolderCopiesAndLinks(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "sport/1.txt", "match report")
	testkit.Write(t, dir, "finance/1.txt", "match report") // a copy
	testkit.Write(t, dir, "finance/2.txt", "bond yields")
	testkit.Write(t, dir, "finance/sub/3.txt", "shares")
	testkit.Write(t, dir, "tech/sub/3.txt", "shares")
	if err := os.Symlink(filepath.Join(dir, "finance", "2.txt"), filepath.Join(dir, "tech", "2.txt")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	docs := readMulti(t, dir, Options{})
	got := map[string][]string{}
	for _, d := range docs {
		got[d.Text] = d.Labels
	}
	want := map[string][]string{"match report": {"finance", "sport"}, "bond yields": {"finance", "tech"}, "shares": {"finance", "tech"}}
	if len(docs) != 3 || !reflect.DeepEqual(got, want) {
		t.Errorf("documents %v, want %v", got, want)
	}
	testkit.Write(t, dir, "tech/1.txt", "another text")
	_, err := WalkMulti(dir, Options{}, func(MultiDocument) error { return nil })
	if !errors.Is(err, ErrNameClash) || !strings.Contains(err.Error(), filepath.Join("tech", "1.txt")) {
		t.Errorf("same name, other text: %v", err)
	}
}
