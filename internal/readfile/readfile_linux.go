package readfile

import (
	"io/fs"
	"slices"
	"syscall"
)

// ReadFile returns the contents of the file at path, like os.ReadFile.
// os.Open readies every file for the network poller, which regular files
// refuse: four fcntl calls and a failed epoll_ctl per file, half the
// system calls of reading a small one. ReadFile opens, sizes, reads and
// closes: four calls for a regular file (see readAll).
func ReadFile(path string) ([]byte, error) {
	data, _, err := ReadFileLimit(path, -1)
	return data, err
}

// ReadFileLimit is ReadFile for a regular file of at most limit bytes
// (limit < 0: any size); of a larger one it reads nothing and returns nil
// data with the file's size.
func ReadFileLimit(path string, limit int64) ([]byte, int64, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if retry(func() error { return syscall.Fstat(fd, &st) }) != nil {
		st.Size, st.Mode = 0, 0 // read to the end all the same, as os.ReadFile does
	}
	regular := st.Mode&syscall.S_IFMT == syscall.S_IFREG
	if limit >= 0 && regular && st.Size > limit {
		return nil, st.Size, nil
	}
	data, err := readAll(fd, st.Size, regular)
	if err != nil {
		return nil, 0, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return data, int64(len(data)), nil
}

// minBuf is os.ReadFile's smallest read: files in /proc claim size 0 and
// then misbehave if read in small pieces.
const minBuf = 512

// readAll reads fd to its end as os.ReadFile does, given its stat size:
// into size+1 bytes (at least minBuf), so that a file of the size it claims
// takes one read. os.ReadFile reads again to find the end; for a regular
// file, reaching exactly the stat size (short of the buffer, which is
// larger) is taken as the end, a system call saved per document. That
// trusts fstat: a file that shrank or grew since reads on to its end, but
// one whose stated size is stale and that answers in pieces ending there
// (a FUSE file, say) would be cut at that size.
func readAll(fd int, statSize int64, regular bool) ([]byte, error) {
	size := 1
	if int64(int(statSize)) == statSize {
		size += int(statSize)
	}
	data := make([]byte, 0, max(size, minBuf))
	for {
		var n int
		err := retry(func() (err error) {
			n, err = syscall.Read(fd, data[len(data):cap(data)])
			return err
		})
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return data, nil
		}
		data = data[:len(data)+n]
		if regular && int64(len(data)) == statSize {
			return data, nil
		}
		if left := cap(data) - len(data); left == 0 || statSize == 0 && left < minBuf {
			data = slices.Grow(data, minBuf)
		}
	}
}

// retry calls f until it fails with something other than EINTR, which a
// signal (such as the Go runtime's preemption) may cause.
func retry(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
