package pipeline

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"unsafe"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// magic opens every model file. Like PNG's, it has a high byte and CR LF so
// that text-mode transfers and 7-bit channels corrupt it visibly.
const magic = "\x89TNB\r\n\x1a\n"

// FormatVersion is the newest model file format; this package reads every
// version from 1 on, of every kind. Version 2 lets a text model's
// vocabulary come in any order (training keeps the order in which it first
// saw the terms; semi-supervised and merged models are sorted); version 1
// had it sorted, and its files still load. Table models did not change, so
// they are still written as version 1, which older builds read too.
const FormatVersion = 2

// Kind says what a model file holds.
type Kind uint32

// The kinds of model file.
const (
	TextModel  Kind = 1 // a Model: text pipeline and naive Bayes classifier
	TableModel Kind = 2 // a Table: Gaussian or Categorical NB on numeric columns
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

// header is the JSON part of a model file.
type header struct {
	Config   Config        `json:"config"`
	Classes  []string      `json:"classes"`
	Lang     tokenize.Lang `json:"lang"` // Config.Tokenize.Lang, for readers of the header alone
	Features int           `json:"features"`
	Terms    int           `json:"terms"` // vocabulary size; 0 with hashing
	IDF      bool          `json:"idf"`
	// ClassCount is the (weighted) number of training documents per class.
	ClassCount []float64 `json:"class_count"`
	// Model.LabelField and TextField: absent from older files, ignored by older builds.
	LabelField string `json:"label_field,omitempty"`
	TextField  string `json:"text_field,omitempty"`
}

// WriteTo writes the model file to w, streaming: the checksum is computed
// as the bytes go out, so no copy of the file is held in memory.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	return m.writeFile(w, TextModel, func(h header) any { return h })
}

// writeFile writes m as a model file of kind k whose JSON header is what
// head makes of a text model's.
func (m *Model) writeFile(w io.Writer, k Kind, head func(header) any) (int64, error) {
	cw := newContainer(w, k)
	le := binary.LittleEndian
	h := header{Config: m.Config, Classes: m.Classes, Lang: m.Lang(), Features: m.lin.NumFeatures(), ClassCount: m.classCount,
		LabelField: m.LabelField, TextField: m.TextField}
	var idf []float64
	if p := m.idf(); p != nil {
		idf = *p
	}
	h.IDF = idf != nil
	var blob []byte
	var ends []int
	if m.vocab != nil {
		blob, ends = m.vocab.Packed()
		h.Terms = len(ends)
	}
	js, err := json.Marshal(head(h))
	if err != nil {
		return 0, err
	}
	cw.write(le.AppendUint32(nil, uint32(len(js))))
	cw.write(js)
	writePacked(cw, blob, ends)
	writeLE(cw, idf)
	writeLinear(cw, m.lin)
	counts, err := m.Counts()
	if err != nil {
		return cw.n, err
	}
	writeCounts(cw, counts)
	return cw.close()
}

// newContainer starts a model file of kind k: magic, version, kind.
func newContainer(w io.Writer, k Kind) *crcWriter {
	cw := &crcWriter{w: bufio.NewWriterSize(w, 1<<16)}
	cw.write([]byte(magic))
	cw.write(binary.LittleEndian.AppendUint32(nil, k.version()))
	cw.write(binary.LittleEndian.AppendUint32(nil, uint32(k)))
	return cw
}

// close appends the checksum and flushes.
func (c *crcWriter) close() (int64, error) {
	c.write(binary.LittleEndian.AppendUint32(nil, c.crc))
	if c.err == nil {
		c.err = c.w.Flush()
	}
	return c.n, c.err
}

// crcWriter writes through a buffer, keeping a running CRC-32C, a byte
// count and the first error.
type crcWriter struct {
	w   *bufio.Writer
	crc uint32
	n   int64
	err error
}

func (c *crcWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	c.crc = crc32.Update(c.crc, castagnoli, p)
	var k int
	k, c.err = c.w.Write(p)
	c.n += int64(k)
}

