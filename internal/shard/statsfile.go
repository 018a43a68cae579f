package shard

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"

	"github.com/textnb/textnb/internal/modelfile"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/nb"
)

// The files of training in parts: a line that names the content, then its
// gob encoding.
const (
	docFreqsMagic  = "textnb document frequencies 1\n"
	classSumsMagic = "textnb class sums 1\n"
	denseSumsMagic = "textnb class sums 2\n"
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
type ClassSums struct {
	c *compact.Counts // the non-zero cells, or
	d *nb.Counts      // a dense table (the hashing vectorizer's, see Summer)
}

// shape returns the classes and features of s.
func (s *ClassSums) shape() (classes, features int) {
	if s.d != nil {
		return s.d.Classes, s.d.Features
	}
	return s.c.Classes, s.c.Features
}

// sparse returns s's non-zero cells.
func (s *ClassSums) sparse() (*compact.Counts, error) {
	if s.c != nil {
		return s.c, nil
	}
	c := compact.FromDense(s.d)
	if c == nil {
		return nil, fmt.Errorf("%w: sums of %d classes × %d features", ErrStats, s.d.Classes, s.d.Features)
	}
	return c, nil
}

// MergeClassSums returns the sums of a's documents and b's; it is
// associative and commutative up to rounding.
func MergeClassSums(a, b *ClassSums) (*ClassSums, error) {
	if a.d != nil && b.d != nil {
		d := cloneCounts(a.d)
		if err := d.Merge(b.d); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrStats, err)
		}
		return &ClassSums{d: d}, nil
	}
	sa, err := a.sparse()
	if err != nil {
		return nil, err
	}
	sb, err := b.sparse()
	if err != nil {
		return nil, err
	}
	c, err := compact.Merge(sa, sb)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStats, err)
	}
	return &ClassSums{c: c}, nil
}

// Add adds o's sums to s, as MergeClassSums(s, o) would, in s's own
// memory where s is a dense table: to combine many parts' sums of the
// hashing vectorizer, each as large as the model, without a copy each.
// On error s is unchanged.
func (s *ClassSums) Add(o *ClassSums) error {
	if s.d != nil && o.d != nil {
		if err := s.d.Merge(o.d); err != nil {
			return fmt.Errorf("%w: %v", ErrStats, err)
		}
		return nil
	}
	m, err := MergeClassSums(s, o)
	if err != nil {
		return err
	}
	*s = *m
	return nil
}

// WriteTo writes s in the class-sums file format: its non-zero cells, or,
// for a dense table, its classes' sums in turn (the format at the top of dense.go).
func (s *ClassSums) WriteTo(w io.Writer) (int64, error) {
	if s.d != nil {
		cw := &modelfile.Counter{W: w}
		bw := bufio.NewWriterSize(cw, 1<<20)
		if _, err := bw.Write(appendDenseHeader(nil, s.d)); err != nil {
			return cw.N, err
		}
		var b []byte
		for k := range s.d.Classes {
			b = appendDenseClass(b[:0], s.d, k)
			if _, err := bw.Write(b); err != nil {
				return cw.N, err
			}
		}
		err := bw.Flush()
		return cw.N, err
	}
	return writeGob(w, classSumsMagic, s.c)
}

// ReadClassSums reads sums that ClassSums.WriteTo wrote.
func ReadClassSums(r io.Reader) (*ClassSums, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	if head, err := br.Peek(len(denseSumsMagic)); err == nil && string(head) == denseSumsMagic {
		d, err := readDense(br)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", pipeline.ErrFormat, err)
		}
		return &ClassSums{d: d}, nil
	}
	s := new(compact.Counts)
	if err := readGob(br, classSumsMagic, s); err != nil {
		return nil, err
	}
	if _, err := compact.Merge(s, &compact.Counts{Classes: s.Classes, Features: s.Features, ClassCount: make([]float64, s.Classes),
		Ptr: make([]int, s.Features+1), Binary: s.Binary, Threshold: s.Threshold}); err != nil {
		return nil, fmt.Errorf("%w: %v", pipeline.ErrFormat, err) // Merge checks both
	}
	return &ClassSums{c: s}, nil
}

func writeGob(w io.Writer, magic string, v any) (int64, error) {
	cw := &modelfile.Counter{W: w}
	bw := bufio.NewWriterSize(cw, 1<<20)
	if _, err := bw.WriteString(magic); err != nil {
		return cw.N, err
	}
	if err := gob.NewEncoder(bw).Encode(v); err != nil {
		return cw.N, err
	}
	err := bw.Flush()
	return cw.N, err
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
