package readfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestReadFileMatchesOS(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 4095, 4096, 1 << 20} {
		want := bytes.Repeat([]byte("abcdefg\n"), n/8+1)[:n]
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: got %d bytes, %v", n, len(got), err)
		}
	}
}

// A file whose size the kernel does not know in advance (as in /proc) is
// read to its end all the same.
func TestReadFileUnknownSize(t *testing.T) {
	const path = "/proc/self/status"
	want, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	got, err := ReadFile(path)
	if err != nil || !bytes.HasPrefix(got, []byte("Name:")) || len(got) < len(want)/2 {
		t.Fatalf("got %q, %v; os.ReadFile got %d bytes", got, err, len(want))
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing")
	_, err := ReadFile(missing)
	_, osErr := os.ReadFile(missing)
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != osErr.Error() {
		t.Errorf("missing file: got %v, os.ReadFile says %v", err, osErr)
	}
	if _, err := ReadFile(dir); err == nil {
		t.Errorf("reading a directory succeeded")
	}
}

func ExampleReadFile() {
	dir, _ := os.MkdirTemp("", "readfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "doc.txt")
	os.WriteFile(path, []byte("hello"), 0o644)
	data, err := ReadFile(path)
	fmt.Println(string(data), err)
	// Output: hello <nil>
}
