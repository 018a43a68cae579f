package pipeline

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/featurehash"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/tokenize"
)

// header is the JSON part of a text model file (see fileConfig).
type header struct {
	Config   fileConfig    `json:"config"`
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
	// Model.Threshold: absent from older files, ignored by older builds.
	Threshold *fileThreshold `json:"threshold,omitempty"`
	// Calibration is absent from uncalibrated and older files.
	Calibration *fileCalibration `json:"calibration,omitempty"`
	// Model.MailInput and MailFeatures: absent from older files and from
	// models trained on text.
	MailInput    string `json:"mail_input,omitempty"`
	MailFeatures string `json:"mail_features,omitempty"`
	// Chosen is Model.Chosen: absent when training chose nothing.
	Chosen *Choice `json:"chosen,omitempty"`
	// Learned is Model.Learned: absent from models that learned nothing
	// since training, and from older files.
	Learned *Learned `json:"learned,omitempty"`
}

// WriteTo writes the model file to w, streaming: the checksum is computed
// as the bytes go out, so no copy of the file is held in memory.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	return m.writeFile(w, modelfile.TextModel, func(h header) any { return h })
}

// writeFile writes m as a model file of kind k whose JSON header is what
// head makes of a text model's.
func (m *Model) writeFile(w io.Writer, k modelfile.Kind, head func(header) any) (n int64, err error) {
	if lerr := m.readLocked(func() { n, err = m.writeLocked(w, k, head) }); lerr != nil {
		return 0, lerr
	}
	return n, err
}

// writeLocked is writeFile; the caller holds m.mu.
func (m *Model) writeLocked(w io.Writer, k modelfile.Kind, head func(header) any) (int64, error) {
	cw := modelfile.NewWriter(w, k)
	le := binary.LittleEndian
	h := header{Config: newFileConfig(m.Config), Classes: m.Classes, Lang: m.Config.Tokenize.Lang, Features: m.lin.NumFeatures(), ClassCount: m.classCount,
		LabelField: m.LabelField, TextField: m.TextField, MailInput: m.MailInput, MailFeatures: m.MailFeatures, Calibration: newFileCalibration(m.calibration), Chosen: m.Chosen}
	if l := m.Learned; l.Documents+l.Unlearned > 0 || l.Reweighting != "" {
		h.Learned = &l
	}
	h.Config.Calibrate = m.calibration != nil // whatever the Config asked for
	if t := m.Threshold; t != nil {
		if t.Class < 0 || t.Class >= len(m.Classes) {
			return 0, fmt.Errorf("%w: class %d of %d", ErrThreshold, t.Class, len(m.Classes))
		}
		if _, err := newThreshold(m.Classes, m.Classes[t.Class], t.P); err != nil {
			return 0, err
		}
		h.Threshold = &fileThreshold{Class: m.Classes[t.Class], P: t.P}
	}
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
	cw.Put(le.AppendUint32(nil, uint32(len(js))))
	cw.Put(js)
	writePacked(cw, blob, ends)
	writeLE(cw, idf)
	writeLinear(cw, m.lin, m.lazy)
	counts, err := m.fittedCounts()
	if err != nil {
		return cw.Written(), err
	}
	writeCounts(cw, counts)
	return cw.Close()
}

// Load reads a text model file.
func Load(path string) (*Model, error) { return modelfile.Load(path, decode) }

// decode reads a text model from the bytes of a model file.
func decode(data []byte) (*Model, error) {
	payload, err := modelfile.OpenKind(data, modelfile.TextModel)
	if err != nil {
		return nil, err
	}
	return decodeModel(payload, fileVersion(data))
}

// fileVersion returns the format version of a checked container.
func fileVersion(data []byte) uint32 {
	v, _, _ := modelfile.ReadHeader(data)
	return v
}

