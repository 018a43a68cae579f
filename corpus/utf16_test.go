package corpus

import (
	"reflect"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
)

// TestUTF16Files reads a document "good great happy" saved as UTF-16 in
// every format: folder files, .tsv, .csv and .jsonl lines.
func TestUTF16Files(t *testing.T) {
	for _, be := range []bool{false, true} {
		enc := UTF16LE
		if be {
			enc = UTF16BE
		}
		t.Run(enc.String(), func(t *testing.T) {
			dir := t.TempDir()
			u := func(s string) string { return string(testkit.EncodeUTF16(s, be)) }
			testkit.Write(t, dir, "folder/pos/a.txt", u("good great happy"))
			testkit.Write(t, dir, "folder/neg/b.txt", u("bad 糟糕"))
			for path, want := range map[string][]string{
				dir + "/folder": {"folder/neg/b.txt neg|bad 糟糕", "folder/pos/a.txt pos|good great happy"},
				testkit.Write(t, dir, "d.tsv", u("label\ttext\r\npos\tgood great happy\r\nneg\tbad 糟糕\r\n")): {
					"d.tsv:2 pos|good great happy", "d.tsv:3 neg|bad 糟糕"},
				testkit.Write(t, dir, "d.csv", u("label,text\npos,good great happy\nneg,\"bad\n糟糕\"\n")): {
					"d.csv:2 pos|good great happy", "d.csv:3 neg|bad\n糟糕"},
				testkit.Write(t, dir, "d.jsonl", u(`{"label":"pos","text":"good great happy"}`+"\n"+`{"label":"neg","text":"bad 糟糕"}`)): {
					"d.jsonl:1 pos|good great happy", "d.jsonl:2 neg|bad 糟糕"},
			} {
				var docs []Document
				st, err := Walk(path, Options{Workers: 2}, func(d Document) error { docs = append(docs, d); return nil })
				if err != nil {
					t.Fatal(err)
				}
				if got := brief(dir, docs); !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got %q\nwant %q", path, got, want)
				}
				if want := map[Encoding]int{enc: 2}; !reflect.DeepEqual(st.Encodings, want) {
					t.Errorf("%s: encodings %v, want %v", path, st.Encodings, want)
				}
			}
		})
	}
}

// TestTSVLongLineOwnsItsMemory checks that a TSV line longer than the read
// buffer, which comes in memory of its own, is not changed by reading the
// next.
func TestTSVLongLineOwnsItsMemory(t *testing.T) {
	long := strings.Repeat("x", 3<<20+12345)
	dir := t.TempDir()
	p := testkit.Write(t, dir, "d.tsv", "a\t"+long+"\nb\tnext\n")
	docs := mustReadAll(t, p, Options{})
	if len(docs) != 2 || docs[0].Text != long || docs[1].Text != "next" {
		t.Errorf("TSV with a long line misread: %d docs", len(docs))
	}
}
