//go:build !unix

package pipeline

// openNonblock is 0 where FIFOs do not block an open.
const openNonblock = 0
