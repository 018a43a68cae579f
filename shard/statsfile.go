package shard

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/pipeline"
)

// The files of training in parts: a line that names the content, then its
// gob encoding.
const (
	docFreqsMagic  = "textnb document frequencies 1\n"
	classSumsMagic = "textnb class sums 1\n"
)

// docFreqsFile is DocFreqs as its file holds it: gob matches fields by
// name, so these are DocFreqs' own.
type docFreqsFile struct {
	Config    pipeline.Config
	Classes   []string
	ClassDocs []int64
	Empty     int64
	Terms     vocab.TermStats
}

// WriteTo writes d in the document-frequency file format.
func (d *DocFreqs) WriteTo(w io.Writer) (int64, error) {
	return writeGob(w, docFreqsMagic, &docFreqsFile{d.Config, d.Classes, d.ClassDocs, d.Empty, d.terms})
}

// ReadDocFreqs reads statistics that DocFreqs.WriteTo wrote.
func ReadDocFreqs(r io.Reader) (*DocFreqs, error) {
	var f docFreqsFile
	if err := readGob(r, docFreqsMagic, &f); err != nil {
		return nil, err
	}
	d := &DocFreqs{Config: f.Config, Classes: f.Classes, ClassDocs: f.ClassDocs, Empty: f.Empty, terms: f.Terms}
	if err := d.validate(); err != nil {
		return nil, err
	}
	return d, nil
}

// ClassSums are the class sums of a part's weighted rows, with the
// documents of each class (Summer.Sums): statistics that MergeClassSums
// combines across parts and that Prepared.Build makes a model of.
type ClassSums struct{ c *compact.Counts }

// MergeClassSums returns the sums of a's documents and b's; it is
// associative and commutative up to rounding.
func MergeClassSums(a, b *ClassSums) (*ClassSums, error) {
	c, err := compact.Merge(a.c, b.c)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStats, err)
	}
	return &ClassSums{c: c}, nil
}

// WriteTo writes s in the class-sums file format.
func (s *ClassSums) WriteTo(w io.Writer) (int64, error) {
	return writeGob(w, classSumsMagic, s.c)
}

// ReadClassSums reads sums that ClassSums.WriteTo wrote.
func ReadClassSums(r io.Reader) (*ClassSums, error) {
	s := new(compact.Counts)
	if err := readGob(r, classSumsMagic, s); err != nil {
		return nil, err
	}
	if _, err := compact.Merge(s, &compact.Counts{Classes: s.Classes, Features: s.Features, ClassCount: make([]float64, s.Classes),
		Ptr: make([]int, s.Features+1), Binary: s.Binary, Threshold: s.Threshold}); err != nil {
		return nil, fmt.Errorf("%w: %v", pipeline.ErrFormat, err) // Merge checks both
	}
	return &ClassSums{c: s}, nil
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
		return fmt.Errorf("%w: not a file of %q", pipeline.ErrFormat, magic[:len(magic)-1])
	}
	if err := gob.NewDecoder(br).Decode(v); err != nil {
		return fmt.Errorf("%w: %v", pipeline.ErrFormat, err)
	}
	return nil
}
