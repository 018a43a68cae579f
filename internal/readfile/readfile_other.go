//go:build !linux

package readfile

import "os"

// ReadFile returns the contents of the file at path: os.ReadFile.
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