// Load reads a text model file.
func Load(path string) (*Model, error) { return loadFile(path, Decode) }

// loadFile reads the model file at path with decode, naming the file in
// decoding errors (os errors name it already).
func loadFile[M any](path string, decode func([]byte) (M, error)) (M, error) {
	var zero M
	data, err := readModelFile(path)
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
	data, err := readModelFile(path)
	if err != nil {
		return 0, err
	}
	k, _, err := openContainer(data)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// headerSize is the length of a model file's header: magic, format
// version and kind.
const headerSize = len(magic) + 8

// checkMagic reports whether head, a file's first bytes (up to
// headerSize), opens a model file: ErrNotModel if it does not start with
// the magic, ErrDamaged if it stops short of a whole header.
func checkMagic(head []byte) error {
	switch {
	case len(head) < len(magic) || string(head[:len(magic)]) != magic:
		return ErrNotModel
	case len(head) < headerSize:
		return fmt.Errorf("%w: truncated to %d bytes", ErrDamaged, len(head))
	}
	return nil
}

// readHeader returns the format version and kind of a model file's header.
func readHeader(head []byte) (version uint32, kind Kind, err error) {
	if err := checkMagic(head); err != nil {
		return 0, 0, err
	}
	le := binary.LittleEndian
	return le.Uint32(head[len(magic):]), Kind(le.Uint32(head[len(magic)+4:])), nil
}

// openContainer checks header, version and checksum and returns the kind
// and the payload.
func openContainer(data []byte) (Kind, []byte, error) {
	v, kind, err := readHeader(data)
	if err != nil {
		return 0, nil, err
	}
	if len(data) < headerSize+4 {
		return 0, nil, fmt.Errorf("%w: truncated to %d bytes", ErrDamaged, len(data))
	}
	if v < 1 || v > FormatVersion {
		return 0, nil, fmt.Errorf("%w: version %d, this build reads 1 to %d", ErrVersion, v, FormatVersion)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return 0, nil, ErrChecksum
	}
	return kind, body[headerSize:], nil
}

// PeekKind reads what kind of model the file at path holds from its first
// bytes alone, without checking the rest (Open does): enough for a caller
// to start work that only one kind needs while the file loads.
func PeekKind(path string) (Kind, error) {
	f, _, err := openModelFile(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var head [headerSize]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return 0, err
	}
	_, kind, err := readHeader(head[:n])
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return kind, nil
}

// openKind opens a container that must hold a model of kind want.
func openKind(data []byte, want Kind) ([]byte, error) {
	kind, payload, err := openContainer(data)
	if err == nil && kind != want {
		err = fmt.Errorf("%w: the file holds a %v, not a %v", ErrKind, kind, want)
	}
	return payload, err
}

// Decode reads a text model from the bytes of a model file.
func Decode(data []byte) (*Model, error) {
	payload, err := openKind(data, TextModel)
	if err != nil {
		return nil, err
	}
	return decodeModel(payload)
}

// Open reads a model file of either kind, once: it returns the text model
// or the table model the file holds, and nil for the other.
func Open(path string) (*Model, *Table, error) {
	type either struct {
		m *Model
		t *Table
	}
	e, err := loadFile(path, func(data []byte) (e either, err error) {
		kind, payload, err := openContainer(data)
		switch {
		case err != nil:
		case kind == TextModel:
			e.m, err = decodeModel(payload)
		case kind == TableModel:
			e.t, err = decodeTable(payload)
		default:
			err = fmt.Errorf("%w: the file holds a %v, not a text or table model", ErrKind, kind)
		}
		return e, err
	})
	if err != nil {
		return nil, nil, err
	}
	return e.m, e.t, nil
}

// decodeModel reads a text model from a checked container's payload. The
// vocabulary's index is built on another goroutine meanwhile, from the
// payload's bytes; every return waits for it, so that the caller may reuse
// the bytes once decoding has failed (a model it returns keeps them).
func decodeModel(payload []byte) (out *Model, err error) {
	r := &reader{b: payload}
	var h header
	if js := r.bytes(int(r.u32())); r.err == nil {
		r.err = json.Unmarshal(js, &h)
	}
	if r.err == nil {
		r.err = h.check()
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrDamaged, r.err)
	}
	m := &Model{Config: h.Config, Classes: h.Classes, classCount: h.ClassCount}
	if h.Terms > 0 {
		blob, ends := r.packed(h.Terms)
		if r.err == nil {
			if m.vocab, r.err = vectorize.NewVocabularyPacked(blob, ends); r.err == nil {
				v := m.vocab
				go v.Prepare() // overlaps the index build with decoding
				defer func() {
					// The index build finds a repeated term.
					if verr := v.Prepare(); err == nil && verr != nil {
						out, err = nil, fmt.Errorf("%w: %w", ErrDamaged, verr)
					}
				}()
			}
		}
	}
	idf := r.floats(boolInt(h.IDF) * h.Features)
	for i, w := range idf {
		if !(w >= 0 && w <= nb.MaxWeight) {
			r.err = fmt.Errorf("IDF weight %d is %g", i, w)
			break
		}
	}
	lin := r.linear(len(h.Classes), h.Features)
	if r.err == nil { // laying out the scorer validates the classifier's shape
		var s *nb.CompactScorer
		if s, r.err = lin.Scorer(); r.err == nil {
			if r.err = lin.CheckWeights(); r.err == nil {
				m.setLin(lin, s)
			}
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, r.err)
	}
	// The counts, needed only to merge or retrain, are decoded on demand.
	m.countsRaw = r.b
	m.LabelField, m.TextField = h.LabelField, h.TextField
	if err := m.restore(idf); err != nil {
		return nil, err
	}
	return m, nil
}

