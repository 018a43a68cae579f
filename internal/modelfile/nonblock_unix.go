//go:build unix

package modelfile

import "syscall"

// openNonblock keeps opening a FIFO from waiting for a writer.
const openNonblock = syscall.O_NONBLOCK
