package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCLIStatsParts trains on testdata/news/train in two parts (two
// classes each, so the parts in order are the corpus in order) and checks
// that the built model predicts as one training does.
func TestCLIStatsParts(t *testing.T) {
	dir := t.TempDir()
	for part, classes := range [][]string{{"finance", "food"}, {"sport", "tech"}} {
		p := filepath.Join(dir, "p"+string(rune('1'+part)))
		for _, c := range classes {
			if err := os.CopyFS(filepath.Join(p, c), os.DirFS(filepath.Join("../../testdata/news/train", c))); err != nil {
				t.Fatal(err)
			}
		}
		mustRun(t, "", "train", p, "--stats-only", "-o", p+".df")
	}
	all := filepath.Join(dir, "all.df")
	mustRun(t, "", "stats", "merge", "-o", all, filepath.Join(dir, "p1.df"), filepath.Join(dir, "p2.df"))
	for _, p := range []string{"p1", "p2"} {
		mustRun(t, "", "stats", "sum", "--df", all, "-o", filepath.Join(dir, p+".sums"), filepath.Join(dir, p))
	}
	parts := filepath.Join(dir, "parts.model")
	mustRun(t, "", "stats", "build", "-o", parts, all, filepath.Join(dir, "p1.sums"), filepath.Join(dir, "p2.sums"))
	one := trainTo(t, "../../testdata/news/train", "--fast") // parts train the plain default
	got := mustRun(t, "", "predict", "-m", parts, "../../testdata/news/test")
	want := mustRun(t, "", "predict", "-m", one, "../../testdata/news/test")
	if got != want || len(lines(got)) < 10 {
		t.Errorf("predictions of the model built from parts:\n%s\nwant\n%s", got, want)
	}
	mustFail(t, 1, []string{"p1.sums", "not a file"}, "stats", "build", "-o", parts, filepath.Join(dir, "p1.sums"), filepath.Join(dir, "p1.sums"))
	mustFail(t, 2, []string{"want merge, sum or build"}, "stats", "frobnicate")
	if _, err := os.Stat(parts); err != nil {
		t.Errorf("a failed build removed the earlier model: %v", err)
	}
}

// TestCLIStatsPartsHash is TestCLIStatsParts with the hashing vectorizer,
// whose sums files hold dense tables (format 2).
func TestCLIStatsPartsHash(t *testing.T) {
	dir := t.TempDir()
	hash := []string{"--vectorizer", "hash", "--features", "4096"}
	for part, classes := range [][]string{{"finance", "food"}, {"sport", "tech"}} {
		p := filepath.Join(dir, "p"+string(rune('1'+part)))
		for _, c := range classes {
			if err := os.CopyFS(filepath.Join(p, c), os.DirFS(filepath.Join("../../testdata/news/train", c))); err != nil {
				t.Fatal(err)
			}
		}
		mustRun(t, "", append([]string{"train", p, "--stats-only", "-o", p + ".df"}, hash...)...)
	}
	all := filepath.Join(dir, "all.df")
	mustRun(t, "", "stats", "merge", "-o", all, filepath.Join(dir, "p1.df"), filepath.Join(dir, "p2.df"))
	for _, p := range []string{"p1", "p2"} {
		mustRun(t, "", "stats", "sum", "--df", all, "-o", filepath.Join(dir, p+".sums"), filepath.Join(dir, p))
	}
	parts := filepath.Join(dir, "parts.model")
	mustRun(t, "", "stats", "build", "-o", parts, all, filepath.Join(dir, "p1.sums"), filepath.Join(dir, "p2.sums"))
	one := trainTo(t, "../../testdata/news/train", append([]string{"--fast"}, hash...)...)
	got := mustRun(t, "", "predict", "-m", parts, "../../testdata/news/test")
	want := mustRun(t, "", "predict", "-m", one, "../../testdata/news/test")
	if got != want || len(lines(got)) < 10 {
		t.Errorf("predictions of the model built from parts:\n%s\nwant\n%s", got, want)
	}
}