// check reports a header that no model has: enumerations out of range,
// class names that are empty or repeated, class counts that are negative,
// not finite or all zero, and feature or term counts that disagree (the
// sections' sizes are checked against the bytes as they are read).
func (h *header) check() error {
	c := h.Config
	switch {
	case c.Vectorizer > Hash, c.Weighting > Rennie, c.Classifier > Bernoulli, c.TFIDFOptions.Norm > vectorize.NoNorm:
		return fmt.Errorf("unknown vectorizer, weighting, classifier or norm (%d, %d, %d, %d)",
			c.Vectorizer, c.Weighting, c.Classifier, c.TFIDFOptions.Norm)
	case h.Features < 1 || h.Features > math.MaxInt32:
		return fmt.Errorf("%d features", h.Features)
	case c.Vectorizer == Hash && h.Terms != 0, c.Vectorizer == Vocab && h.Terms != h.Features:
		return fmt.Errorf("%d vocabulary terms for %d features of a %v model", h.Terms, h.Features, c.Vectorizer)
	case len(h.Classes) < 2 || len(h.Classes) > nb.MaxSparseClasses:
		return fmt.Errorf("%d classes, want 2 to %d", len(h.Classes), nb.MaxSparseClasses)
	case len(h.ClassCount) != len(h.Classes):
		return fmt.Errorf("%d class counts for %d classes", len(h.ClassCount), len(h.Classes))
	}
	if err := checkClassNames(h.Classes); err != nil {
		return err
	}
	var total float64
	for c, n := range h.ClassCount {
		if !(n >= 0 && n <= math.MaxFloat64) {
			return fmt.Errorf("class %q counts %g documents", h.Classes[c], n)
		}
		total += n
	}
	if !(total > 0 && total <= math.MaxFloat64) {
		return fmt.Errorf("the classes count %g documents in all", total)
	}
	return nil
}

