package vocab

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/ngrams"
)

func TestRowSpillRoundTrip(t *testing.T) {
	s, err := NewRowSpill(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	long := make([]int32, 3<<20) // longer than the read buffer
	longVal := make([]float64, len(long))
	for i := range long {
		long[i], longVal[i] = int32(i*7), float64(i%1000)
	}
	rows := []struct {
		idx []int32
		val []float64
	}{
		{[]int32{5, 1, 1 << 30}, []float64{1, 2, 1<<32 - 1}},
		{nil, nil},
		{long, longVal},
		{[]int32{0}, []float64{0}},
	}
	for _, r := range rows {
		if err := s.Append(r.idx, r.val); err != nil {
			t.Fatal(err)
		}
	}
	for pass := range 2 { // a spill can be read more than once
		n := 0
		err := s.Scan(func(i int, idx []int32, val []float64) error {
			if i != n || !slices.Equal(idx, rows[i].idx) || !slices.Equal(val, rows[i].val) {
				t.Errorf("pass %d: row %d differs", pass, i)
			}
			n++
			return nil
		})
		if err != nil || n != len(rows) {
			t.Fatalf("pass %d: %d rows, %v", pass, n, err)
		}
	}
	stop := errors.New("stop")
	if err := s.Scan(func(int, []int32, []float64) error { return stop }); err != stop {
		t.Errorf("Scan returned %v, want fn's error", err)
	}
}

func TestRowSpillRejectsFractions(t *testing.T) {
	s, err := NewRowSpill(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, v := range []float64{0.5, -1, 1 << 33} {
		if err := s.Append([]int32{1}, []float64{v}); !errors.Is(err, ErrSpill) {
			t.Errorf("value %g: got %v, want ErrSpill", v, err)
		}
	}
	if err := s.Append([]int32{-1}, []float64{1}); !errors.Is(err, ErrSpill) {
		t.Errorf("column -1: got %v, want ErrSpill", err)
	}
}

func TestSpilledBuilderScansAsRows(t *testing.T) {
	docs := []string{"a b c a", "b b d", "", "e a c", "c c c f a", "g"}
	build := func(spill bool) (*Builder, *Pruned) {
		b := NewBuilder()
		if spill {
			b.SpillRows(t.TempDir(), 1)
		}
		for _, d := range docs {
			b.AddWords(strings.Fields(d), ngrams.Range{Min: 1, Max: 2}, nil)
		}
		c, err := Merge(b)
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Prune(Config{MinDF: 2, MaxFeatures: 3})
		if err != nil {
			t.Fatal(err)
		}
		return b, p
	}
	mem, want := build(false)
	b, got := build(true)
	defer b.CloseSpill()
	if mem.Spilled() || !b.Spilled() {
		t.Fatalf("Spilled: %v without a spill, %v with one", mem.Spilled(), b.Spilled())
	}
	if !slices.Equal(want.DF(), got.DF()) || !slices.Equal(want.Provisional().Terms(), got.Provisional().Terms()) {
		t.Fatalf("terms %v df %v, want %v %v", got.Provisional().Terms(), got.DF(), want.Provisional().Terms(), want.DF())
	}
	n := 0
	err := got.Scan(func(i int, idx []int32, val []float64) error {
		wi, wv := want.Row(i, nil, nil)
		if i != n || !slices.Equal(idx, wi) || !slices.Equal(val, wv) {
			t.Errorf("row %d: %v %v, want %v %v", i, idx, val, wi, wv)
		}
		n++
		return nil
	})
	if err != nil || n != len(docs) {
		t.Fatalf("scanned %d rows, %v", n, err)
	}
	c, _ := Merge(b)
	if _, _, err := c.Finish(Config{}); !errors.Is(err, ErrConfig) {
		t.Errorf("Finish of a spilled builder: got %v, want ErrConfig", err)
	}
}
