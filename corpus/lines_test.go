package corpus

import (
	"encoding/csv"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/internal/textfile"
	"github.com/textnb/textnb/internal/textfile/textfiletest"
)

func readAllError(path string) error {
	_, err := ReadAll(path, Options{})
	return err
}

func TestTSV(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "d.tsv", "\xef\xbb\xbfpos\tgreat film\r\n\nneg\tdull\n   \nneg\t\n")
	docs := mustReadAll(t, p, Options{})
	assertDocs(t, dir, docs, []string{"d.tsv:1 pos|great film", "d.tsv:3 neg|dull", "d.tsv:5 neg|"})
}

func TestTSVHeader(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "h.tsv", "id\ttext\tlabel\n1\tgood\tpos\n2\tbad\tneg\n")
	docs := mustReadAll(t, p, Options{})
	assertDocs(t, dir, docs, []string{"h.tsv:2 pos|good", "h.tsv:3 neg|bad"})

	q := testkit.Write(t, dir, "named.tsv", "body\tcat\nhello\tgreet\n")
	docs = mustReadAll(t, q, Options{LabelField: "cat", TextField: "body"})
	assertDocs(t, dir, docs, []string{"named.tsv:2 greet|hello"})

	// A header naming only one of the two columns is an error, not data.
	r := testkit.Write(t, dir, "half.tsv", "category\ttext\nx\ty\n")
	_, err := ReadAll(r, Options{})
	textfiletest.ParseError(t, err, r, 1, ErrMissingField)
	testkit.ErrorMentions(t, err, `"label"`)
}

func TestTSVErrors(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "bad.tsv", "a\tone\nb\ttwo\tthree\n")
	_, err := ReadAll(p, Options{})
	textfiletest.ParseError(t, err, p, 2, ErrFieldCount)
	testkit.ErrorMentions(t, err, "expected 2, found 3")

	q := testkit.Write(t, dir, "nolabel.tsv", "a\tone\n\tmissing\n")
	_, err = ReadAll(q, Options{})
	textfiletest.ParseError(t, err, q, 2, ErrEmptyLabel)

	r := testkit.Write(t, dir, "hdr.tsv", "label\ttext\tid\nx\ty\n")
	_, err = ReadAll(r, Options{})
	textfiletest.ParseError(t, err, r, 2, ErrFieldCount)
	testkit.ErrorMentions(t, err, "expected 3, found 2")
}

func TestTSVUnlabeled(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "u.tsv", "just text\nmore\twith a tab\n")
	st, err := Walk(p, Options{Unlabeled: true}, func(Document) error { return nil })
	if err != nil || st.LabelsIgnored || st.Docs != 2 {
		t.Errorf("one-column file: %+v, %v", st, err)
	}
	docs := mustReadAll(t, p, Options{Unlabeled: true})
	assertDocs(t, dir, docs, []string{"u.tsv:1 |just text", "u.tsv:2 |more\twith a tab"})

	q := testkit.Write(t, dir, "l.tsv", "pos\tgood\nneg\tbad\n")
	var got []Document
	st, err = Walk(q, Options{Unlabeled: true}, func(d Document) error { got = append(got, d); return nil })
	if err != nil || !st.LabelsIgnored {
		t.Errorf("labeled file read unlabeled: %+v, %v", st, err)
	}
	assertDocs(t, dir, got, []string{"l.tsv:1 |good", "l.tsv:2 |bad"})

	r := testkit.Write(t, dir, "h.tsv", "text\nalpha\n")
	docs = mustReadAll(t, r, Options{Unlabeled: true})
	assertDocs(t, dir, docs, []string{"h.tsv:2 |alpha"})
}