// checkClassNames reports a class name that is empty or repeats an
// earlier one: predictions name their class, and merging matches classes
// by name.
func checkClassNames(classes []string) error {
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

// restore rebuilds the stages' state after decoding.
func (m *Model) restore(idf []float64) error {
	if k := len(m.Classes); k < 2 {
		return fmt.Errorf("%w: %d classes", ErrDamaged, k)
	}
	m.an = tokenize.New(m.Config.Tokenize) // resolved when the model was trained
	switch {
	case m.Config.Vectorizer == Hash:
		m.hash = vectorize.Hashing{Features: m.lin.NumFeatures()}
	case m.vocab == nil || m.vocab.Len() != m.lin.NumFeatures():
		return fmt.Errorf("%w: vocabulary does not match %d features", ErrDamaged, m.lin.NumFeatures())
	}
	// IDF weights are stored exactly when the weighting has them: Bernoulli
	// NB and raw counts use none.
	if m.weight = m.newWeighting(); (m.weight != nil) != (idf != nil) {
		return fmt.Errorf("%w: %v weighting with %d IDF weights", ErrDamaged, m.Config.Weighting, len(idf))
	}
	if idf != nil {
		*m.idf() = idf
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// littleEndian reports whether this machine stores numbers as model files
// do.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// writePacked writes the vocabulary: n+1 offsets, then the terms' bytes.
func writePacked(b *crcWriter, blob []byte, ends []int) {
	if len(ends) == 0 {
		return
	}
	le := binary.LittleEndian
	off := make([]byte, 0, 4*(len(ends)+1))
	off = le.AppendUint32(off, 0)
	for _, end := range ends {
		off = le.AppendUint32(off, uint32(end))
	}
	b.write(off)
	b.write(blob[:ends[len(ends)-1]])
}

// writeLE writes v little-endian: as it is in memory where that is the
// file's layout, else converted by binary.Encode 8 KiB at a time.
func writeLE[T uint16 | float64](b *crcWriter, v []T) {
	if len(v) == 0 {
		return
	}
	size := int(unsafe.Sizeof(v[0]))
	if littleEndian {
		b.write(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), size*len(v)))
		return
	}
	var buf [8 << 10]byte
	for len(v) > 0 {
		n := min(len(v), len(buf)/size)
		_, _ = binary.Encode(buf[:size*n], binary.LittleEndian, v[:n]) // fits: n values of size bytes
		b.write(buf[:size*n])
		v = v[n:]
	}
}

// writeSparse writes the per-feature cells shared by counts and the
// CompactLinear: pointers, class ids, values.
func writeSparse(b *crcWriter, ptr []int, class []uint16, val []float64) {
	le := binary.LittleEndian
	buf := make([]byte, 0, 8<<10) // a model's worth would add to the peak of training
	for _, p := range ptr {
		if len(buf) == cap(buf) {
			b.write(buf)
			buf = buf[:0]
		}
		buf = le.AppendUint32(buf, uint32(p))
	}
	b.write(buf)
	writeLE(b, class)
	writeLE(b, val)
}

// writeLinear stores a CompactLinear; Base may be empty.
func writeLinear(b *crcWriter, l *nb.CompactLinear) {
	le := binary.LittleEndian
	b.write(le.AppendUint32(nil, uint32(len(l.Delta))))
	b.write(le.AppendUint32(nil, uint32(len(l.Base))))
	b.write(le.AppendUint32(nil, uint32(boolInt(l.Binary))))
	b.write(le.AppendUint64(nil, math.Float64bits(l.Threshold)))
	writeLE(b, l.Bias)
	writeLE(b, l.P)
	writeLE(b, l.Q)
	writeLE(b, l.Base)
	writeSparse(b, l.Ptr, l.Class, l.Delta)
}

// writeCounts stores the sparse class-feature counts.
func writeCounts(b *crcWriter, c *nb.SparseCounts) {
	le := binary.LittleEndian
	b.write(le.AppendUint32(nil, uint32(len(c.Count))))
	writeLE(b, c.ClassCount)
	writeSparse(b, c.Ptr, c.Class, c.Count)
}

// reader decodes sections, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = fmt.Errorf("truncated: need %d bytes, have %d", n, len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *reader) floats(n int) []float64 {
	if n == 0 || r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)/8 {
		r.err = fmt.Errorf("truncated: need %d values, have %d bytes", n, len(r.b))
		return nil
	}
	b := r.bytes(8 * n)
	if b == nil {
		return nil
	}
	return readLE(make([]float64, n), b)
}

