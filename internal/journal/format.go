package journal

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Op is what an update does to the model.
type Op uint8

// The updates a journal records.
const (
	Learn   Op = 1
	Unlearn Op = 2
	// compacted marks that the model file was rewritten with every update
	// before it.
	compacted Op = 3
	// endsBatch, in a record's kind byte, marks the last update of those
	// applied to the Learner together.
	endsBatch = 0x80
)

func (o Op) String() string {
	switch o {
	case Learn:
		return "learn"
	case Unlearn:
		return "unlearn"
	case compacted:
		return "compacted"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// inverse is the update that undoes o.
func (o Op) inverse() Op {
	if o == Learn {
		return Unlearn
	}
	return Learn
}

// Doc is one labeled document of an update.
type Doc struct{ Label, Text string }

// Sum names a version of a model file: the SHA-256 of its bytes.
type Sum [sha256.Size]byte

// SumOf returns the Sum of a model file's bytes.
func SumOf(data []byte) Sum { return sha256.Sum256(data) }

func (s Sum) String() string { return fmt.Sprintf("%x", s[:8]) }

// Errors of Open and of writing.
var (
	// ErrNotJournal: the file at the journal's path is not a journal, so
	// Open leaves it alone.
	ErrNotJournal = errors.New("journal: not a textnb journal")
	// ErrCorrupt: a journal is damaged other than by an interrupted write
	// at its end.
	ErrCorrupt = errors.New("journal: damaged")
	// ErrClosed: the journal was closed.
	ErrClosed = errors.New("journal: closed")
	// ErrWrite: the journal could not be written or synced; nothing more is
	// learned until it is opened again.
	ErrWrite = errors.New("journal: cannot write")
)

const (
	magic      = "TEXTNBJ\n"
	version    = 1
	headerSize = len(magic) + 4 + sha256.Size + 4
	frameSize  = 12
	// maxRecord bounds a record's payload, so that a damaged length cannot
	// make Open allocate without bound.
	maxRecord = 1 << 30
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func appendHeader(b []byte, base Sum) []byte {
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = append(b, base[:]...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[len(b)-headerSize+4:], castagnoli))
}

// readHeader returns the base of a journal's bytes.
func readHeader(data []byte) (Sum, error) {
	var base Sum
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return base, ErrNotJournal
	}
	if len(data) < headerSize {
		return base, fmt.Errorf("%w: the header is cut short", ErrCorrupt)
	}
	h := data[:headerSize]
	if crc32.Checksum(h[:headerSize-4], castagnoli) != binary.LittleEndian.Uint32(h[headerSize-4:]) {
		return base, fmt.Errorf("%w: the header fails its checksum", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(h[len(magic):]); v != version {
		return base, fmt.Errorf("%w: version %d; this build reads version %d", ErrCorrupt, v, version)
	}
	copy(base[:], h[len(magic)+4:])
	return base, nil
}

// frame fills in the frame of the payload that the caller appended to b
// after reserving frameSize bytes at start.
func frame(b []byte, start int) []byte {
	n := len(b) - start - frameSize
	binary.LittleEndian.PutUint32(b[start:], uint32(n))
	binary.LittleEndian.PutUint32(b[start+4:], crc32.Checksum(b[start:start+4], castagnoli))
	binary.LittleEndian.PutUint32(b[start+8:], crc32.Checksum(b[start+frameSize:], castagnoli))
	return b
}

// appendUpdate appends the record of an update; ends marks the last of a
// batch.
func appendUpdate(b []byte, op Op, seq uint64, docs []Doc, ends bool) []byte {
	start := len(b)
	b = append(b, make([]byte, frameSize)...)
	kind := byte(op)
	if ends {
		kind |= endsBatch
	}
	b = append(b, kind)
	b = binary.AppendUvarint(b, seq)
	b = binary.AppendUvarint(b, uint64(len(docs)))
	for _, d := range docs {
		b = binary.AppendUvarint(b, uint64(len(d.Label)))
		b = append(b, d.Label...)
		b = binary.AppendUvarint(b, uint64(len(d.Text)))
		b = append(b, d.Text...)
	}
	return frame(b, start)
}

// appendCompacted appends the record that the model file was rewritten as
// the file of Sum target.
func appendCompacted(b []byte, seq uint64, target Sum) []byte {
	start := len(b)
	b = append(b, make([]byte, frameSize)...)
	b = append(b, byte(compacted))
	b = binary.AppendUvarint(b, seq)
	b = append(b, target[:]...)
	return frame(b, start)
}

// record is a decoded record.
type record struct {
	op     Op
	seq    uint64
	docs   []Doc // learn, unlearn
	ends   bool  // the last of a batch
	target Sum   // compacted
	end    int   // offset after it in the records' bytes
}

// scan reads the records of b, the bytes after a header. It returns them
// and the length of b they fill; the bytes after are an interrupted write.
// Damage before the end is ErrCorrupt, naming its offset in the file.
func scan(b []byte) ([]record, int, error) {
	var recs []record
	off := 0
	for off < len(b) {
		rest := b[off:]
		if len(rest) < frameSize || allZero(rest) {
			break // a frame cut short, or space never written: torn
		}
		if crc32.Checksum(rest[:4], castagnoli) != binary.LittleEndian.Uint32(rest[4:]) {
			return nil, 0, fmt.Errorf("%w: the record at byte %d has a damaged length and %d bytes follow it",
				ErrCorrupt, headerSize+off, len(rest)-frameSize)
		}
		n := int64(binary.LittleEndian.Uint32(rest))
		if n > maxRecord {
			return nil, 0, fmt.Errorf("%w: the record at byte %d claims %d bytes", ErrCorrupt, headerSize+off, n)
		}
		if frameSize+n > int64(len(rest)) {
			break // runs past the end: torn
		}
		end := frameSize + int(n)
		payload := rest[frameSize:end]
		if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(rest[8:]) {
			if end == len(rest) || allZero(rest[end:]) {
				break // the last write, not all of it on disk
			}
			return nil, 0, fmt.Errorf("%w: the record at byte %d fails its checksum and %d bytes follow it",
				ErrCorrupt, headerSize+off, len(rest)-end)
		}
		r, err := decode(payload)
		if err != nil {
			return nil, 0, fmt.Errorf("%w: the record at byte %d: %v", ErrCorrupt, headerSize+off, err)
		}
		off += end
		r.end = off
		recs = append(recs, r)
	}
	return recs, off, nil
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

var errShort = errors.New("payload cut short")

func decode(p []byte) (record, error) {
	var r record
	if len(p) == 0 {
		return r, errShort
	}
	r.op, r.ends, p = Op(p[0]&^endsBatch), p[0]&endsBatch != 0, p[1:]
	var k int
	if r.seq, k = binary.Uvarint(p); k <= 0 {
		return r, errShort
	}
	p = p[k:]
	switch r.op {
	case compacted:
		if len(p) != len(r.target) {
			return r, errors.New("a compacted record of the wrong length")
		}
		copy(r.target[:], p)
		return r, nil
	case Learn, Unlearn:
	default:
		return r, fmt.Errorf("unknown kind %d", uint8(r.op))
	}
	n, k := binary.Uvarint(p)
	if k <= 0 || n > uint64(len(p)) {
		return r, errShort
	}
	p = p[k:]
	r.docs = make([]Doc, n)
	str := func() (string, bool) {
		l, k := binary.Uvarint(p)
		if k <= 0 || l > uint64(len(p)-k) {
			return "", false
		}
		s := string(p[k : k+int(l)])
		p = p[k+int(l):]
		return s, true
	}
	for i := range r.docs {
		var ok1, ok2 bool
		r.docs[i].Label, ok1 = str()
		r.docs[i].Text, ok2 = str()
		if !ok1 || !ok2 {
			return r, errShort
		}
	}
	if len(p) != 0 {
		return r, fmt.Errorf("%d bytes after the documents", len(p))
	}
	return r, nil
}
