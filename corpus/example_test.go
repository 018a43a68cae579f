package corpus_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/textnb/textnb/corpus"
)

// tempCorpus writes files (relative name → content) under a new temporary
// directory and returns it.
func tempCorpus(files map[string]string) string {
	dir, err := os.MkdirTemp("", "corpus-example")
	if err != nil {
		log.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return dir
}

func ExampleDocument() {
	dir := tempCorpus(map[string]string{
		"spam/1.txt": "win money now",
		"ham/1.txt":  "lunch at noon?",
		".DS_Store":  "hidden files are skipped",
	})
	defer os.RemoveAll(dir)
	docs, err := corpus.ReadAll(dir, corpus.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range docs {
		rel, _ := filepath.Rel(dir, d.Source)
		fmt.Printf("%s %s: %q\n", rel, d.Label, d.Text)
	}
	// Output:
	// ham/1.txt ham: "lunch at noon?"
	// spam/1.txt spam: "win money now"
}

func ExampleOptions() {
	dir := tempCorpus(map[string]string{
		"reviews.csv": "stars,body\n5,\"Great, would buy again\"\n1,Broke in a day\n",
	})
	defer os.RemoveAll(dir)
	opt := corpus.Options{LabelField: "stars", TextField: "body", Workers: 2}
	docs, err := corpus.ReadAll(filepath.Join(dir, "reviews.csv"), opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range docs {
		fmt.Printf("line %s: %s %q\n", d.Source[len(d.Source)-1:], d.Label, d.Text)
	}
	// Output:
	// line 2: 5 "Great, would buy again"
	// line 3: 1 "Broke in a day"
}

func ExampleStats() {
	dir := tempCorpus(map[string]string{
		"pool.tsv": "pos\tfine\nneg\t\nneg\tcaf\xe9 au lait\n",
	})
	defer os.RemoveAll(dir)
	// Reading a labeled file as unlabeled drops the labels, and says so.
	st, err := corpus.Walk(filepath.Join(dir, "pool.tsv"), corpus.Options{Unlabeled: true},
		func(d corpus.Document) error { return nil })
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Docs, "docs,", st.Empty, "empty, labels ignored:", st.LabelsIgnored)
	fmt.Println(st.Encodings[corpus.UTF8], "UTF-8,", st.Encodings[corpus.Latin1], "Latin-1")
	// Output:
	// 3 docs, 1 empty, labels ignored: true
	// 2 UTF-8, 1 Latin-1
}

func ExampleWalk() {
	dir := tempCorpus(map[string]string{"d.jsonl": `{"label":"a","text":"one"}
{"label":"b","text":"two"}
{"label":"a","text":"three"}
`})
	defer os.RemoveAll(dir)
	counts := map[string]int{}
	_, err := corpus.Walk(filepath.Join(dir, "d.jsonl"), corpus.Options{}, func(d corpus.Document) error {
		counts[d.Label]++
		return nil
	})
	fmt.Println(counts, err)
	// Output: map[a:2 b:1] <nil>
}

func ExampleParseError() {
	dir := tempCorpus(map[string]string{"bad.tsv": "pos\tgood\nneg\ttoo\tmany\n"})
	defer os.RemoveAll(dir)
	_, err := corpus.ReadAll(filepath.Join(dir, "bad.tsv"), corpus.Options{})
	var pe *corpus.ParseError
	if errors.As(err, &pe) {
		fmt.Printf("%s:%d: %v\n", filepath.Base(pe.File), pe.Line, pe.Err)
		fmt.Println(errors.Is(err, corpus.ErrFieldCount))
	}
	// Output:
	// bad.tsv:2: wrong number of fields: expected 2, found 3
	// true
}

// A read asks for each row's id and the fields it keeps by name; a JSONL
// field keeps its JSON text.
func ExampleOptions_fields() {
	opt := corpus.Options{Unlabeled: true, Format: corpus.FormatJSONL, IDField: "id", Fields: []string{"meta"}}
	in := strings.NewReader(`{"id":"m1","text":"win money now","meta":{"n":[1,2]}}` + "\n" + `{"id":7,"text":"lunch?"}` + "\n")
	_, err := corpus.WalkReader(in, "stdin", opt, func(d corpus.Document) error {
		fmt.Printf("%s line %d: %q %s=%s\n", d.ID, d.Line, d.Text, d.Fields[0].Name, d.Fields[0].Value)
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// m1 line 1: "win money now" meta={"n":[1,2]}
	// 7 line 2: "lunch?" meta=null
}
