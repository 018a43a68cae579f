package readfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log"
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

// Files that claim size 0 (as in /proc) are read to their end, and in
// pieces large enough that they answer in full.
func TestReadFileUnknownSize(t *testing.T) {
	for _, path := range []string{"/proc/sys/kernel/shmmax", "/proc/self/maps"} {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Skip(err)
		}
		got, err := ReadFile(path)
		if err != nil || len(want) == 0 {
			t.Fatalf("%s: %v (os.ReadFile read %d bytes)", path, err, len(want))
		}
		if path == "/proc/sys/kernel/shmmax" && !bytes.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", path, got, want)
		}
		if len(got) < len(want)/2 { // a process's maps change as it runs
			t.Errorf("%s: got %d bytes, os.ReadFile %d", path, len(got), len(want))
		}
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
	_, err = ReadFile(dir)
	_, osErr = os.ReadFile(dir)
	if err == nil || err.Error() != osErr.Error() {
		t.Errorf("directory: got %v, os.ReadFile says %v", err, osErr)
	}
}

func ExampleReadFile() {
	dir, err := os.MkdirTemp("", "readfile")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "doc.txt")
	if err := os.WriteFile(path, []byte("hello"), 0o644); err != nil {
		log.Fatal(err)
	}
	data, err := ReadFile(path)
	fmt.Println(string(data), err)
	// Output: hello <nil>
}