// readLE fills v from the little-endian bytes b, which hold exactly v, as
// writeLE wrote them: a copy where memory has the file's layout, else
// converted by binary.Decode. It returns v.
func readLE[T uint16 | float64](v []T, b []byte) []T {
	if len(v) == 0 {
		return v
	}
	size := int(unsafe.Sizeof(v[0]))
	if littleEndian {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), size*len(v)), b)
		return v
	}
	_, _ = binary.Decode(b, binary.LittleEndian, v) // b holds exactly v
	return v
}

// packed reads what writePacked wrote for n terms: the terms' bytes and
// their end offsets.
func (r *reader) packed(n int) ([]byte, []int) {
	if r.err != nil {
		return nil, nil
	}
	if n < 0 || n >= len(r.b)/4 {
		r.err = fmt.Errorf("truncated: %d vocabulary terms in %d bytes", n, len(r.b))
		return nil, nil
	}
	off := r.bytes(4 * (n + 1))
	if off == nil {
		return nil, nil
	}
	le := binary.LittleEndian
	ends := make([]int, n)
	for i := range ends {
		ends[i] = int(le.Uint32(off[4*i+4:]))
	}
	return r.bytes(ends[n-1]), ends
}

func (r *reader) u64() uint64 {
	b := r.bytes(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// sparse reads what writeSparse wrote for f features and nnz cells.
func (r *reader) sparse(f, nnz int) (ptr []int, class []uint16, val []float64) {
	le := binary.LittleEndian
	if r.err == nil && (f < 0 || f >= len(r.b)/4 || nnz < 0 || nnz > len(r.b)/2) {
		r.err = fmt.Errorf("truncated: %d features and %d cells in %d bytes", f, nnz, len(r.b))
	}
	pb := r.bytes(4 * (f + 1))
	cb := r.bytes(2 * nnz)
	val = r.floats(nnz)
	if r.err != nil {
		return nil, nil, nil
	}
	ptr = make([]int, f+1)
	for i := range ptr {
		ptr[i] = int(le.Uint32(pb[4*i:]))
	}
	class = readLE(make([]uint16, nnz), cb)
	return ptr, class, val
}

func (r *reader) linear(k, f int) *nb.CompactLinear {
	nnz, nbase, binary := int(r.u32()), int(r.u32()), r.u32() != 0
	l := &nb.CompactLinear{K: k, Features: f, Binary: binary, Threshold: math.Float64frombits(r.u64())}
	l.Bias, l.P, l.Q = r.floats(k), r.floats(k), r.floats(k)
	l.Base = r.floats(nbase)
	l.Ptr, l.Class, l.Delta = r.sparse(f, nnz)
	return l
}

func (r *reader) counts(k, f int) *nb.SparseCounts {
	nnz := int(r.u32())
	c := &nb.SparseCounts{Classes: k, Features: f, ClassCount: r.floats(k)}
	c.Ptr, c.Class, c.Count = r.sparse(f, nnz)
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the last section", len(r.b))
	}
	return c
}

// Counts returns the class and feature counts the model was fitted from,
// decoding them from the model file on first use.
func (m *Model) Counts() (*nb.SparseCounts, error) {
	m.countsOnce.Do(func() {
		if m.counts != nil {
			return
		}
		r := &reader{b: m.countsRaw}
		m.counts = r.counts(len(m.Classes), m.lin.NumFeatures())
		m.counts.Binary, m.counts.Threshold = m.lin.Binary, m.lin.Threshold
		if r.err == nil {
			r.err = m.counts.Validate()
		}
		if r.err != nil {
			m.counts, m.countsErr = nil, fmt.Errorf("%w: counts: %v", ErrDamaged, r.err)
		}
		m.countsRaw = nil
	})
	return m.counts, m.countsErr
}
