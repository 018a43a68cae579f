package vocab

import (
	"errors"
	"reflect"
	"testing"

	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/testkit"
)

func TestRemapColumnsWithMergedVocabularies(t *testing.T) {
	a, _ := NewVocabulary([]string{"a", "c", "e"})
	b, _ := NewVocabulary([]string{"b", "c", "f"})
	u, fa, _ := MergeVocabularies(a, b)
	XA := sparse.FromDense([][]float64{{1, 2, 3}, {0, 0, 4}})
	R, err := XA.RemapColumns(fa, u.Len())
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]float64{{1, 0, 2, 3, 0}, {0, 0, 0, 4, 0}}; !reflect.DeepEqual(denseOf(R), want) {
		t.Errorf("remapped = %v", denseOf(R))
	}
	if _, err := XA.RemapColumns(fa[:2], 5); !errors.Is(err, sparse.ErrShape) {
		t.Errorf("short map: %v", err)
	}
	if _, err := XA.RemapColumns([]int32{0, 1, 5}, 5); !errors.Is(err, sparse.ErrShape) {
		t.Errorf("map out of range: %v", err)
	}
	D, err := XA.RemapColumns([]int32{-1, 0, 1}, 2)
	if err != nil || !reflect.DeepEqual(denseOf(D), [][]float64{{2, 3}, {0, 4}}) {
		t.Errorf("drop = %v, %v", D, err)
	}
}

// denseOf returns m as dense rows.
func denseOf(m *sparse.CSR) [][]float64 { return testkit.Dense(m.Rows, m.Cols, m.Row) }
