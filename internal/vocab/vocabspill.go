package vocab

import (
	"fmt"
	"slices"
)

// spilled is the part of a builder's rows written to a RowSpill: the
// first rows, in order. Their document frequencies and totals are read
// back from the file when asked for, so that counting keeps nothing per
// term for them; rows that are discarded (DiscardRows) keep theirs.
type spilled struct {
	dir   string
	limit int       // bytes of rows in memory above which they are written out
	file  *RowSpill // created when the rows first outgrow limit
	err   error     // creating file
	rows  int       // rows out of memory
	// discard drops the rows instead of writing them, keeping their
	// document frequencies and total counts, per node.
	discard bool
	df, tf  []int64
}

func (s *rowStore) spilledRows() int {
	if s.spill == nil {
		return 0
	}
	return s.spill.rows
}

// DiscardRows makes b count only the document frequencies and total
// counts of its terms, dropping the rows, for callers that need no more
// than Counts.TermStats: its memory grows with the vocabulary alone.
func (b *Builder) DiscardRows() {
	if b.rows.spill == nil && len(b.rows.rows) == 0 {
		b.rows.spill = &spilled{limit: rowPage * 8, discard: true}
	}
}

// SpillRows makes b write its rows to a temporary file in dir (os.TempDir()
// if empty) whenever those in memory take more than limit bytes, so that
// its memory grows with the terms it has seen, not with the documents.
// A builder that has spilled gives its rows only through Pruned.Scan:
// Finish, Consume and Pruned.Row need them all in memory and refuse.
// The file is created when first needed; an error creating or writing it
// is reported by Scan. A negative limit keeps every row in memory, as
// builders do by default; the setting changes nothing once rows have been
// spilled. Call CloseSpill when the rows are no longer needed.
func (b *Builder) SpillRows(dir string, limit int) {
	switch {
	case b.rows.spilledRows() > 0:
	case limit < 0:
		b.rows.spill = nil
	default:
		b.rows.spill = &spilled{dir: dir, limit: limit}
	}
}

// Spilled reports whether b's rows must be read with Pruned.Scan: some are
// in its spill file, or writing them there failed (Scan reports why).
func (b *Builder) Spilled() bool {
	return b.rows.spilledRows() > 0 || b.rows.spill != nil && b.rows.spill.err != nil
}

// CloseSpill removes b's spill file, if any, and with it the rows there.
func (b *Builder) CloseSpill() error {
	s := b.rows.spill
	if s == nil {
		return nil
	}
	b.rows.spill = nil
	if s.file == nil {
		return nil
	}
	return s.file.Close()
}

// spillRows writes the rows in memory to the spill file and empties the
// pages, keeping the first for the rows to come.
func (b *Builder) spillRows() {
	s := b.rows.spill
	if s.err != nil {
		return
	}
	if s.file == nil && !s.discard {
		if s.file, s.err = NewRowSpill(s.dir); s.err != nil {
			return // Scan reports it; the rows stay in memory
		}
	}
	if n := b.g.len(); s.discard && n > len(s.df) {
		s.df = slices.Grow(s.df, n-len(s.df))[:n]
		s.tf = slices.Grow(s.tf, n-len(s.tf))[:n]
	}
	for _, ref := range b.rows.rows {
		row := b.rows.pages[ref.page][ref.lo:ref.hi]
		if !s.discard {
			if s.file.appendEntries(row) != nil {
				break // the file keeps the error for Scan
			}
			continue
		}
		for _, e := range row {
			s.df[e>>32]++
			s.tf[e>>32] += int64(uint32(e))
		}
	}
	s.rows += len(b.rows.rows)
	first := b.rows.pages[0][:0]
	clear(b.rows.pages)
	b.rows.pages, b.rows.rows = append(b.rows.pages[:0], first), b.rows.rows[:0]
	b.open = first
}

// spilledCounts adds the document frequencies and total counts of the
// spilled rows to df and tf, which are per node; either may be nil. The
// rows still in memory go to the file first, since they are about to be
// counted anyway and their pages can then hold the counts.
func (b *Builder) spilledCounts(df, tf []int64) {
	s := b.rows.spill
	if s == nil || s.rows == 0 {
		return
	}
	if s.discard {
		for node := range s.df {
			if df != nil {
				df[node] += s.df[node]
			}
			if tf != nil {
				tf[node] += s.tf[node]
			}
		}
		return
	}
	if len(b.rows.rows) > 0 {
		b.spillRows()
	}
	err := s.file.scanRaw(func(_ int, row []uint64) error {
		for _, e := range row {
			if df != nil {
				df[e>>32]++
			}
			if tf != nil {
				tf[e>>32] += int64(uint32(e))
			}
		}
		return nil
	})
	if err != nil {
		s.file.err = err // Scan reports it
	}
}

// rowsInMemory reports shards that have spilled rows.
func rowsInMemory(shards []*Builder) error {
	for k, b := range shards {
		if b.Spilled() {
			return fmt.Errorf("%w: shard %d spills its rows to a file: read them with Prune and Pruned.Scan", ErrConfig, k)
		}
	}
	return nil
}

// Scan calls fn with every document's row, in document order, as Row
// gives it: the kept terms (provisional ids) and their counts, in buffers
// that the next call reuses. Unlike Row it also reads rows that builders
// spilled to files (Builder.SpillRows), and it reads them in one
// sequential pass. It stops at fn's first error and returns it.
func (p *Pruned) Scan(fn func(i int, idx []int32, val []float64) error) error {
	var idx []int32
	var val []float64
	for k, b := range p.shards {
		if s := b.rows.spill; s != nil && s.err != nil {
			return s.err
		} else if s != nil && s.discard && s.rows > 0 {
			return fmt.Errorf("%w: shard %d discarded its rows (DiscardRows)", ErrConfig, k)
		}
		start, inFile := p.starts[k], b.rows.spilledRows()
		if inFile > 0 {
			err := b.rows.spill.file.scanRaw(func(r int, row []uint64) error {
				idx, val = p.appendRow(k, row, idx[:0], val[:0])
				return fn(start+r, idx, val)
			})
			if err != nil {
				return err
			}
		}
		for r := inFile; r < b.Rows(); r++ {
			idx, val = p.appendRow(k, b.rows.row(r), idx[:0], val[:0])
			if err := fn(start+r, idx, val); err != nil {
				return err
			}
		}
	}
	return nil
}
