package readfile

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A stat size that no longer holds (the file grew or shrank after fstat)
// must not cut the read short: only a short read at exactly the stat size
// ends it early.
func TestReadAllStaleStatSize(t *testing.T) {
	want := bytes.Repeat([]byte("0123456789"), 1000)
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, statSize := range []int64{0, 1, 100, int64(len(want)) - 1, int64(len(want)), int64(len(want)) + 1, 1 << 20} {
		for _, regular := range []bool{true, false} {
			fd, err := syscall.Open(path, syscall.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(fd, statSize, regular)
			syscall.Close(fd)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("stat size %d, regular %t: got %d bytes, %v; want %d", statSize, regular, len(got), err, len(want))
			}
		}
	}
}

// Reads that come in pieces go on until the stat size is reached: a pipe
// stands in for a file system that answers in pieces.
func TestReadAllPiecesUpToStatSize(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := bytes.Repeat([]byte("abc"), 1000)
	go func() {
		w.Write(want[:1000])
		time.Sleep(20 * time.Millisecond) // the first read returns the first piece alone
		w.Write(want[1000:])
		w.Close()
	}()
	got, err := readAll(int(r.Fd()), int64(len(want)), true)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %d bytes, %v; want %d", len(got), err, len(want))
	}
}
