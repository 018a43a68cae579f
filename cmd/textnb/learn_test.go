package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTree copies the class folders of each src into one new folder.
func copyTree(t *testing.T, srcs ...string) string {
	t.Helper()
	dst := t.TempDir()
	for i, src := range srcs {
		err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			to := filepath.Join(dst, filepath.Dir(rel), string(rune('a'+i))+filepath.Base(rel))
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return err
			}
			in, err := os.Open(p)
			if err != nil {
				return err
			}
			defer in.Close()
			out, err := os.Create(to)
			if err != nil {
				return err
			}
			if _, err := io.Copy(out, in); err != nil {
				return err
			}
			return out.Close()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCLILearnEqualsTrainingOnTheUnion(t *testing.T) {
	for _, flags := range [][]string{
		{"--weighting", "counts", "--fast"},
		{"--weighting", "counts", "--model", "mnb", "--fast"},
		{"--model", "bnb", "--fast"},
	} {
		model := trainTo(t, newsTrain, flags...)
		out := mustRun(t, "", "learn", "-m", model, newsTest)
		if !strings.Contains(out, "learned 80 documents") {
			t.Errorf("learn printed %q", out)
		}
		union := trainTo(t, copyTree(t, newsTrain, newsTest), flags...)
		got := mustRun(t, "", "predict", "-m", model, "--top", "4", newsTest)
		want := mustRun(t, "", "predict", "-m", union, "--top", "4", newsTest)
		if got != want {
			t.Errorf("%v: predictions after learning differ from the union's:\n%s\nwant\n%s", flags, got, want)
		}
		if info := mustRun(t, "", "inspect", model); !strings.Contains(info, "learned     80 documents learned") {
			t.Errorf("inspect does not say what was learned:\n%s", info)
		}
	}
}

func TestCLILearnLabelAndUnlearn(t *testing.T) {
	model := trainTo(t, spamTSV, "--weighting", "counts", "--fast")
	orig := readBytes(t, model)
	queries := "win a cruise, text YES now\nsee you at the station at six\n"
	q := filepath.Join(t.TempDir(), "q.txt")
	if err := os.WriteFile(q, []byte(queries), 0o644); err != nil {
		t.Fatal(err)
	}
	before := mustRun(t, "", "predict", "-m", model, "--format", "lines", q)
	msgs := "cruise prize: text YES to claim\nYES to win a cruise, text now\n"
	// Standard input is one document per line; a line file is read row by
	// row as predict reads it.
	mustRun(t, msgs, "learn", "-m", model, "--label", "spam", "-")
	rows := filepath.Join(t.TempDir(), "more.tsv")
	if err := os.WriteFile(rows, []byte("text\nthe station at six works for me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other.model")
	learned := readBytes(t, model)
	mustRun(t, "", "learn", "-m", model, "--label", "ham", "-o", other, rows)
	if !bytes.Equal(readBytes(t, model), learned) {
		t.Errorf("learn -o changed MODEL")
	}
	if out := mustRun(t, "", "inspect", other); !strings.Contains(out, "3 documents learned") {
		t.Errorf("the -o model has not learned the row:\n%s", out)
	}
	if after := mustRun(t, "", "predict", "-m", model, "--format", "lines", q); after == before {
		t.Errorf("learning changed no prediction:\n%s", after)
	}
	mustRun(t, msgs, "learn", "-m", model, "--label", "spam", "--unlearn", "-")
	if after := mustRun(t, "", "predict", "-m", model, "--format", "lines", q); after != before {
		t.Errorf("after unlearning, predictions\n%s\nwant\n%s", after, before)
	}
	if bytes.Equal(readBytes(t, model), orig) {
		t.Errorf("the model file does not record what was learned")
	}
	// Refused: nothing written.
	saved := readBytes(t, model)
	for _, tc := range []struct {
		stdin string
		args  []string
		code  int
		msgs  []string
	}{
		{"never learned\n", []string{"--label", "nosuch", "--unlearn", "-"}, 1, []string{"stdin:1", "no class \"nosuch\""}},
		{"cruise cruise cruise cruise cruise cruise cruise cruise cruise cruise\n", []string{"--label", "spam", "--unlearn", "-"}, 1, []string{"stdin:1", "does not hold"}},
		{"x\n", []string{"-"}, 2, []string{"--label"}},
	} {
		_, errOut, code := textnb(t, tc.stdin, append([]string{"learn", "-m", model}, tc.args...)...)
		if code != tc.code {
			t.Errorf("learn %v: exit %d, want %d (%s)", tc.args, code, tc.code, errOut)
		}
		for _, m := range tc.msgs {
			if !strings.Contains(errOut, m) {
				t.Errorf("learn %v: %q lacks %q", tc.args, errOut, m)
			}
		}
		if !bytes.Equal(readBytes(t, model), saved) {
			t.Fatalf("learn %v changed the model file", tc.args)
		}
	}
}
