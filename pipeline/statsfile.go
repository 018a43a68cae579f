package pipeline

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"

	"github.com/textnb/textnb/internal/compact"
)

// The files of training in parts: a line that names the content, then its
// gob encoding.
const (
	docFreqsMagic  = "textnb document frequencies 1\n"
	classSumsMagic = "textnb class sums 1\n"
)

// WriteTo writes d in the document-frequency file format.
func (d *DocFreqs) WriteTo(w io.Writer) (int64, error) { return writeGob(w, docFreqsMagic, d) }

// ReadDocFreqs reads statistics that DocFreqs.WriteTo wrote.
func ReadDocFreqs(r io.Reader) (*DocFreqs, error) {
	d := new(DocFreqs)
	if err := readGob(r, docFreqsMagic, d); err != nil {
		return nil, err
	}
	if err := d.validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// ClassSums are a part's class sums (Summer.Sums) as a file.
type ClassSums struct{ *compact.Counts }

// WriteTo writes s in the class-sums file format.
func (s ClassSums) WriteTo(w io.Writer) (int64, error) {
	return writeGob(w, classSumsMagic, s.Counts)
}

// ReadClassSums reads sums that ClassSums.WriteTo wrote.
func ReadClassSums(r io.Reader) (ClassSums, error) {
	s := new(compact.Counts)
	if err := readGob(r, classSumsMagic, s); err != nil {
		return ClassSums{}, err
	}
	if _, err := compact.Merge(s, &compact.Counts{Classes: s.Classes, Features: s.Features, ClassCount: make([]float64, s.Classes),
		Ptr: make([]int, s.Features+1), Binary: s.Binary, Threshold: s.Threshold}); err != nil {
		return ClassSums{}, fmt.Errorf("%w: %v", ErrFormat, err) // Merge checks both
	}
	return ClassSums{s}, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func writeGob(w io.Writer, magic string, v any) (int64, error) {
	cw := &countingWriter{w: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	if _, err := bw.WriteString(magic); err != nil {
		return cw.n, err
	}
	if err := gob.NewEncoder(bw).Encode(v); err != nil {
		return cw.n, err
	}
	err := bw.Flush()
	return cw.n, err
}

func readGob(r io.Reader, magic string, v any) error {
	br := bufio.NewReaderSize(r, 1<<20)
	head := make([]byte, len(magic))
	if _, err := io.ReadFull(br, head); err != nil || string(head) != magic {
		return fmt.Errorf("%w: not a file of %q", ErrFormat, magic[:len(magic)-1])
	}
	if err := gob.NewDecoder(br).Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return nil
}
