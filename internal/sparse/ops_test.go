package sparse

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
)

var opsDense = [][]float64{{1, 0, 2, 0}, {0, 0, 0, 0}, {3, 4, 0, 0.5}}

func TestColumnStats(t *testing.T) {
	X := FromDense(opsDense)
	if got := X.ColumnCounts(nil); !slices.Equal(got, []int{2, 1, 1, 1}) {
		t.Errorf("ColumnCounts = %v", got)
	}
	buf := []float64{9, 9, 9, 9, 9, 9}
	if got := X.ColumnSums(buf); !slices.Equal(got, []float64{4, 4, 2, 0.5}) || &got[0] != &buf[0] {
		t.Errorf("ColumnSums = %v (buffer reused: %v)", got, &got[0] == &buf[0])
	}
}

func TestCloneAndBinarize(t *testing.T) {
	X := FromDense(opsDense)
	C := X.Clone()
	C.Binarize(0.75)
	if err := C.Validate(); err != nil {
		t.Fatal(err)
	}
	if want := [][]float64{{1, 0, 1, 0}, {0, 0, 0, 0}, {1, 1, 0, 0}}; !reflect.DeepEqual(toDense(C), want) {
		t.Errorf("Binarize = %v", toDense(C))
	}
	if C.NNZ() != 4 || !reflect.DeepEqual(toDense(X), opsDense) {
		t.Errorf("nnz %d; clone shared storage with the original", C.NNZ())
	}
}

func TestSelectColumns(t *testing.T) {
	X := FromDense(opsDense)
	S, err := X.SelectColumns([]int32{3, 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := S.Validate(); err != nil {
		t.Fatal(err)
	}
	if want := [][]float64{{0, 1}, {0, 0}, {0.5, 3}}; !reflect.DeepEqual(toDense(S), want) {
		t.Errorf("SelectColumns = %v", toDense(S))
	}
	for _, bad := range [][]int32{{0, 0}, {4}, {-1}} {
		if _, err := X.SelectColumns(bad); !errors.Is(err, ErrShape) {
			t.Errorf("SelectColumns(%v): %v", bad, err)
		}
	}
}

// TestBinarizeDropsAcrossRows checks row pointers when entries are dropped
// from a row that is followed by others.
func TestBinarizeDropsAcrossRows(t *testing.T) {
	X := FromDense([][]float64{{1, 0.5, 2}, {3, 0, 1}, {0.1, 0.2, 0}, {5, 5, 5}})
	X.Binarize(0.7)
	if err := X.Validate(); err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{1, 0, 1}, {1, 0, 1}, {0, 0, 0}, {1, 1, 1}}
	if got := toDense(X); !reflect.DeepEqual(got, want) {
		t.Errorf("Binarize = %v, want %v", got, want)
	}
}

func TestStackRows(t *testing.T) {
	a := FromDense([][]float64{{1, 0, 2}, {0, 0, 0}})
	b := FromDense([][]float64{{0, 3, 0}})
	parts := []*CSR{a, NewCSR(3), b}
	X, err := StackRows(3, parts)
	if err != nil {
		t.Fatal(err)
	}
	want := FromDense([][]float64{{1, 0, 2}, {0, 0, 0}, {0, 3, 0}})
	if !slices.Equal(X.Indptr, want.Indptr) || !slices.Equal(X.Indices, want.Indices) || !slices.Equal(X.Data, want.Data) {
		t.Errorf("stacked %+v, want %+v", X, want)
	}
	if parts[0] != nil || parts[2] != nil {
		t.Error("parts not released")
	}
	if _, err := StackRows(2, []*CSR{FromDense([][]float64{{1, 2, 3}})}); !errors.Is(err, ErrShape) {
		t.Errorf("columns mismatch: %v", err)
	}
	if _, err := StackRows(3, []*CSR{nil}); !errors.Is(err, ErrShape) {
		t.Errorf("nil part: %v", err)
	}
}

// toDense returns m as dense rows.
func toDense(m *CSR) [][]float64 { return testkit.Dense(m.Rows, m.Cols, m.Row) }