func TestTSVEncodings(t *testing.T) {
	dir := t.TempDir()
	content := "zh\t" + string(testkit.GBK(t, "今天天气很好")) + "\nfr\tcaf\xe9\nen\tplain\n"
	p := testkit.Write(t, dir, "enc.tsv", content)
	var docs []Document
	st, err := Walk(p, Options{}, func(d Document) error { docs = append(docs, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	assertDocs(t, dir, docs, []string{"enc.tsv:1 zh|今天天气很好", "enc.tsv:2 fr|café", "enc.tsv:3 en|plain"})
	if want := map[Encoding]int{UTF8: 1, GB18030: 1, Latin1: 1}; !reflect.DeepEqual(st.Encodings, want) {
		t.Errorf("encodings %v, want %v", st.Encodings, want)
	}
}

func TestTSVLongLine(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("word ", 100_000) // far beyond the read buffer
	p := testkit.Write(t, dir, "long.tsv", "a\tshort\nb\t"+long+"\nc\tend")
	docs := mustReadAll(t, p, Options{})
	if len(docs) != 3 || docs[1].Text != long || docs[2].Text != "end" || docs[2].Source != p+":3" {
		t.Errorf("long line misread: %d docs", len(docs))
	}
}

// TestTSVManyBatches reads a file spanning many batches with several workers:
// order and line numbers hold, and an error late in the file comes after all
// documents before it.
func TestTSVManyBatches(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	for i := 1; i <= 3000; i++ {
		if i == 2500 {
			sb.WriteString("broken line without tab\n")
			continue
		}
		fmt.Fprintf(&sb, "c%d\tdoc %d\n", i%3, i)
	}
	p := testkit.Write(t, dir, "many.tsv", sb.String())
	n := 0
	_, err := Walk(p, Options{Workers: 8}, func(d Document) error {
		n++
		if want := fmt.Sprintf("%s:%d", p, n); d.Source != want || d.Text != fmt.Sprintf("doc %d", n) {
			t.Fatalf("doc %d: %+v", n, d)
		}
		return nil
	})
	textfiletest.ParseError(t, err, p, 2500, ErrFieldCount)
	if n != 2499 {
		t.Errorf("%d documents before the error, want 2499", n)
	}
}

func TestCSV(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "d.csv", "\xef\xbb\xbfid,label,text\n"+
		"1,pos,\"a \"\"quoted\"\", multi\nline\ntext\"\n"+
		"\n"+
		"2,neg,caf\xe9\n"+
		"3,\"neg\",plain\r\n")
	var docs []Document
	st, err := Walk(p, Options{}, func(d Document) error { docs = append(docs, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	assertDocs(t, dir, docs, []string{
		"d.csv:2 pos|a \"quoted\", multi\nline\ntext",
		"d.csv:6 neg|café",
		"d.csv:7 neg|plain",
	})
	if st.Encodings[Latin1] != 1 || st.Encodings[UTF8] != 2 {
		t.Errorf("encodings %v", st.Encodings)
	}
}

func TestCSVErrors(t *testing.T) {
	textfiletest.CheckErrorCases(t, readAllError, []textfiletest.ErrorCase{
		{"count.csv", "label,text\na,b\nc,d,e\n", 3, ErrFieldCount, "expected 2, found 3"},
		{"bare_quote.csv", "label,text\na,b\nc,d \"x\" e\n", 3, csv.ErrBareQuote, "column 5"},
		{"unterminated.csv", "label,text\na,b\nc,\"open\nmore\n", 4, csv.ErrQuote, "record starts at line 3"},
		{"no_label_column.csv", "category,text\na,b\n", 1, ErrMissingField, `"label"`},
		{"empty_label.csv", "label,text\na,b\n\"\",x\n", 3, ErrEmptyLabel, ""},
		{"count_after_multiline.csv", "label,text\na,\"x\ny\"\nb\n", 4, ErrFieldCount, "expected 2, found 1"},
	})
}

// TestCSVManyRecords checks order across batches, and that records read
// before a syntax error are all delivered before it.
func TestCSVManyRecords(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	sb.WriteString("label,text\n")
	for i := 1; i <= 600; i++ {
		fmt.Fprintf(&sb, "c%d,\"doc\n%d\"\n", i%4, i)
	}
	sb.WriteString("x,bad\"quote\n")
	p := testkit.Write(t, dir, "many.csv", sb.String())
	n := 0
	_, err := Walk(p, Options{Workers: 3}, func(d Document) error {
		n++
		if want := fmt.Sprintf("%s:%d", p, 2*n); d.Source != want || d.Text != fmt.Sprintf("doc\n%d", n) {
			t.Fatalf("record %d: %+v", n, d)
		}
		return nil
	})
	textfiletest.ParseError(t, err, p, 1202, csv.ErrBareQuote)
	if n != 600 {
		t.Errorf("%d records before the error, want 600", n)
	}
}

func TestCSVUnlabeled(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "l.csv", "label,text\npos,good\n")
	var docs []Document
	st, err := Walk(p, Options{Unlabeled: true}, func(d Document) error { docs = append(docs, d); return nil })
	if err != nil || !st.LabelsIgnored {
		t.Errorf("%+v, %v", st, err)
	}
	assertDocs(t, dir, docs, []string{"l.csv:2 |good"})

	q := testkit.Write(t, dir, "u.csv", "text\nalone\n")
	st, err = Walk(q, Options{Unlabeled: true}, func(Document) error { return nil })
	if err != nil || st.LabelsIgnored || st.Docs != 1 {
		t.Errorf("%+v, %v", st, err)
	}
}

func TestJSONL(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "d.jsonl", `{"label":"pos","text":"good \u00e9","extra":[1,2]}`+"\n\n"+
		`{ "text" : "numbered" , "label" : 3 }`+"\n"+
		`{"label":"neg","text":""}`+"\n")
	docs := mustReadAll(t, p, Options{})
	assertDocs(t, dir, docs, []string{"d.jsonl:1 pos|good é", "d.jsonl:3 3|numbered", "d.jsonl:4 neg|"})

	// Escapes, nesting, odd spacing and repeated keys (the last wins).
	e := testkit.Write(t, dir, "esc.jsonl", ` { "te\u0078t" : "a\nb \"q\" }" , "meta" : {"x":["]", {"}":1}], "label":"no"},`+
		`"n": -1.5e3, "ok": true, "z": null, "label" : "l\u00e9" , "label":"last"}`+"\n")
	docs = mustReadAll(t, e, Options{})
	assertDocs(t, dir, docs, []string{"esc.jsonl:1 last|a\nb \"q\" }"})

	q := testkit.Write(t, dir, "named.ndjson", `{"y":"a","x":"b"}`+"\n")
	docs = mustReadAll(t, q, Options{LabelField: "y", TextField: "x"})
	assertDocs(t, dir, docs, []string{"named.ndjson:1 a|b"})

	r := testkit.Write(t, dir, "latin.jsonl", "{\"label\":\"fr\",\"text\":\"caf\xe9\"}\n")
	docs = mustReadAll(t, r, Options{})
	assertDocs(t, dir, docs, []string{"latin.jsonl:1 fr|café"})
}

func TestJSONLErrors(t *testing.T) {
	cases := []textfiletest.ErrorCase{
		{"syntax", `{"label":"a","text":"b"`, 2, nil, "invalid JSON"},
		{"array", `["a","b"]`, 2, textfile.ErrNotObject, ""},
		{"null", `null`, 2, textfile.ErrNotObject, ""},
		{"no_text", `{"label":"a"}`, 2, ErrMissingField, `"text"`},
		{"no_label", `{"text":"a"}`, 2, ErrMissingField, `"label"`},
		{"text_number", `{"label":"a","text":5}`, 2, nil, "want a string"},
		{"text_null", `{"label":"a","text":null}`, 2, nil, "want a string"},
		{"label_object", `{"label":{},"text":"x"}`, 2, nil, "want a string or number"},
		{"empty_label", `{"label":"","text":"x"}`, 2, ErrEmptyLabel, ""},
		{"trailing", `{"label":"a","text":"b"} {}`, 2, nil, "invalid JSON"},
	}
	for i := range cases {
		cases[i].File += ".jsonl"
		cases[i].Content = `{"label":"ok","text":"fine"}` + "\n" + cases[i].Content + "\n"
	}
	textfiletest.CheckErrorCases(t, readAllError, cases)
}

func TestJSONLUnlabeled(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "u.jsonl", `{"text":"a"}`+"\n"+`{"text":"b","label":"x"}`+"\n")
	var docs []Document
	st, err := Walk(p, Options{Unlabeled: true}, func(d Document) error { docs = append(docs, d); return nil })
	if err != nil || !st.LabelsIgnored {
		t.Errorf("%+v, %v", st, err)
	}
	assertDocs(t, dir, docs, []string{"u.jsonl:1 |a", "u.jsonl:2 |b"})
}

// In files with more columns than label and text, labels are one shared
// copy each rather than views of their records.
func TestWideLinesShareLabels(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"w.csv": "id,label,text,note\n1,spam,win now,x\n2,spam,free cash,y\n",
		"w.tsv": "id\tlabel\ttext\tnote\n1\tspam\twin now\tx\n2\tspam\tfree cash\ty\n",
	} {
		docs, err := ReadAll(testkit.Write(t, dir, name, content), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(docs) != 2 || docs[0].Text != "win now" || docs[1].Text != "free cash" {
			t.Fatalf("%s: %+v", name, docs)
		}
		if unsafe.StringData(docs[0].Label) != unsafe.StringData(docs[1].Label) {
			t.Errorf("%s: each document has its own copy of label %q", name, docs[0].Label)
		}
	}
}

// TestLatin1Headers checks that a header is decoded as text is, in every
// line format with one: columns named "clé" and "résumé" in Latin-1 are
// found by the field names in UTF-8.
func TestLatin1Headers(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"h.csv": "cl\xe9,r\xe9sum\xe9\nspam,win now\n",
		"h.tsv": "cl\xe9\tr\xe9sum\xe9\nspam\twin now\n",
	} {
		p := testkit.Write(t, dir, name, content)
		docs, err := ReadAll(p, Options{LabelField: "clé", TextField: "résumé"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		assertDocs(t, dir, docs, []string{name + ":2 spam|win now"})
	}
}
