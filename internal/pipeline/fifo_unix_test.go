//go:build unix

package pipeline

import (
	"path/filepath"
	"syscall"
	"testing"
)

// makeFIFO makes a FIFO in dir that nothing writes to, or returns "".
func makeFIFO(t *testing.T, dir string) string {
	path := filepath.Join(dir, "fifo.model")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Logf("no FIFO: %v", err)
		return ""
	}
	return path
}
