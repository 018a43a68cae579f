package pipeline

import (
	"fmt"
	"runtime"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/vocab"
)

// DefaultSpillLimit is the memory that a Trainer's document rows may take
// before it writes them to a temporary file (see Trainer.SpillRows).
const DefaultSpillLimit = 96 << 20

// spill is where a Trainer keeps document rows that outgrow memory.
type spill struct {
	dir   string
	limit int // bytes of rows in memory; < 0: never spill
	// With hashing: the file, once the batches outgrow limit, and the
	// document frequencies of the rows in it.
	file *vocab.RowSpill
	df   []int64
	held int // bytes of the batches in t.hashed
	err  error
	used bool // rows were read back from a file
}

// SpillRows sets where and when the Trainer writes document rows to a
// temporary file: in dir (os.TempDir() if empty) once they take more than
// limit bytes of memory (DefaultSpillLimit if 0, never if negative). The
// rows are read back once, in order, to sum the weighted rows per class,
// so that training memory grows with the vocabulary and the model, not
// with the number of documents; the model is the same, byte for byte.
// Semi-supervised training keeps its rows in memory. Call SpillRows before
// the first Add.
func (t *Trainer) SpillRows(dir string, limit int) {
	t.spill.dir, t.spill.limit = dir, limit
	t.startSpill()
}

func (s *spill) max() int {
	if s.limit == 0 {
		return DefaultSpillLimit
	}
	return s.limit
}

// spills reports whether t may spill rows.
func (t *Trainer) spills() bool {
	return t.spill.limit >= 0 && t.cfg.Semi.Method == NoSemi && !t.viaMatrix
}

// startSpill passes the setting on to the vocabulary builder.
func (t *Trainer) startSpill() {
	if t.vocab == nil {
		return
	}
	limit := -1
	if t.spills() {
		limit = t.spill.max()
	}
	t.vocab.SpillRows(t.spill.dir, limit)
}

// keepHashed holds a batch of hashed rows, or writes it, and those held,
// to the spill file once they outgrow the limit. It runs on the counting
// goroutine.
func (t *Trainer) keepHashed(rows *sparse.CSR) {
	s := &t.spill
	if s.file == nil {
		t.hashed = append(t.hashed, rows)
		if s.held += 12 * rows.NNZ(); !t.spills() || s.held <= s.max() {
			return
		}
		if s.file, s.err = vocab.NewRowSpill(s.dir); s.err != nil {
			s.file, s.limit = nil, -1 // stop trying; Finish reports the error
			return
		}
		s.df = make([]int64, t.hash.Cols())
		rows = nil
	}
	for _, b := range append(t.hashed, rows) {
		if b == nil {
			continue
		}
		for i := range b.Rows {
			idx, val := b.Row(i)
			for _, j := range idx {
				s.df[j]++
			}
			if err := s.file.Append(idx, val); err != nil && s.err == nil {
				s.err = err
			}
		}
	}
	t.hashed, s.held = nil, 0
}

// fitSpilled fits m on the hashed rows in t's spill file.
func (t *Trainer) fitSpilled(m *Model) error {
	defer t.spill.file.Close()
	t.spill.used = true
	if t.spill.err != nil {
		return t.spill.err
	}
	df := t.spill.df
	return m.fitScan(t.hash.Cols(), func() []int64 { return df }, t.y, t.spill.file.Scan)
}

// fitScan is fitRows for rows that scan reads in order.
func (m *Model) fitScan(features int, df func() []int64, y []int, scan compact.ScanFunc) error {
	if m.reweighted() {
		return fmt.Errorf("%w: reweighting needs the documents' rows in memory, which outgrew the spill limit; raise it", ErrConfig)
	}
	if err := m.fitWeightingDF(len(y), df); err != nil {
		return err
	}
	w := m.weight
	counts, err := compact.CountScan(m.newEstimator(), features, y, len(m.Classes),
		func(visit func(int, []int32, []float64) error) error {
			return scan(func(i int, idx []int32, val []float64) error {
				if w != nil {
					_ = w.TransformRow(idx, val) // the rows' columns are in range
				}
				return visit(i, idx, val)
			})
		})
	if err != nil {
		return err
	}
	// The scan's dense accumulators (8 bytes × features × classes) are
	// garbage now, and refit allocates about as much again: collect them
	// first, so that it reuses their memory instead of growing the heap.
	runtime.GC()
	m.counts = counts
	return m.refitLazy()
}
