package corpus

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecode checks that any bytes decode to valid UTF-8, that valid UTF-8
// comes back unchanged but for a leading byte order mark, and that
// decodeString agrees with Decode.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"", "plain text", bom + "marked", "caf\xe9", "\xc4\xe3\xba\xc3\xca\xc0\xbd\xe7", "\x84\x31\xa4\x37", "\xff\xfeh\x00i\x00", "\xfe\xff\x00h\x00i", "\xe4\xbd\xa0\xe5\xa5\xbd"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, enc := Decode(b)
		if !utf8.ValidString(s) {
			t.Fatalf("Decode(%q) = %q (%v), not UTF-8", b, s, enc)
		}
		if utf8.Valid(b) && !strings.HasPrefix(string(b), bom) && (enc != UTF8 || s != string(b)) {
			t.Fatalf("Decode(%q) = %q (%v), want it unchanged", b, s, enc)
		}
		if s2, enc2 := decodeString(string(b)); s2 != s || enc2 != enc {
			t.Fatalf("decodeString(%q) = %q (%v), Decode %q (%v)", b, s2, enc2, s, enc)
		}
	})
}

// lineFormats are the line file extensions FuzzLineFile writes.
var lineFormats = [...]string{".tsv", ".csv", ".jsonl"}

// FuzzLineFile reads any bytes as a TSV, CSV or JSONL corpus, labeled or
// not: reading must end in documents or an error, never a panic, and every
// document must have UTF-8 text, a source in the file and, when labeled, a
// label.
func FuzzLineFile(f *testing.F) {
	for _, s := range []struct {
		data   string
		format uint8
	}{
		{"label\ttext\nspam\tbuy now\nham\tsee you\n", 0},
		{"text\tlabel\n\"quoted\ttab\"\tspam\n\nham\t\n", 0},
		{"just a line\nanother\n", 0},
		{"label,text\nspam,\"buy, now\"\nham,\"say \"\"hi\"\"\"\n", 1},
		{"a,b,c\n1,2\n", 1},
		{`{"label":"spam","text":"buy now"}` + "\n" + `{"text":"\u00e9\ud83d\ude00","label":"ham","x":[1,{"y":null}]}` + "\n", 2},
		{`{"label":1,"text":"x"}` + "\n{\n", 2},
	} {
		f.Add([]byte(s.data), s.format, false)
		f.Add([]byte(s.data), s.format, true)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, format uint8, unlabeled bool) {
		path := filepath.Join(dir, "corpus"+lineFormats[int(format)%len(lineFormats)])
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := WalkStats(path, Options{Unlabeled: unlabeled, Workers: 1}, func(d Document) error {
			switch {
			case !utf8.ValidString(d.Text) || !utf8.ValidString(d.Label):
				t.Fatalf("document %q: label %q, text %q not UTF-8", d.Source, d.Label, d.Text)
			case !strings.HasPrefix(d.Source, path+":"):
				t.Fatalf("document source %q is not a line of %s", d.Source, path)
			case !unlabeled && d.Label == "":
				t.Fatalf("document %q has no label", d.Source)
			}
			return nil
		})
		if err != nil && err.Error() == "" {
			t.Fatal("an error without a message")
		}
	})
}

// FuzzTable reads any bytes as a numeric CSV or TSV table: the result is an
// error or a rectangular table of finite values with a label per row.
func FuzzTable(f *testing.F) {
	for _, s := range []string{
		"label,a,b\nx,1,2\ny,3.5,-4e3\n",
		"a,label\n1,x\nNaN,y\n",
		"a\tb\tlabel\n1\t2\tx\n",
		"label,a\nx\n",
		"label,a,a\nx,1,2\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(strings.ReplaceAll(s, ",", "\t")), true)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, tsv bool) {
		path := filepath.Join(dir, "table.csv")
		if tsv {
			path = filepath.Join(dir, "table.tsv")
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		tab, err := ReadTable(path, "")
		if err != nil {
			return
		}
		if len(tab.Labels) != len(tab.Features) {
			t.Fatalf("%d labels for %d rows", len(tab.Labels), len(tab.Features))
		}
		for i, row := range tab.Features {
			if len(row) != len(tab.Header) {
				t.Fatalf("row %d has %d values for %d columns", i, len(row), len(tab.Header))
			}
			for _, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d holds %g", i, v)
				}
			}
		}
	})
}
