package modelfile

import "io"

// Counter passes writes on to W and counts the bytes written: the count
// that an io.WriterTo returns.
type Counter struct {
	W io.Writer
	N int64
}

func (c *Counter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}
