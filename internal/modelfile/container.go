package modelfile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
)

// Magic opens every model file. Like PNG's, it has a high byte and CR LF so
// that text-mode transfers and 7-bit channels corrupt it visibly.
const Magic = "\x89TNB\r\n\x1a\n"

// FormatVersion is the newest model file format; this package reads every
// version from 1 on, of every kind. Version 3 writes a text model's JSON
// header in snake_case with enumerations by name; version 2 lets a text
// model's vocabulary come in any order (training keeps the order in which
// it first saw the terms; semi-supervised and merged models are sorted);
// version 1 had it sorted. Files of every version still load. Table
// models did not change, so they are still written as version 1, which
// older builds read too.
const FormatVersion = 3

// HeaderSize is the length of a model file's header: magic, format
// version and kind.
const HeaderSize = len(Magic) + 8

// Kind says what a model file holds.
type Kind uint32

// The kinds of model file.
const (
	TextModel       Kind = 1 // a pipeline.Model: text pipeline and naive Bayes classifier
	TableModel      Kind = 2 // a table.Table: Gaussian or Categorical NB on numeric columns
	MultiLabelModel Kind = 3 // a multilabel.Model; builds before it report ErrKind
)

func (k Kind) String() string {
	switch k {
	case TextModel:
		return "text model"
	case TableModel:
		return "table model"
	case MultiLabelModel:
		return "multi-label model"
	}
	return fmt.Sprintf("kind %d", uint32(k))
}

// version returns the format version written for models of kind k.
func (k Kind) version() uint32 {
	if k == TableModel {
		return 1
	}
	return FormatVersion
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum returns the CRC-32C of b, as a model file stores it.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// Writer writes a model file through a buffer, keeping a running CRC-32C,
// a byte count and the first error.
type Writer struct {
	w   *bufio.Writer
	crc uint32
	n   int64
	err error
}

// NewWriter starts a model file of kind k on w: magic, version, kind.
func NewWriter(w io.Writer, k Kind) *Writer {
	cw := &Writer{w: bufio.NewWriterSize(w, 1<<16)}
	cw.Put([]byte(Magic))
	cw.Put(binary.LittleEndian.AppendUint32(nil, k.version()))
	cw.Put(binary.LittleEndian.AppendUint32(nil, uint32(k)))
	return cw
}

// Put writes p, unless an earlier write failed.
func (c *Writer) Put(p []byte) {
	if c.err != nil {
		return
	}
	c.crc = crc32.Update(c.crc, castagnoli, p)
	var k int
	k, c.err = c.w.Write(p)
	c.n += int64(k)
}

// Written returns the number of bytes written so far.
func (c *Writer) Written() int64 { return c.n }

// Close appends the checksum, flushes, and returns the number of bytes
// written and the first error.
func (c *Writer) Close() (int64, error) {
	c.Put(binary.LittleEndian.AppendUint32(nil, c.crc))
	if c.err == nil {
		c.err = c.w.Flush()
	}
	return c.n, c.err
}

// checkMagic reports whether head, a file's first bytes (up to
// HeaderSize), opens a model file: ErrNotModel if it does not start with
// the magic, ErrDamaged if it stops short of a whole header.
func checkMagic(head []byte) error {
	switch {
	case len(head) < len(Magic) || string(head[:len(Magic)]) != Magic:
		return ErrNotModel
	case len(head) < HeaderSize:
		return fmt.Errorf("%w: truncated to %d bytes", ErrDamaged, len(head))
	}
	return nil
}

// ReadHeader returns the format version and kind of a model file's
// header, its first bytes, without checking the rest.
func ReadHeader(head []byte) (version uint32, kind Kind, err error) {
	if err := checkMagic(head); err != nil {
		return 0, 0, err
	}
	le := binary.LittleEndian
	return le.Uint32(head[len(Magic):]), Kind(le.Uint32(head[len(Magic)+4:])), nil
}

// Open checks the bytes of a model file, header, version and checksum, and
// returns its kind and payload.
func Open(data []byte) (Kind, []byte, error) {
	v, kind, err := ReadHeader(data)
	if err != nil {
		return 0, nil, err
	}
	if len(data) < HeaderSize+4 {
		return 0, nil, fmt.Errorf("%w: truncated to %d bytes", ErrDamaged, len(data))
	}
	if v < 1 || v > FormatVersion {
		return 0, nil, fmt.Errorf("%w: version %d, this build reads 1 to %d", ErrVersion, v, FormatVersion)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return 0, nil, ErrChecksum
	}
	return kind, body[HeaderSize:], nil
}

// OpenKind is Open for a file that must hold a model of kind want.
func OpenKind(data []byte, want Kind) ([]byte, error) {
	kind, payload, err := Open(data)
	if err == nil && kind != want {
		err = fmt.Errorf("%w: the file holds a %v, not a %v", ErrKind, kind, want)
	}
	return payload, err
}

// Load reads the model file at path with decode, naming the file in
// decoding errors (os errors name it already).
func Load[M any](path string, decode func([]byte) (M, error)) (M, error) {
	var zero M
	data, err := readFile(path)
	if err != nil {
		return zero, err
	}
	m, err := decode(data)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// FileKind reports what the model file at path holds, after checking its
// header and checksum.
func FileKind(path string) (Kind, error) {
	data, err := readFile(path)
	if err != nil {
		return 0, err
	}
	k, _, err := Open(data)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// PeekKind reads what kind of model the file at path holds from its first
// bytes alone, without checking the rest: enough for a caller to start
// work that only one kind needs while the file loads.
func PeekKind(path string) (Kind, error) {
	f, _, err := openFile(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var head [HeaderSize]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return 0, err
	}
	_, kind, err := ReadHeader(head[:n])
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return kind, nil
}

// CheckClassNames reports a class name that is empty or repeats an
// earlier one: predictions name their class, and merging matches classes
// by name.
func CheckClassNames(classes []string) error {
	seen := make(map[string]bool, len(classes))
	for i, c := range classes {
		switch {
		case c == "":
			return fmt.Errorf("class %d has an empty name", i+1)
		case seen[c]:
			return fmt.Errorf("class %q appears twice", c)
		}
		seen[c] = true
	}
	return nil
}
