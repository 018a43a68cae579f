//go:build !linux

package readfile

import "os"

// ReadFile returns the contents of the file at path: os.ReadFile.
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }

// ReadFileLimit is ReadFile for a regular file of at most limit bytes
// (limit < 0: any size); of a larger one it reads nothing and returns nil
// data with the file's size.
func ReadFileLimit(path string, limit int64) ([]byte, int64, error) {
	if limit >= 0 {
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
			return nil, fi.Size(), nil
		}
	}
	data, err := os.ReadFile(path)
	return data, int64(len(data)), err
}
