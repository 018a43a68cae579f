//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package modelfile

import (
	"os"
	"syscall"
)

const canLock = true

// lockFile takes an exclusive flock on f, waiting for it if wait is set.
// The system releases it when the process ends, however it ends.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}
