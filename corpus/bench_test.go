package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// synthDir writes 10k small files in 20 class folders.
func synthDir(b *testing.B) (string, int64) {
	dir := b.TempDir()
	var size int64
	for c := range 20 {
		if err := os.Mkdir(filepath.Join(dir, fmt.Sprintf("class%02d", c)), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 10_000 {
		text := strings.Repeat(fmt.Sprintf("word%d ", i%97), 40+i%80)
		size += int64(len(text))
		p := filepath.Join(dir, fmt.Sprintf("class%02d", i%20), fmt.Sprintf("%05d.txt", i))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir, size
}

func BenchmarkWalkDir10k(b *testing.B) {
	dir, size := synthDir(b)
	for _, workers := range []int{1, 0} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				if _, err := Walk(dir, Options{Workers: workers}, func(Document) error { n++; return nil }); err != nil || n != 10_000 {
					b.Fatal(n, err)
				}
			}
		})
	}
}

func BenchmarkWalkLines(b *testing.B) {
	var tsv, jsonl strings.Builder
	for i := range 100_000 {
		text := strings.Repeat("some words here ", 5+i%20)
		fmt.Fprintf(&tsv, "c%d\t%s\n", i%20, text)
		fmt.Fprintf(&jsonl, "{\"label\":\"c%d\",\"text\":%q}\n", i%20, text)
	}
	files := map[string]string{"d.tsv": tsv.String(), "d.jsonl": jsonl.String(), "d.csv": "label,text\n" + strings.ReplaceAll(tsv.String(), "\t", ",")}
	benchLines(b, files, Options{})
}

// BenchmarkWalkLinesFields reads rows with an id and two more fields, one
// of them a nested JSON value, as predict --id-field --keep-fields does.
func BenchmarkWalkLinesFields(b *testing.B) {
	var tsv, jsonl strings.Builder
	tsv.WriteString("id\tlabel\ttext\tnote\n")
	for i := range 100_000 {
		text := strings.Repeat("some words here ", 5+i%20)
		fmt.Fprintf(&tsv, "m%d\tc%d\t%s\tn%d\n", i, i%20, text, i%7)
		fmt.Fprintf(&jsonl, "{\"id\":%d,\"label\":\"c%d\",\"text\":%q,\"note\":{\"n\":[%d]}}\n", i, i%20, text, i%7)
	}
	files := map[string]string{"d.tsv": tsv.String(), "d.jsonl": jsonl.String(), "d.csv": strings.ReplaceAll(tsv.String(), "\t", ",")}
	benchLines(b, files, Options{IDField: "id", Fields: []string{"label", "note"}})
}

func benchLines(b *testing.B, files map[string]string, opt Options) {
	dir := b.TempDir()
	for _, name := range []string{"d.tsv", "d.csv", "d.jsonl"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(files[name])))
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				if _, err := Walk(p, opt, func(Document) error { n++; return nil }); err != nil || n != 100_000 {
					b.Fatal(n, err)
				}
			}
		})
	}
}
