package modelfile

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// pieces writes its bytes to w in pieces of varied sizes.
type pieces []byte

func (p pieces) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for size, rest := 1, []byte(p); len(rest) > 0; size = size*3 + 7 {
		k, err := w.Write(rest[:min(size, len(rest))])
		n += int64(k)
		if err != nil {
			return n, err
		}
		rest = rest[k:]
	}
	return n, nil
}

// Save starts the disk writes of a file's first chunks while it writes the
// next ones: every byte must arrive all the same.
func TestSaveWritesEveryChunk(t *testing.T) {
	data := make([]byte, 5*writebackChunk+12345)
	rand.NewChaCha8([32]byte{1}).Read(data)
	path := filepath.Join(t.TempDir(), "big")
	if err := Save(path, pieces(data)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes (%v), want the %d written", len(got), err, len(data))
	}
	// The disk writes it starts cover the file from its start, a chunk or
	// more at a time, up to less than a chunk from its end.
	f, err := os.Create(filepath.Join(t.TempDir(), "recorded"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ranges [][2]int64
	w := &writeback{f: f, start: func(_ *os.File, off, n int64) { ranges = append(ranges, [2]int64{off, n}) }}
	if _, err := pieces(data).WriteTo(w); err != nil {
		t.Fatal(err)
	}
	next := int64(0)
	for _, r := range ranges {
		if r[0] != next || r[1] < writebackChunk {
			t.Fatalf("disk writes started for %v, want contiguous ranges of at least %d bytes from 0", ranges, writebackChunk)
		}
		next += r[1]
	}
	if left := int64(len(data)) - next; left < 0 || left >= writebackChunk {
		t.Errorf("disk writes started up to byte %d of %d, want within a chunk of the end", next, len(data))
	}
}
