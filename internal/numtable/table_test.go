package numtable

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/internal/textfile"
	"github.com/textnb/textnb/internal/textfile/textfiletest"
)

func TestReadTable(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "iris.csv", "\xef\xbb\xbfsepal, species ,petal\n5.1,setosa, 1.4\n-2e-1,virginica,3\n")
	tab, err := ReadTable(p, "species")
	if err != nil {
		t.Fatal(err)
	}
	want := Table{
		Header:   []string{"sepal", "petal"},
		Features: [][]float64{{5.1, 1.4}, {-0.2, 3}},
		Labels:   []string{"setosa", "virginica"},
	}
	if !reflect.DeepEqual(tab, want) {
		t.Errorf("got %+v, want %+v", tab, want)
	}
	// Rows must not share storage beyond their length.
	tab.Features[0] = append(tab.Features[0], 99)
	if tab.Features[1][0] != -0.2 {
		t.Error("appending to a row overwrote the next one")
	}

	q := testkit.Write(t, dir, "t.tsv", "label\tx\na\t1\nb\t2\n")
	tab, err = ReadTable(q, "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tab.Features, [][]float64{{1}, {2}}) || !reflect.DeepEqual(tab.Labels, []string{"a", "b"}) {
		t.Errorf("tsv table: %+v", tab)
	}
}

func TestReadTableManyRows(t *testing.T) {
	dir := t.TempDir()
	content := "label,a,b\n"
	for range 2*tableChunk + 5 {
		content += "c,1,2\n"
	}
	p := testkit.Write(t, dir, "big.csv", content)
	tab, err := ReadTable(p, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Features) != 2*tableChunk+5 {
		t.Fatalf("%d rows", len(tab.Features))
	}
	for i, row := range tab.Features {
		if len(row) != 2 || row[0] != 1 || row[1] != 2 {
			t.Fatalf("row %d = %v", i, row)
		}
		// One copy of a repeated label, not one per row (or a view of each line).
		if tab.Labels[i] != "c" || unsafe.StringData(tab.Labels[i]) != unsafe.StringData(tab.Labels[0]) {
			t.Fatalf("row %d has its own copy of label %q", i, tab.Labels[i])
		}
	}
}

func TestReadTableErrors(t *testing.T) {
	textfiletest.CheckErrorCases(t, func(p string) error { _, err := ReadTable(p, ""); return err }, []textfiletest.ErrorCase{
		{"text.csv", "label,x,y\na,1,2\nb,3,abc\n", 3, nil, `column 3 ("y"): "abc"`},
		{"nan.csv", "label,x\na,NaN\n", 2, nil, "not a finite number"},
		{"inf.csv", "label,x\na,1e999\n", 2, nil, "not a finite number"},
		{"blank.csv", "label,x\na,\n", 2, nil, `column 2 ("x")`},
		{"nolabel.csv", "x,y\n1,2\n", 1, textfile.ErrMissingField, `"label"`},
		{"emptylabel.csv", "label,x\n,1\n", 2, textfile.ErrEmptyLabel, ""},
		{"count.tsv", "label\tx\na\t1\t2\n", 2, textfile.ErrFieldCount, "expected 2, found 3"},
	})
	dir := t.TempDir()
	for name, want := range map[string]error{"empty.csv": textfile.ErrEmptyCorpus, "head.csv": textfile.ErrEmptyCorpus, "t.json": textfile.ErrUnsupported} {
		p := testkit.Write(t, dir, name, map[string]string{"head.csv": "label,x\n"}[name])
		if _, err := ReadTable(p, ""); !errors.Is(err, want) {
			t.Errorf("%s: got %v, want %v", name, err, want)
		}
	}
}

// A TableReader parses only the cells it is asked for, with or without a
// label column, and numbers rows by the line they start on.
func TestTableReaderReadsChosenColumns(t *testing.T) {
	dir := t.TempDir()
	p := testkit.Write(t, dir, "t.csv", "\xef\xbb\xbfid, note ,x\nr1,\"two\nlines\",1.5\nr2,plain,-3\n")
	r, err := OpenTable(p, "")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !reflect.DeepEqual(r.Header, []string{"id", "note", "x"}) {
		t.Fatalf("header %q", r.Header)
	}
	type row struct {
		line  int
		label string
		x     float64
	}
	var got []row
	for r.Next() {
		x, err := r.Float(2)
		if err != nil {
			t.Fatal(err)
		}
		label, err := r.Label()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, row{r.Line(), label, x})
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if want := []row{{2, "", 1.5}, {4, "", -3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("rows %+v, want %+v", got, want)
	}
}

func TestTableReaderErrors(t *testing.T) {
	dir := t.TempDir()
	head := testkit.Write(t, dir, "head.csv", "label,x\n")
	r, err := OpenTable(head, "label")
	if err != nil {
		t.Fatal(err)
	}
	if r.Next() || !errors.Is(r.Err(), textfile.ErrEmptyCorpus) || !strings.Contains(r.Err().Error(), "no rows") {
		t.Errorf("a table without rows: %v", r.Err())
	}
	r.Close()
	if _, err := OpenTable(head, "species"); !errors.Is(err, textfile.ErrMissingField) || !strings.Contains(err.Error(), `"species"`) {
		t.Errorf("a missing label column: %v", err)
	}
	bad := testkit.Write(t, dir, "bad.csv", "label,x\na,1\nb,\"open\n")
	r, err = OpenTable(bad, "label")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Next() {
	}
	var pe *textfile.ParseError
	if !errors.As(r.Err(), &pe) || pe.Line != 3 {
		t.Errorf("an unterminated quote: %v", r.Err())
	}
}
