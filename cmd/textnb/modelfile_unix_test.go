//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestCLIModelNotAFile: predict, eval and merge refuse a model path that is
// a FIFO (without waiting for a writer), a device, a link to one or a
// folder, naming it, before reading anything.
func TestCLIModelNotAFile(t *testing.T) {
	root := write(t, map[string]string{"doc.txt": "hello", "dir/": ""})
	fifo := filepath.Join(root, "fifo.model")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{fifo: "FIFO", filepath.Join(root, "dir"): "folder"}
	if fi, err := os.Stat("/dev/zero"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		link := filepath.Join(root, "zero.model")
		if err := os.Symlink("/dev/zero", link); err != nil {
			t.Fatal(err)
		}
		paths["/dev/zero"], paths[link] = "character device", "character device"
	}
	model := trainTo(t, spamTSV)
	doc := filepath.Join(root, "doc.txt")
	for p, what := range paths {
		msgs := []string{p, "not a textnb model file", what}
		mustFail(t, 1, msgs, "predict", "-m", p, doc)
		mustFail(t, 1, msgs, "eval", "-m", p, spamTSV)
		mustFail(t, 1, msgs, "merge", "-o", filepath.Join(root, "out.model"), model, p)
	}
}
