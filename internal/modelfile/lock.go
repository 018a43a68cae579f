package modelfile

import (
	"errors"
	"os"
)

// ErrLocked: another process holds the lock TryLock asked for.
var ErrLocked = errors.New("modelfile: locked by another process")

// TryLock takes an exclusive lock on f without waiting; the system
// releases it when f is closed or the process ends, however it ends.
// Where files cannot be locked it does nothing.
func TryLock(f *os.File) error {
	if err := lockFile(f, false); err != nil {
		return ErrLocked
	}
	return nil
}

// SyncDir makes the entries of folder dir durable: a file renamed into it
// survives a crash of the machine, not just of the process.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
