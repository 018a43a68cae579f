//go:build unix

package modelfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Save refuses what it must not replace, before it writes anything.
func TestSaveRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "absent"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, msg string }{
		{dir, "is a directory"},
		{fifo, "is a FIFO"},
		{dangling, "link to a missing file"},
		{filepath.Join(dir, "no-such-dir", "m.model"), "does not exist"},
	} {
		if err := CheckOutput(tc.path); !errors.Is(err, ErrOutput) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("CheckOutput(%s) = %v, want ErrOutput saying %q", tc.path, err, tc.msg)
		}
		if err := Save(tc.path, pieces("model")); !errors.Is(err, ErrOutput) {
			t.Errorf("Save(%s) = %v, want ErrOutput", tc.path, err)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("the FIFO is now %v (%v)", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the folder holds %d entries, want the FIFO and the link", len(entries))
	}
}

// A replaced file keeps its permissions; a link keeps pointing at the file
// the model replaces.
func TestSaveKeepsModeAndLink(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private.model")
	if err := os.WriteFile(private, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.model")
	if err := os.Symlink("private.model", link); err != nil {
		t.Fatal(err)
	}
	if err := Save(link, pieces("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode().Type() != fs.ModeSymlink {
		t.Errorf("the link is now %v (%v)", fi.Mode(), err)
	}
	fi, err := os.Stat(private)
	if b, _ := os.ReadFile(private); err != nil || string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("the target holds %q with mode %v, want %q and 0600", b, fi.Mode(), "new")
	}
	fresh := filepath.Join(dir, "fresh.model")
	if err := Save(fresh, pieces("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("a new model has mode %v (%v), want 0644", fi.Mode(), err)
	}
}

// Errors name the user's path, not the temporary file.
func TestSaveErrorNamesPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.model")
	err := Save(path, failing{})
	if err == nil || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("Save error %q, want one naming %s and no temporary file", err, path)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed Save left %d files", len(entries))
	}
}

type failing struct{}

func (failing) WriteTo(w io.Writer) (int64, error) {
	n, _ := w.Write([]byte("partial"))
	return int64(n), &fs.PathError{Op: "write", Path: "/elsewhere/.m.model.tmp123", Err: syscall.ENOSPC}
}

// Saves killed by SIGKILL, SIGINT and SIGTERM while writing leave their
// temporary files; the next Save removes them, and leaves a live writer's.
func TestSaveRemovesStaleTemporaries(t *testing.T) {
	if !canLock {
		t.Skip("no file locks here")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.model")
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSaveHelperProcess$")
		cmd.Env = append(os.Environ(), "TEXTNB_SAVE_HELPER="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for temporaries(t, dir, writebackChunk) == 0 { // the helper has written a chunk
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(sig)
		if err := cmd.Wait(); err == nil {
			t.Fatalf("the helper survived %v", sig)
		}
	}
	// Each save removed those of the saves killed before it.
	if n := temporaries(t, dir, 0); n != 1 {
		t.Fatalf("%d temporary files after 4 killed saves, want the last one's", n)
	}
	// A writer that is alive: its file must stay.
	live, err := createLocked(dir, ".m.model.tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if err := Save(path, pieces("model")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) != 2 || names[1] != "m.model" || filepath.Join(dir, names[0]) != live.Name() {
		t.Errorf("the folder holds %q, want the live writer's temporary file and the model", names)
	}
}

// temporaries counts the temporary files in dir of at least size bytes.
func temporaries(t *testing.T, dir string, size int64) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && strings.Contains(e.Name(), ".tmp") && fi.Size() >= size {
			n++
		}
	}
	return n
}

// TestSaveHelperProcess is the save that TestSaveRemovesStaleTemporaries
// kills: it writes a chunk, then waits.
func TestSaveHelperProcess(t *testing.T) {
	path := os.Getenv("TEXTNB_SAVE_HELPER")
	if path == "" {
		t.Skip("run by TestSaveRemovesStaleTemporaries")
	}
	Save(path, stalled{})
	t.Fatal("the stalled save returned")
}

type stalled struct{}

func (stalled) WriteTo(w io.Writer) (int64, error) {
	if n, err := w.Write(make([]byte, writebackChunk)); err != nil {
		return int64(n), err
	}
	for {
		time.Sleep(time.Hour)
	}
}
