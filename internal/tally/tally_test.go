package tally

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Ranked gives the order of an insertion sort (indices by decreasing
// value, ties by index) in O(n log n), for models of many labels, after
// what dst holds.
func TestRanked(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 300, 5000} {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(rng.IntN(50)) / 50 // many ties
		}
		var want []int
		for c := range v {
			want = append(want, c)
			for i := len(want) - 1; i > 0 && v[want[i]] > v[want[i-1]]; i-- {
				want[i], want[i-1] = want[i-1], want[i]
			}
		}
		for _, k := range []int{1, n / 2, n, n + 3} {
			if got := Ranked([]int{-1}, v, k); got[0] != -1 || !slices.Equal(got[1:], want[:min(k, n)]) {
				t.Errorf("n %d, k %d: Ranked differs from the insertion sort", n, k)
			}
		}
	}
}

func TestAtLeast(t *testing.T) {
	proba := []float64{0.2, 0.7, 0.5, 0.5, 0.1}
	if got := AtLeast([]int{9}, proba, 0.5); !slices.Equal(got, []int{9, 1, 2, 3}) {
		t.Errorf("AtLeast(0.5) = %v, want [9 1 2 3]", got)
	}
	if got := AtLeast(nil, proba, 0.8); len(got) != 0 {
		t.Errorf("AtLeast(0.8) = %v, want none", got)
	}
}
