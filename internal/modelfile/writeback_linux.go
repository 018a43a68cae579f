package modelfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks Linux to start writing n bytes of f from off to
// disk, and returns at once. An error only means that it did not: the
// fsync that follows writes them all the same.
func startWriteback(f *os.File, off, n int64) {
	if c, err := f.SyscallConn(); err == nil {
		_ = c.Control(func(fd uintptr) { _ = unix.SyncFileRange(int(fd), off, n, unix.SYNC_FILE_RANGE_WRITE) })
	}
}
