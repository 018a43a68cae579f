package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
)

// TestCLIPredictUTF16File predicts a file saved as UTF-16 as it predicts
// the same text in UTF-8.
func TestCLIPredictUTF16File(t *testing.T) {
	model := trainTo(t, newsTrain)
	dir := t.TempDir()
	text := "The striker scored twice in the second half"
	for name, data := range map[string]string{"utf8.txt": text, "utf16.txt": string(testkit.EncodeUTF16(text, false))} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := strings.SplitN(mustRun(t, "", "predict", "-m", model, filepath.Join(dir, "utf8.txt")), "\t", 2)
	b := strings.SplitN(mustRun(t, "", "predict", "-m", model, filepath.Join(dir, "utf16.txt")), "\t", 2)
	if len(a) != 2 || len(b) != 2 || a[1] != b[1] || !strings.HasPrefix(a[1], "sport\t") {
		t.Errorf("UTF-16 file predicted %q, UTF-8 file %q", b, a)
	}
}

// TestCLIPredictStdinLines reads standard input in UTF-16 with a byte
// order mark as in UTF-8, and a line longer than any read buffer without
// losing the lines after it.
func TestCLIPredictStdinLines(t *testing.T) {
	model := trainTo(t, newsTrain)
	text := "The striker scored twice\r\nShares fell on the stock market\n" +
		strings.Repeat("goal ", 1<<20) + "\nStocks and bonds rallied\n"
	want := lines(mustRun(t, text, "predict", "-m", model, "-"))
	if len(want) != 4 || !strings.HasPrefix(want[0], "stdin:1\tsport\t") || !strings.HasPrefix(want[3], "stdin:4\tfinance\t") {
		t.Fatalf("predict from stdin:\n%s", strings.Join(want, "\n"))
	}
	if got := lines(mustRun(t, string(testkit.EncodeUTF16(text, false)), "predict", "-m", model, "-")); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("UTF-16 standard input:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCLIPredictUTF16LineFiles reads .tsv, .csv and .jsonl files saved as
// UTF-16 row by row, as it reads them in UTF-8.
func TestCLIPredictUTF16LineFiles(t *testing.T) {
	model := trainTo(t, newsTrain)
	dir := t.TempDir()
	files := map[string]string{
		"rows.tsv":   "id\ttext\nA\tThe striker scored twice in the second half\nB\tShares fell on the stock market\n",
		"rows.csv":   "id,text\nA,The striker scored twice in the second half\nB,\"Shares fell, on the stock market\"\n",
		"rows.jsonl": `{"id":"A","text":"The striker scored twice in the second half"}` + "\n" + `{"id":"B","text":"Shares fell on the stock market"}` + "\n",
	}
	for name, data := range files {
		utf8Path, utf16Path := filepath.Join(dir, "8"+name), filepath.Join(dir, "16"+name)
		if err := os.WriteFile(utf8Path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(utf16Path, testkit.EncodeUTF16(data, false), 0o644); err != nil {
			t.Fatal(err)
		}
		want := mustRun(t, "", "predict", "-m", model, "--id-field", "id", utf8Path)
		got := mustRun(t, "", "predict", "-m", model, "--id-field", "id", utf16Path)
		if w := lines(want); len(w) != 2 || !strings.HasPrefix(w[0], "A\tsport\t") || !strings.HasPrefix(w[1], "B\tfinance\t") {
			t.Fatalf("%s in UTF-8 predicted:\n%s", name, want)
		}
		if got != want {
			t.Errorf("%s in UTF-16 predicted:\n%s\nwant\n%s", name, got, want)
		}
	}
}
