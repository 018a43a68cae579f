package modelfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// readFile returns the bytes of the model file at path. What is not a
// regular file (a device, a FIFO, a folder) is refused before it is read,
// and a file that does not open with the magic after its first bytes: so
// neither /dev/zero nor a large stray file is read whole, and a FIFO never
// blocks. The file is read to the size it had when opened, no further.
func readFile(path string) ([]byte, error) {
	f, size, err := openFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head [HeaderSize]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && err != io.EOF {
		return nil, err
	}
	if err := checkMagic(head[:n]); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if size > math.MaxInt {
		return nil, fmt.Errorf("%s: %w: %d bytes is too large for this machine", path, ErrDamaged, size)
	}
	data := make([]byte, max(int(size), n))
	copy(data, head[:n])
	if _, err := io.ReadFull(f, data[n:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
			err = fmt.Errorf("%w: the file shrank while it was read", ErrDamaged)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return data, nil
}

// openFile opens the regular file at path for reading and returns its
// size. It stats the path first, so that no device or FIFO is opened, and
// again once open (without blocking, should a FIFO have taken its place),
// since the file opened is the one that counts.
func openFile(path string) (*os.File, int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	if err := checkRegular(path, fi); err != nil {
		return nil, 0, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, 0, err
	}
	if fi, err = f.Stat(); err == nil {
		err = checkRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

// checkRegular refuses a model path that is not a regular file, saying
// what it is.
func checkRegular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch m := fi.Mode(); {
	case m.IsDir():
		what = "a folder"
	case m&fs.ModeNamedPipe != 0:
		what = "a FIFO"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a block device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("%s: %w: it is %s, not a file", path, ErrNotModel, what)
}
