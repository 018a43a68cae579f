package progress

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := newMeter(nil, "train", func() time.Time { return now })
	now = now.Add(7 * time.Second)
	if got, want := m.Line(), "train, 0:07"; got != want {
		t.Errorf("nothing counted: %q, want %q", got, want)
	}
	now = now.Add(-7 * time.Second)
	m.Add(1234, 5e6)
	now = now.Add(2 * time.Second)
	if got, want := m.Line(), "train: 1,234 documents, 5.0 MB, 2.5 MB/s"; got != want {
		t.Errorf("unknown total: %q, want %q", got, want)
	}
	m.SetTotal(20e6)
	if got, want := m.Line(), "train: 1,234 documents, 5.0 MB, 2.5 MB/s, 25%, 0:06 left"; got != want {
		t.Errorf("known total: %q, want %q", got, want)
	}
	m.Add(1_000_000, 15e6)
	if got, want := m.Line(), "train: 1,001,234 documents, 20.0 MB, 10.0 MB/s, 100%"; got != want {
		t.Errorf("done: %q, want %q", got, want)
	}
	if got := clock(3725); got != "1:02:05" {
		t.Errorf("clock(3725) = %q", got)
	}
}

// TestNotTerminal: on a pipe, a file or a buffer a Meter shows nothing,
// and a nil Meter takes every call.
func TestNotTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, out := range []io.Writer{w, f, &bytes.Buffer{}} {
		m := New(out, "x", 10)
		if m != nil {
			t.Errorf("%T: a Meter on something not a terminal", out)
		}
		m.Add(1, 1)
		m.SetTotal(2)
		m.Stop()
	}
	if IsTerminal(f) || IsTerminal(w) {
		t.Error("a file or pipe taken for a terminal")
	}
}

func TestSize(t *testing.T) {
	dir := t.TempDir()
	for name, n := range map[string]int{"a/1": 10, "a/2": 5, "b/c/3": 7, "top": 1} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := Size(dir); got != 23 {
		t.Errorf("Size(folder) = %d, want 23", got)
	}
	if got := Size(filepath.Join(dir, "a", "1")); got != 10 {
		t.Errorf("Size(file) = %d, want 10", got)
	}
	if got := Size(filepath.Join(dir, "none")); got != 0 {
		t.Errorf("Size(missing) = %d", got)
	}
}

// TestTerminal draws on a real pseudo-terminal and reads what it shows.
func TestTerminal(t *testing.T) {
	master, slave := openPTY(t)
	m := New(slave, "eval", 100)
	if m == nil {
		t.Fatal("no Meter on a terminal")
	}
	m.Add(3, 50)
	var seen strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(seen.String(), "50%") {
		n, err := master.Read(buf)
		if err != nil {
			t.Fatalf("reading the terminal: %v (read %q)", err, seen.String())
		}
		seen.Write(buf[:n])
	}
	m.Stop()
	m.Stop()
	if !strings.Contains(seen.String(), "\reval: 3 documents, 0.0 MB") {
		t.Errorf("terminal shows %q", seen.String())
	}
}
