package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mistaken flag gets one line, with the flag meant when it is close.
func TestFlagMistakes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", spamTSV, "-o", "x", "--alpah", "1"}, "textnb train: usage: unknown flag --alpah; did you mean --alpha? (textnb train --help lists the flags)\n"},
		{[]string{"train", spamTSV, "-o", "x", "--lable-field", "y"}, "did you mean --label-field?"},
		{[]string{"train", spamTSV, "-o", "x", "--minDF", "2"}, "did you mean --min-df?"},
		{[]string{"predict", "-m", "x", "--tpo", "2", "-"}, "did you mean --top?"},
		{[]string{"eval", "-m", "x", "--bogus", newsTest}, "unknown flag --bogus (textnb eval --help"},
		{[]string{"train", spamTSV, "-o", "x", "--alpha", "x"}, `invalid value "x" for flag --alpha`},
		{[]string{"train", spamTSV, "-o"}, "flag needs an argument: -o (textnb train --help"},
	} {
		_, errOut, code := textnb(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("textnb %s: exit %d, message %q; want exit 2 and one line with %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
	if _, errOut, code := textnb(t, "", "train", "--help"); code != 0 || !strings.Contains(errOut, "-allow-many-classes") {
		t.Errorf("train --help: exit %d\n%s", code, errOut)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"alpha", "alpha", 0}, {"alpah", "alpha", 1}, {"kitten", "sitting", 3}, {"mindf", "min-df", 1}} {
		if d := editDistance(tc.a, tc.b); d != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

// What help lists is accepted; what is refused names every choice.
func TestChoiceMessages(t *testing.T) {
	all := trainTo(t, newsTrain, "--stopwords", "all")
	both := trainTo(t, newsTrain, "--stopwords", "en,zh")
	if a, b := readFile(t, all), readFile(t, both); !bytes.Equal(a, b) {
		t.Error("--stopwords all and en,zh train different models")
	}
	mustFail(t, 2, []string{"cnb, mnb or bnb", "gaussian or categorical"}, "train", newsTrain, "-o", "x", "--model", "svm")
	// An unreachable min_df names the documents, not a max_df never given.
	_, errOut, _ := textnb(t, "", "train", newsTrain, "-o", filepath.Join(t.TempDir(), "m"), "--min-df", "241")
	if !strings.Contains(errOut, "--min-df 241 keeps no term") || !strings.Contains(errOut, "240 documents") || strings.Contains(errOut, "max_df") {
		t.Errorf("--min-df 241 on 240 documents: %q", errOut)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A table whose first row is not the header the flags name says what the
// row holds.
func TestHeaderlessTable(t *testing.T) {
	dir := write(t, map[string]string{
		"data.csv":    "spam,win a free prize now call\nham,see you at lunch\n",
		"columns.csv": "kind,body\nspam,win\nham,lunch\n",
	})
	mustFail(t, 1, []string{"data.csv seems to have no header row", `"spam", "win a free prize now call"`, "add one naming the columns, such as label,text"},
		"train", filepath.Join(dir, "data.csv"), "-o", filepath.Join(dir, "m"))
	mustFail(t, 1, []string{`read as the header, is "kind", "body"`, "--label-field and --text-field"},
		"train", filepath.Join(dir, "columns.csv"), "-o", filepath.Join(dir, "m"))
	mustRun(t, "", "train", filepath.Join(dir, "columns.csv"), "-o", filepath.Join(dir, "m"), "--label-field", "kind", "--text-field", "body")
}

// merge names the files in its errors, and the setting that differs with
// both values.
func TestMergeMessages(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.model"), filepath.Join(dir, "b.model"), filepath.Join(dir, "c.model")
	mustRun(t, "", "train", spamTSV, "-o", a, "--weighting", "counts", "--min-df", "1", "--ngrams", "1,2")
	mustRun(t, "", "train", spamTSV, "-o", b, "--weighting", "counts", "--min-df", "1", "--ngrams", "1,1")
	mustRun(t, "", "train", spamTSV, "-o", c)
	mustFail(t, 1, []string{"Tokenize.WordNGrams is [1,2] in " + a + " but [1,1] in " + b}, "merge", "-o", filepath.Join(dir, "m"), a, b)
	mustFail(t, 1, []string{c + ": ", "weighted by tfidf"}, "merge", "-o", filepath.Join(dir, "m"), a, c)
}
