//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// train and merge refuse, before any work, an -o that names an input
// (directly or through a link), a directory or a FIFO, and leave it as it was.
func TestOutputRefused(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "spam.tsv")
	data, err := os.ReadFile(spamTSV)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(corpus, data, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.tsv")
	if err := os.Symlink("spam.tsv", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out  string
		code int
		msg  string
	}{
		{corpus, 2, "is the input"},
		{link, 2, "is the input"},
		{dir, 1, "is a directory"},
		{fifo, 1, "is a FIFO"},
		{filepath.Join(dir, "none", "m.model"), 1, "does not exist"},
	} {
		out, errOut, code := textnb(t, "", "train", corpus, "-o", tc.out)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.msg) {
			t.Errorf("train -o %s: exit %d, stdout %q, stderr %q; want exit %d before training, saying %q", tc.out, code, out, errOut, tc.code, tc.msg)
		}
	}
	if got, _ := os.ReadFile(corpus); string(got) != string(data) {
		t.Error("the corpus changed")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("the FIFO is now %v (%v)", fi.Mode(), err)
	}

	a, b := trainTo(t, corpus), trainTo(t, newsTrain)
	mustFail(t, 2, []string{"is the input " + a}, "merge", "-o", a, a, b)
}

// A model replaced through a link keeps its mode; the link stays.
func TestOutputKeepsModeAndLink(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "private.model")
	if err := os.WriteFile(model, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.model")
	if err := os.Symlink("private.model", link); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "", "train", spamTSV, "-o", link)
	fi, err := os.Stat(model)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() == 0 {
		t.Errorf("model mode %v, size %d (%v), want 0600 and the model", fi.Mode(), fi.Size(), err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode().Type() != os.ModeSymlink {
		t.Errorf("the link is now %v (%v)", fi.Mode(), err)
	}
	mustRun(t, "", "predict", "-m", link, spamTSV)
}
