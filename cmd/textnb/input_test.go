package main

import (
	"strings"
	"testing"
	"unicode/utf16"
)

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
	var u16 []byte
	for _, u := range utf16.Encode([]rune("\ufeff" + text)) {
		u16 = append(u16, byte(u), byte(u>>8))
	}
	if got := lines(mustRun(t, string(u16), "predict", "-m", model, "-")); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("UTF-16 standard input:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
