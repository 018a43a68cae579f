package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

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
		_, err := Walk(path, Options{Unlabeled: unlabeled, Workers: 1}, func(d Document) error {
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
