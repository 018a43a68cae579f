package modelfile

import "os"

// writeback passes writes on to a file and has the system start writing
// each writebackChunk of them to disk at once, without waiting (where it
// can: startWriteback), so that the fsync that ends Save waits for the
// file's last chunk rather than all of it (docs/performance.md).
type writeback struct {
	f                *os.File
	start            func(f *os.File, off, n int64) // startWriteback, or what a test records
	written, started int64
}

const writebackChunk = 1 << 20

func (w *writeback) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.written-w.started >= writebackChunk {
		w.start(w.f, w.started, w.written-w.started)
		w.started = w.written
	}
	return n, err
}