// decodeModel reads a text model from the payload of a checked container
// of the given format version. The vocabulary's index is built on another
// goroutine meanwhile, from the payload's bytes; every return waits for
// it, so that the caller may reuse the bytes once decoding has failed (a
// model it returns keeps them).
func decodeModel(payload []byte, version uint32) (out *Model, err error) {
	r := &reader{b: payload}
	var h header
	var cfg Config
	if js := r.bytes(int(r.u32())); r.err == nil {
		h, r.err = decodeHeader(js, version)
	}
	if r.err == nil {
		cfg = h.Config.config()
		r.err = h.check(cfg)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrDamaged, r.err)
	}
	m := &Model{Config: cfg, Classes: h.Classes, classCount: h.ClassCount}
	if m.calibration, r.err = h.Calibration.calibration(len(h.Classes)); r.err == nil && (m.calibration != nil) != cfg.Calibrate {
		r.err = fmt.Errorf("calibrate %v with calibration %v", cfg.Calibrate, m.calibration != nil)
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrDamaged, r.err)
	}
	if h.Terms > 0 {
		blob, ends := r.packed(h.Terms)
		if r.err == nil {
			if m.vocab, r.err = vocab.NewVocabularyPacked(blob, ends); r.err == nil {
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
	idf := r.floats(tally.BoolInt(h.IDF) * h.Features)
	for i, w := range idf {
		if !(w >= 0 && w <= compact.MaxWeight) {
			r.err = fmt.Errorf("IDF weight %d is %g", i, w)
			break
		}
	}
	lin := r.linear(len(h.Classes), h.Features)
	if r.err == nil { // laying out the scorer validates the classifier's shape
		var s *compact.Scorer
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
	m.LabelField, m.TextField, m.Chosen = h.LabelField, h.TextField, h.Chosen
	if h.Learned != nil {
		m.Learned = *h.Learned
	}
	if f := h.Threshold; f != nil {
		t, err := newThreshold(m.Classes, f.Class, f.P)
		if err != nil {
			return nil, fmt.Errorf("%w: header: %v", ErrDamaged, err)
		}
		m.Threshold = &t
	}
	m.MailInput, m.MailFeatures = h.MailInput, h.MailFeatures
	if err := m.restore(idf); err != nil {
		return nil, err
	}
	return m, nil
}

// check reports a header, with c its settings, that no model has:
// enumerations out of range, class names that are empty or repeated, class
// counts that are negative, not finite or all zero, and feature or term
// counts that disagree (the sections' sizes are checked against the bytes
// as they are read).
func (h *header) check(c Config) error {
	if err := c.checkEnums(); err != nil {
		return err
	}
	switch {
	case h.Features < 1 || h.Features > math.MaxInt32:
		return fmt.Errorf("%d features", h.Features)
	case c.Vectorizer == Hash && h.Terms != 0, c.Vectorizer == Vocab && h.Terms != h.Features:
		return fmt.Errorf("%d vocabulary terms for %d features of a %v model", h.Terms, h.Features, c.Vectorizer)
	case len(h.Classes) < 2 || len(h.Classes) > compact.MaxClasses:
		return fmt.Errorf("%d classes, want 2 to %d", len(h.Classes), compact.MaxClasses)
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

// restore rebuilds the stages' state after decoding.
func (m *Model) restore(idf []float64) error {
	if k := len(m.Classes); k < 2 {
		return fmt.Errorf("%w: %d classes", ErrDamaged, k)
	}
	m.an = tokenize.New(m.Config.Tokenize) // resolved when the model was trained
	switch {
	case m.Config.Vectorizer == Hash:
		m.hash = featurehash.Hashing{Features: m.lin.NumFeatures()}
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

// littleEndian reports whether this machine stores numbers as model files
// do.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// writePacked writes the vocabulary: n+1 offsets, then the terms' bytes.
func writePacked(b *modelfile.Writer, blob []byte, ends []int) {
	if len(ends) == 0 {
		return
	}
	le := binary.LittleEndian
	off := make([]byte, 0, 4*(len(ends)+1))
	off = le.AppendUint32(off, 0)
	for _, end := range ends {
		off = le.AppendUint32(off, uint32(end))
	}
	b.Put(off)
	b.Put(blob[:ends[len(ends)-1]])
}

// writeLE writes v little-endian: as it is in memory where that is the
// file's layout, else converted by binary.Encode 8 KiB at a time.
func writeLE[T uint16 | float64](b *modelfile.Writer, v []T) {
	if len(v) == 0 {
		return
	}
	size := int(unsafe.Sizeof(v[0]))
	if littleEndian {
		b.Put(unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), size*len(v)))
		return
	}
	var buf [8 << 10]byte
	for len(v) > 0 {
		n := min(len(v), len(buf)/size)
		_, _ = binary.Encode(buf[:size*n], binary.LittleEndian, v[:n]) // fits: n values of size bytes
		b.Put(buf[:size*n])
		v = v[n:]
	}
}

// writeSparse writes the per-feature cells shared by counts and the
// compact.Linear: pointers, class ids, values.
func writeSparse(b *modelfile.Writer, ptr []int, class []uint16, val []float64) {
	le := binary.LittleEndian
	buf := make([]byte, 0, 8<<10) // a model's worth would add to the peak of training
	for _, p := range ptr {
		if len(buf) == cap(buf) {
			b.Put(buf)
			buf = buf[:0]
		}
		buf = le.AppendUint32(buf, uint32(p))
	}
	b.Put(buf)
	writeLE(b, class)
	writeLE(b, val)
}

// writeLinear stores a compact.Linear; Base may be empty. If lazy is not
// nil, l is its shape, and its cell weights are computed and written a
// block at a time.
func writeLinear(b *modelfile.Writer, l *compact.Linear, lazy *compact.LazyLinear) {
	le := binary.LittleEndian
	cells := len(l.Delta)
	if lazy != nil {
		cells = lazy.Cells()
	}
	b.Put(le.AppendUint32(nil, uint32(cells)))
	b.Put(le.AppendUint32(nil, uint32(len(l.Base))))
	b.Put(le.AppendUint32(nil, uint32(tally.BoolInt(l.Binary))))
	b.Put(le.AppendUint64(nil, math.Float64bits(l.Threshold)))
	writeLE(b, l.Bias)
	writeLE(b, l.P)
	writeLE(b, l.Q)
	writeLE(b, l.Base)
	if lazy == nil {
		writeSparse(b, l.Ptr, l.Class, l.Delta)
		return
	}
	writeSparse(b, l.Ptr, l.Class, nil)
	d := make([]float64, min(cells, lazyBlock))
	for lo := 0; lo < cells; lo += len(d) {
		d = d[:min(len(d), cells-lo)]
		lazy.Deltas(d, lo)
		writeLE(b, d)
	}
}

// writeCounts stores the sparse class-feature counts.
func writeCounts(b *modelfile.Writer, c *compact.Counts) {
	le := binary.LittleEndian
	b.Put(le.AppendUint32(nil, uint32(len(c.Count))))
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

func (r *reader) linear(k, f int) *compact.Linear {
	nnz, nbase, binary := int(r.u32()), int(r.u32()), r.u32() != 0
	l := &compact.Linear{K: k, Features: f, Binary: binary, Threshold: math.Float64frombits(r.u64())}
	l.Bias, l.P, l.Q = r.floats(k), r.floats(k), r.floats(k)
	l.Base = r.floats(nbase)
	l.Ptr, l.Class, l.Delta = r.sparse(f, nnz)
	return l
}

func (r *reader) counts(k, f int) *compact.Counts {
	nnz := int(r.u32())
	c := &compact.Counts{Classes: k, Features: f, ClassCount: r.floats(k)}
	c.Ptr, c.Class, c.Count = r.sparse(f, nnz)
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the last section", len(r.b))
	}
	return c
}

// fittedCounts returns the class and feature counts the model was fitted from,
// decoding them from the model file on first use.
func (m *Model) fittedCounts() (*compact.Counts, error) {
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
