package corpus

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/internal/textfile/textfiletest"
)

// kept renders documents as "id line text [name=value …]".
func kept(docs []Document) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		var f []string
		for _, k := range d.Fields {
			f = append(f, k.Name+"="+k.Value)
		}
		out[i] = fmt.Sprintf("%s %d %s %v", d.ID, d.Line, d.Text, f)
	}
	return out
}

func assertKept(t *testing.T, name string, docs []Document, want []string) {
	t.Helper()
	if got := kept(docs); !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", name, got, want)
	}
}

func TestFieldsTSV(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "d.tsv", "id\t note \ttext\tlabel\nm1\tfirst\tgood film\tpos\n\nm2\t\tcaf\xe9\tneg\n")
	opt := Options{IDField: "id", Fields: []string{"label", "note"}}
	docs := mustReadAll(t, p, opt)
	assertKept(t, "labeled", docs, []string{"m1 2 good film [label=pos note=first]", "m2 4 café [label=neg note=]"})
	if docs[1].Source != p+":4" || docs[1].Label != "neg" {
		t.Errorf("source %q label %q", docs[1].Source, docs[1].Label)
	}

	// The id alone makes the first line a header; "*" keeps every column.
	q := testkit.Write(t, dir, "u.tsv", "id\tbody\n7\thello\n")
	docs = mustReadAll(t, q, Options{Unlabeled: true, TextField: "body", IDField: "id", Fields: []string{"*"}})
	assertKept(t, "keep all", docs, []string{"7 2 hello [id=7 body=hello]"})

	// Without fields asked for, rows carry none.
	docs = mustReadAll(t, p, Options{})
	if docs[0].ID != "" || docs[0].Fields != nil || docs[0].Line != 2 {
		t.Errorf("plain read: %+v", docs[0])
	}
}

func TestFieldsCSV(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "d.csv", "id,label,text,meta\n"+
		"\"a,1\",pos,\"a \"\"quoted\"\"\nline\",\"{\"\"n\"\": 1}\"\n"+
		"b2,neg,plain,caf\xe9\n")
	docs := mustReadAll(t, p, Options{IDField: "id", Fields: []string{"meta"}})
	assertKept(t, "csv", docs, []string{"a,1 2 a \"quoted\"\nline [meta={\"n\": 1}]", "b2 4 plain [meta=café]"})

	docs = mustReadAll(t, p, Options{Fields: []string{"*"}})
	assertKept(t, "keep all", docs[1:], []string{" 4 plain [id=b2 label=neg text=plain meta=café]"})
}

func TestFieldsJSONL(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "d.jsonl",
		`{"id":"x\u0031","text":"a\nb","meta":{"k":["]",{"}":1}]},"n":-1.5e3,"s":"q\"<&>"}`+"\n\n"+
			`{"id":42,"text":"two","n":1,"n":2}`+"\n"+
			`{"id":{"a": 1},"text":"three"}`+"\n"+
			`{"id":null,"text":"four","s":null}`+"\n")
	docs := mustReadAll(t, p, Options{Unlabeled: true, IDField: "id", Fields: []string{"meta", "n", "s"}})
	assertKept(t, "jsonl", docs, []string{
		`x1 1 a` + "\n" + `b [meta={"k":["]",{"}":1}]} n=-1.5e3 s="q\"<&>"]`,
		`42 3 two [meta=null n=2 s=null]`, // absent: null; repeated: the last
		`{"a": 1} 4 three [meta=null n=null s=null]`,
		p + `:5 5 four [meta=null n=null s=null]`, // a null id names the row by its source
	})

	docs = mustReadAll(t, p, Options{Unlabeled: true, Fields: []string{"*"}})
	assertKept(t, "keep all", docs[1:2], []string{` 3 two [id=42 text="two" n=1 n=2]`})

	// An unlabeled null text is empty; a labeled one is still an error.
	q := testkit.Write(t, dir, "null.jsonl", `{"text":null,"label":"a"}`+"\n")
	if docs := mustReadAll(t, q, Options{Unlabeled: true}); len(docs) != 1 || docs[0].Text != "" {
		t.Errorf("null text read unlabeled: %+v", docs)
	}
	_, err := ReadAll(q, Options{})
	textfiletest.ParseError(t, err, q, 1, nil)
	testkit.ErrorMentions(t, err, "want a string")
}

func TestFieldsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, content string
		opt           Options
		line          int
		role, field   string // of the MissingFieldError; "" for none
		mention       string
	}{
		{"noid.tsv", "text\tlabel\na\tb\n", Options{IDField: "id"}, 1, "id", "id", `header has no id column "id"`},
		{"nokeep.tsv", "text\tlabel\na\tb\n", Options{Fields: []string{"x"}}, 1, "", "x", `header has no column "x"`},
		{"notext.tsv", "id\tbody\n1\tb\n", Options{Unlabeled: true, IDField: "id"}, 1, "text", "text", `no text column "text"`},
		{"noheader.tsv", "pos\tgood\n", Options{IDField: "id"}, 1, "", "", "no header line"},
		{"short.tsv", "id\ttext\n1\tok\n2\n", Options{Unlabeled: true, IDField: "id"}, 3, "", "", "expected 2, found 1"},
		{"noid.csv", "label,text\na,b\n", Options{IDField: "id"}, 1, "id", "id", `header has no id column "id"`},
		{"nokeep.csv", "label,text\na,b\n", Options{Fields: []string{"x", "y"}}, 1, "", "x", `"x"`},
		{"noid.jsonl", `{"id":1,"text":"a"}` + "\n" + `{"text":"b"}` + "\n", Options{Unlabeled: true, IDField: "id"}, 2, "id", "id", `no "id"`},
		{"badtext.jsonl", `{"id":1,"text":3}` + "\n", Options{Unlabeled: true, IDField: "id"}, 1, "", "", "want a string"},
	} {
		p := testkit.Write(t, dir, c.name, c.content)
		_, err := ReadAll(p, c.opt)
		textfiletest.ParseError(t, err, p, c.line, nil)
		testkit.ErrorMentions(t, err, c.mention)
		var mf *MissingFieldError
		switch {
		case c.field == "" && errors.As(err, &mf):
			t.Errorf("%s: %v is a MissingFieldError", c.name, err)
		case c.field != "" && (!errors.As(err, &mf) || mf.Role != c.role || mf.Name != c.field || !errors.Is(err, ErrMissingField)):
			t.Errorf("%s: %v (%#v), want field %q of role %q", c.name, err, mf, c.field, c.role)
		}
	}
	// Documents that are whole files have no fields.
	testkit.Write(t, dir, "f/a.txt", "text")
	for _, p := range []string{dir + "/f", dir + "/f/a.txt"} {
		if _, err := ReadAll(p, Options{Unlabeled: true, IDField: "id"}); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s with an id field: %v", p, err)
		}
	}
}

// TestFormat reads files of any extension, and streams, in a given format.
func TestFormat(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "rows.txt", "{\"text\":\"a\",\"id\":\"x\"}\n")
	docs := mustReadAll(t, p, Options{Unlabeled: true, Format: FormatJSONL, IDField: "id"})
	assertKept(t, "jsonl .txt", docs, []string{"x 1 a []"})

	var got []Document
	collect := func(d Document) error { got = append(got, d); return nil }
	st, err := WalkReader(strings.NewReader("one\n\n\tthree\r\n"), "stdin", Options{Unlabeled: true}, collect)
	if err != nil || st.Docs != 3 {
		t.Fatalf("lines: %+v, %v", st, err)
	}
	if want := []string{"stdin:1 |one", "stdin:2 |", "stdin:3 |\tthree"}; !reflect.DeepEqual(brief("", got), want) {
		t.Errorf("lines: %q, want %q", brief("", got), want)
	}

	got = nil
	in := string(testkit.EncodeUTF16("id,text\nA,\"x, y\"\n", false))
	if _, err := WalkReader(strings.NewReader(in), "-", Options{Unlabeled: true, Format: FormatCSV, IDField: "id"}, collect); err != nil {
		t.Fatal(err)
	}
	assertKept(t, "csv stream", got, []string{"A 2 x, y []"})

	_, err = WalkReader(strings.NewReader("id\ttext\n1\n"), "stdin", Options{Unlabeled: true, Format: FormatTSV}, collect)
	textfiletest.ParseError(t, err, "stdin", 2, ErrFieldCount)
	if _, err := WalkReader(strings.NewReader("a\n"), "stdin", Options{}, collect); !errors.Is(err, ErrUnsupported) {
		t.Errorf("labeled lines: %v", err)
	}
	if _, err := WalkReader(strings.NewReader(""), "stdin", Options{Unlabeled: true}, collect); !errors.Is(err, ErrEmptyCorpus) {
		t.Errorf("empty stream: %v", err)
	}
	for s, want := range map[string]Format{"tsv": FormatTSV, "CSV": FormatCSV, "jsonl": FormatJSONL, "lines": FormatLines, "auto": FormatAuto} {
		if f, err := ParseFormat(s); f != want || err != nil || !strings.EqualFold(f.String(), s) {
			t.Errorf("ParseFormat(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := ParseFormat("xml"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("ParseFormat(xml): %v", err)
	}
	for path, want := range map[string]Format{"a.TSV": FormatTSV, "b.csv": FormatCSV, "c.ndjson": FormatJSONL, "d.jsonl": FormatJSONL, "e.txt": FormatAuto} {
		if f := FormatOf(path); f != want {
			t.Errorf("FormatOf(%s) = %v, want %v", path, f, want)
		}
	}
}
