//go:build !unix

package modelfile

// openNonblock is 0 where FIFOs do not block an open.
const openNonblock = 0
