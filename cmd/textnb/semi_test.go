package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fewLabels copies the first n documents of every class of the news
// training set into a new corpus folder.
func fewLabels(t *testing.T, n int) string {
	dir, _ := copyCorpus(t, newsTrain, n, 1)
	return dir
}

// accuracy evaluates model on the news test set.
func accuracy(t *testing.T, model string) float64 {
	t.Helper()
	report := mustRun(t, "", "eval", "-m", model, newsTest)
	acc, err := strconv.ParseFloat(strings.Fields(lines(report)[1])[1], 64)
	if err != nil {
		t.Fatalf("eval report:\n%s", report)
	}
	return acc
}

func TestCLISemi(t *testing.T) {
	labeled := fewLabels(t, 3)
	acc0 := accuracy(t, trainTo(t, labeled))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--semi", "nsnb"}, "nsnb: 240 of 240 unlabeled documents pseudo-labeled"},
		{[]string{"--semi", "NSNB", "--k", "40", "--rounds", "2"}, "nsnb: 80 of 240 unlabeled documents pseudo-labeled in 2 rounds\n"},
		{[]string{"--semi", "nsnb", "--raw-posteriors"}, "nsnb: 240 of 240 unlabeled documents pseudo-labeled"},
		{[]string{"--semi", "snb", "--threshold", "0.3"}, "snb: "},
		{[]string{"--semi", "em", "--lambda", "1"}, "em: 240 unlabeled documents as soft counts, 1 iteration"},
	} {
		model := filepath.Join(t.TempDir(), "m.model")
		args := append([]string{"train", labeled, "-o", model, "--unlabeled", newsTrain}, tc.args...)
		out, errOut, code := textnb(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", tc.args, code, errOut)
		}
		if !strings.Contains(out, "trained cnb (alpha 0.3) on 12 documents") ||
			!strings.Contains(out, "used 240 unlabeled documents from "+newsTrain+"; "+tc.want) {
			t.Errorf("%v: output\n%s\nwant %q", tc.args, out, tc.want)
		}
		if errOut != "" {
			t.Errorf("%v: stderr %q", tc.args, errOut)
		}
		acc := accuracy(t, model)
		t.Logf("%v: accuracy %.4f, labeled only %.4f", tc.args, acc, acc0)
		if acc < acc0 {
			t.Errorf("%v: accuracy %.4f below labeled-only %.4f", tc.args, acc, acc0)
		}
	}
}

func TestCLISemiUsage(t *testing.T) {
	labeled := fewLabels(t, 1)
	model := filepath.Join(t.TempDir(), "m.model")
	train := []string{"train", labeled, "-o", model}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--unlabeled", newsTrain}, "--unlabeled needs --semi"},
		{[]string{"--unlabeled", newsTrain, "--semi", "none"}, "--unlabeled needs --semi"},
		{[]string{"--semi", "em"}, "--semi em needs --unlabeled"},
		{[]string{"--semi", "tri-training", "--unlabeled", newsTrain}, `"tri-training"`},
	} {
		mustFail(t, 2, []string{tc.msg}, append(train, tc.args...)...)
	}
	if _, err := os.Stat(model); !os.IsNotExist(err) {
		t.Errorf("a failed train left %s behind: %v", model, err)
	}
	// Settings out of range fail before a model is written.
	for _, bad := range [][]string{{"--semi", "snb", "--threshold", "1.5"}, {"--semi", "nsnb", "--k", "-1"}} {
		_, errOut, code := textnb(t, "", append(append(train, "--unlabeled", newsTrain), bad...)...)
		if code == 0 || !strings.Contains(errOut, bad[3]) {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errOut)
		}
		if _, err := os.Stat(model); !os.IsNotExist(err) {
			t.Errorf("%v: wrote %s: %v", bad, model, err)
		}
	}
	mustFail(t, 1, []string{"nowhere"}, append(train, "--semi", "em", "--unlabeled", filepath.Join(labeled, "nowhere"))...)
}

func TestCLISemiLabelsIgnored(t *testing.T) {
	labeled := fewLabels(t, 2)
	tsv := filepath.Join(t.TempDir(), "unlabeled.tsv")
	body := "label\ttext\n" +
		"sport\tthe striker scored twice and the team won the league match\n" +
		"finance\tshares fell as the bank raised interest rates again\n" +
		"food\ta recipe for bread with butter, flour and a little salt\n" +
		"tech\tthe new phone ships with a faster chip and more memory\n"
	if err := os.WriteFile(tsv, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(t.TempDir(), "m.model")
	out, errOut, code := textnb(t, "", "train", labeled, "-o", model, "--unlabeled", tsv, "--semi", "em")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	want := "textnb train: " + tsv + " has labels; --unlabeled ignores them\n"
	if errOut != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if !strings.Contains(out, "used 4 unlabeled documents") {
		t.Errorf("output\n%s", out)
	}

	// Without a label column each line is a text, and there is nothing to
	// warn about.
	plain := filepath.Join(t.TempDir(), "plain.tsv")
	if err := os.WriteFile(plain, []byte("the striker scored\nshares fell\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = textnb(t, "", "train", labeled, "-o", model, "--unlabeled", plain, "--semi", "nsnb")
	if code != 0 || errOut != "" || !strings.Contains(out, "used 2 unlabeled documents") {
		t.Errorf("plain unlabeled file: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
}
