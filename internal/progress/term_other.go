//go:build !linux

package progress

import "os"

// IsTerminal reports whether f is a character device, which is what a
// terminal is (and /dev/null too, which a Meter then draws on unseen).
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
