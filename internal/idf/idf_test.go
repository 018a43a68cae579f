package idf

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/sparse"
)

// A wide vocabulary's weights come from a table of the small document
// frequencies: each must equal the weight of its column fitted alone, and a
// bad frequency must still be reported.
func TestWide(t *testing.T) {
	const n = 3000
	r := rand.New(rand.NewPCG(5, 6))
	df := make([]int64, 5*smallDF)
	for j := range df {
		df[j] = int64(r.IntN(n + 1))
		if j%3 == 0 {
			df[j] = int64(r.IntN(smallDF + 2)) // around the table's end
		}
	}
	for name, fit := range map[string]func(int, []int64) ([]float64, error){
		"tfidf":          func(n int, df []int64) ([]float64, error) { return TFIDF(n, df, true) },
		"tfidf unsmooth": func(n int, df []int64) ([]float64, error) { return TFIDF(n, df, false) },
		"rennie":         Rennie,
	} {
		got, err := fit(n, df)
		if err != nil {
			t.Fatal(err)
		}
		for j, d := range df {
			want, err := fit(n, []int64{d})
			if err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(got[j]) != math.Float64bits(want[0]) {
				t.Fatalf("%s: column %d (df %d) weighs %v, alone %v", name, j, d, got[j], want[0])
			}
		}
		bad := slices.Clone(df)
		bad[len(bad)/2] = n + 1
		if _, err := fit(n, bad); !errors.Is(err, sparse.ErrShape) {
			t.Errorf("%s: df above the rows: %v, want ErrShape", name, err)
		}
	}
	for _, bad := range []struct {
		n  int
		df []int64
	}{{0, nil}, {3, []int64{4}}, {3, []int64{-1}}} {
		if _, err := TFIDF(bad.n, bad.df, true); !errors.Is(err, sparse.ErrShape) {
			t.Errorf("TFIDF(%d, %v): %v, want ErrShape", bad.n, bad.df, err)
		}
	}
}
