package compact

import (
	"errors"
	"math/rand/v2"

	"reflect"
	"testing"

	"github.com/textnb/textnb/nb"

	"github.com/textnb/textnb/vectorize"
)

func TestSparseCountsScanEqualsFunc(t *testing.T) {
	X := vectorize.FromDense([][]float64{
		{1, 0, 2, 0.5}, {0, 3, 0, 0}, {0.25, 0.125, 1, 0}, {0, 0, 0, 0}, {7, 0, 0, 1}, {0, 1, 1, 1},
	})
	y := []int{0, 1, 2, 0, 2, 1}
	scan := func(visit func(int, []int32, []float64) error) error {
		for i := range X.Rows {
			idx, val := X.Row(i)
			if err := visit(i, idx, val); err != nil {
				return err
			}
		}
		return nil
	}
	for _, binary := range []bool{false, true} {
		want, err := count(X, y, 3, binary, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		got, err := countScan(X.Cols, y, 3, binary, 0.5, scan)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("binary %v: scan counts %+v, want %+v", binary, got, want)
		}
	}
	short := func(visit func(int, []int32, []float64) error) error { return visit(0, nil, nil) }
	if _, err := countScan(X.Cols, y, 3, false, 0, short); !errors.Is(err, nb.ErrShape) {
		t.Errorf("too few rows: got %v, want nb.ErrShape", err)
	}
	bad := func(visit func(int, []int32, []float64) error) error {
		return visit(0, []int32{9}, []float64{1})
	}
	if _, err := countScan(X.Cols, y, 3, false, 0, bad); !errors.Is(err, nb.ErrShape) {
		t.Errorf("column out of range: got %v, want nb.ErrShape", err)
	}
	stop := errors.New("stop")
	failing := func(func(int, []int32, []float64) error) error { return stop }
	if _, err := countScan(X.Cols, y, 3, false, 0, failing); err != stop {
		t.Errorf("failing scan: got %v, want its error", err)
	}
}

// TestSparseCountsScanWide covers features over several of the blocks whose
// accumulator pages are released as the counts are laid out.
func TestSparseCountsScanWide(t *testing.T) {
	features, classes := 3*releaseBlock+17, 4
	rng := rand.New(rand.NewPCG(1, 2))
	var idx [][]int32
	var val [][]float64
	var y []int
	for i := range 200 {
		var ri []int32
		var rv []float64
		for _, j := range rng.Perm(features)[:300] {
			ri, rv = append(ri, int32(j)), append(rv, float64(1+rng.IntN(3)))
		}
		idx, val, y = append(idx, ri), append(val, rv), append(y, i%classes)
	}
	scan := func(visit func(int, []int32, []float64) error) error {
		for i := range idx {
			if err := visit(i, idx[i], val[i]); err != nil {
				return err
			}
		}
		return nil
	}
	row := func(i int, ri []int32, rv []float64) ([]int32, []float64) {
		return append(ri, idx[i]...), append(rv, val[i]...)
	}
	want, err := countRows(features, y, classes, false, 0, row)
	if err != nil {
		t.Fatal(err)
	}
	got, err := countScan(features, y, classes, false, 0, scan)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scan counts differ from countRows's: %d cells, want %d", len(got.Count), len(want.Count))
	}
}
