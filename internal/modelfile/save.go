package modelfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutput: a path given to Save names something that is not a model file
// it may replace, such as a directory, a device or a FIFO.
var ErrOutput = errors.New("pipeline: not a file a model may replace")

// Save writes m to path atomically: a temporary file in the same folder,
// synced, then renamed over path. On error path is left as it was.
//
// Path must be absent or a regular file (CheckOutput); a file it replaces
// keeps its permission bits, a new one gets 0644. A symbolic link is
// followed: the model replaces the link's target and the link stays.
//
// The temporary file is named ".NAME.tmp" and digits, and is locked while
// Save writes it. A save that was killed leaves its temporary file behind;
// the next Save to the same path removes every such file whose writer is
// gone (no lock is held on it), so after any number of interrupted saves
// one that completes leaves only the model.
func Save(path string, m io.WriterTo) error {
	target, mode, err := outputTarget(path)
	if err != nil {
		return err
	}
	if err := save(target, mode, m); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// CheckOutput reports, without writing anything, why Save could not write
// path: a path that is neither absent nor a regular file (or a link to one)
// is ErrOutput, and so is one whose folder does not exist. Commands call it
// before the work whose result they will save.
func CheckOutput(path string) error {
	_, _, err := outputTarget(path)
	return err
}

// outputTarget resolves path to the file Save replaces, with the mode the
// new file gets.
func outputTarget(path string) (string, fs.FileMode, error) {
	target := path
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", 0, fmt.Errorf("%w: %s is a symbolic link to a missing file", ErrOutput, path)
		}
		fi, err = os.Stat(target)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(target)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return "", 0, fmt.Errorf("%w: %s: folder %s does not exist", ErrOutput, path, dir)
		}
		return target, 0o644, nil
	case err != nil:
		return "", 0, err
	case fi.IsDir():
		return "", 0, fmt.Errorf("%w: %s is a directory; name a file in it", ErrOutput, path)
	case !fi.Mode().IsRegular():
		return "", 0, fmt.Errorf("%w: %s is %s, not a regular file", ErrOutput, path, typeName(fi.Mode()))
	}
	return target, fi.Mode().Perm(), nil
}

func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// save writes m to a locked temporary file beside target and renames it
// over target. Errors name no temporary file: the caller names the path.
func save(target string, mode fs.FileMode, m io.WriterTo) (err error) {
	dir, prefix := filepath.Dir(target), "."+filepath.Base(target)+".tmp"
	removeStale(dir, prefix)
	f, err := createLocked(dir, prefix)
	if err != nil {
		return bare(err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
		// Closing releases the lock, so the file stays open until renamed.
		if cerr := f.Close(); err == nil {
			err = bare(cerr)
		}
	}()
	if _, err = m.WriteTo(&writeback{f: f, start: startWriteback}); err != nil {
		return bare(err)
	}
	if err = f.Chmod(mode); err != nil {
		return bare(err)
	}
	if err = f.Sync(); err != nil {
		return bare(err)
	}
	return bare(os.Rename(f.Name(), target))
}

// bare strips the file name from an os error, which would otherwise name
// the temporary file rather than the user's path.
func bare(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// createLocked creates a temporary file named prefix and digits in dir and
// locks it. A Save that removes stale files may remove it between the two;
// then it tries again.
func createLocked(dir, prefix string) (*os.File, error) {
	for {
		f, err := os.CreateTemp(dir, prefix+"*")
		if err != nil {
			return nil, err
		}
		if err := lockFile(f, true); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		if sameFile(f, f.Name()) {
			return f, nil
		}
		f.Close()
	}
}

// removeStale removes the temporary files that saves to the same path left
// when they were killed: files named prefix and digits that no live writer
// holds locked. Where files cannot be locked it removes none.
func removeStale(dir, prefix string) {
	if !canLock {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" || strings.Trim(rest, "0123456789") != "" || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		// Still the file listed, and its writer gone.
		if lockFile(f, false) == nil && sameFile(f, path) {
			os.Remove(path)
		}
		f.Close()
	}
}

// sameFile reports whether path still names the open file f.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Lstat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}
