package vocab

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// ErrSpill: rows could not be written to, or read back from, their
// temporary file.
var ErrSpill = errors.New("vectorize: spilled rows")

// RowSpill keeps rows of whole counts in a temporary file instead of in
// memory, in the order they are appended: each row is its byte length,
// then a uvarint pair (column, count) per entry. A row of n entries takes
// about 3n–5n bytes where a CSR row takes 12n. The file is removed as soon
// as it is created, so it never outlives the process. The zero value is
// not usable; call NewRowSpill. A RowSpill is not safe for concurrent use.
type RowSpill struct {
	f     *os.File
	w     *bufio.Writer
	rows  int
	bytes int64
	buf   []byte
	err   error // the first write error, reported by Scan and Close
}

// NewRowSpill creates an empty spill file in dir (os.TempDir() if empty).
func NewRowSpill(dir string) (*RowSpill, error) {
	f, err := os.CreateTemp(dir, "textnb-rows-*")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSpill, err)
	}
	_ = os.Remove(f.Name()) // the open file stays readable; nothing is left behind
	return &RowSpill{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// Rows returns the number of rows appended.
func (s *RowSpill) Rows() int { return s.rows }

// Bytes returns the size of the file.
func (s *RowSpill) Bytes() int64 { return s.bytes }

// Append writes one row: its columns (≥ 0) and their values, which must be
// whole counts from 0 to 2^32−1.
func (s *RowSpill) Append(idx []int32, val []float64) error {
	if len(idx) != len(val) {
		return fmt.Errorf("%w: %d columns and %d values", ErrSpill, len(idx), len(val))
	}
	b := s.buf[:0]
	for k, j := range idx {
		v := val[k]
		if j < 0 || !(v >= 0 && v <= math.MaxUint32) || v != math.Trunc(v) {
			return fmt.Errorf("%w: entry (%d, %g) is not a column and a whole count", ErrSpill, j, v)
		}
		b = binary.AppendUvarint(b, uint64(j))
		b = binary.AppendUvarint(b, uint64(v))
	}
	s.buf = b
	return s.put(b)
}

// appendEntries writes one row of (column<<32 | count) entries.
func (s *RowSpill) appendEntries(row []uint64) error {
	b := s.buf[:0]
	for _, e := range row {
		b = binary.AppendUvarint(b, e>>32)
		b = binary.AppendUvarint(b, uint64(uint32(e)))
	}
	s.buf = b
	return s.put(b)
}

// put writes a row's encoded entries behind their length.
func (s *RowSpill) put(b []byte) error {
	if s.err != nil {
		return s.err
	}
	var head [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(head[:], uint64(len(b)))
	if _, err := s.w.Write(head[:n]); err != nil {
		s.err = fmt.Errorf("%w: %v", ErrSpill, err)
		return s.err
	}
	if _, err := s.w.Write(b); err != nil {
		s.err = fmt.Errorf("%w: %v", ErrSpill, err)
		return s.err
	}
	s.rows++
	s.bytes += int64(n + len(b))
	if cap(s.buf) > 1<<20 {
		s.buf = nil // a very long row's buffer is not kept
	}
	return nil
}

// Scan calls fn with each row in the order appended: row i's columns and
// counts, in buffers that the next call reuses. It stops at fn's first
// error and returns it. Scan may be called several times; Append may not
// be called during a scan.
func (s *RowSpill) Scan(fn func(i int, idx []int32, val []float64) error) error {
	var idx []int32
	var val []float64
	return s.scanEntries(func(i int, b []byte) error {
		idx, val = idx[:0], val[:0]
		for len(b) > 0 {
			j, n := binary.Uvarint(b)
			c, m := binary.Uvarint(b[max(n, 0):])
			if n <= 0 || m <= 0 || j > math.MaxInt32 {
				return fmt.Errorf("%w: row %d is corrupt", ErrSpill, i)
			}
			idx, val = append(idx, int32(j)), append(val, float64(c))
			b = b[n+m:]
		}
		return fn(i, idx, val)
	})
}

// scanRaw calls fn with each row as (column<<32 | count) entries, in a
// buffer that the next call reuses.
func (s *RowSpill) scanRaw(fn func(i int, row []uint64) error) error {
	var row []uint64
	return s.scanEntries(func(i int, b []byte) error {
		row = row[:0]
		for len(b) > 0 {
			j, n := binary.Uvarint(b)
			c, m := binary.Uvarint(b[max(n, 0):])
			if n <= 0 || m <= 0 || j > math.MaxUint32 || c > math.MaxUint32 {
				return fmt.Errorf("%w: row %d is corrupt", ErrSpill, i)
			}
			row = append(row, j<<32|c)
			b = b[n+m:]
		}
		return fn(i, row)
	})
}

// scanEntries calls fn with each row's encoded entries.
func (s *RowSpill) scanEntries(fn func(i int, b []byte) error) error {
	if s.err != nil {
		return s.err
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("%w: %v", ErrSpill, err)
	}
	r := spillReader{r: io.NewSectionReader(s.f, 0, s.bytes), buf: make([]byte, 0, 4<<20)}
	for i := 0; i < s.rows; i++ {
		avail, err := r.fill(binary.MaxVarintLen64)
		if err != nil {
			return err
		}
		size, n := binary.Uvarint(r.buf[r.off : r.off+avail])
		if n <= 0 || size > uint64(s.bytes) {
			return fmt.Errorf("%w: row %d is corrupt", ErrSpill, i)
		}
		end := n + int(size)
		if avail, err = r.fill(end); err != nil {
			return err
		} else if avail < end {
			return fmt.Errorf("%w: row %d is cut short", ErrSpill, i)
		}
		row := r.buf[r.off+n : r.off+end]
		r.off += end
		if err := fn(i, row); err != nil {
			return err
		}
	}
	return nil
}

// spillReader reads a spill file through a buffer that holds at least a
// whole row.
type spillReader struct {
	r   io.Reader
	buf []byte
	off int // start of the unread bytes
	eof bool
}

// fill reads until k bytes are unread or the file ends, and returns how
// many are.
func (r *spillReader) fill(k int) (int, error) {
	if len(r.buf)-r.off >= k || r.eof {
		return len(r.buf) - r.off, nil
	}
	rest := copy(r.buf[:cap(r.buf)], r.buf[r.off:])
	r.buf, r.off = r.buf[:rest], 0
	if k > cap(r.buf) {
		r.buf = append(make([]byte, 0, k+4<<20), r.buf...)
	}
	for len(r.buf) < k && !r.eof {
		n, err := r.r.Read(r.buf[len(r.buf):cap(r.buf)])
		r.buf = r.buf[:len(r.buf)+n]
		switch {
		case err == io.EOF:
			r.eof = true
		case err != nil:
			return 0, fmt.Errorf("%w: %v", ErrSpill, err)
		}
	}
	return len(r.buf), nil
}

// Close removes the file. Later calls do nothing.
func (s *RowSpill) Close() error {
	if s.f == nil {
		return s.err
	}
	err := s.f.Close()
	s.f, s.w = nil, nil
	if s.err != nil {
		return s.err
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSpill, err)
	}
	return nil
}
