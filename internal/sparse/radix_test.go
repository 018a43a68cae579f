package sparse

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRadixSort8(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, bound := range []int64{1, 200, 60000, 1 << 24, 1<<31 - 1} {
		for _, n := range []int{0, 5, 100, 1000} {
			ids := make([]int32, n)
			keys := make([]uint64, n)
			for i := range ids {
				ids[i] = int32(r.Int64N(bound))
				keys[i] = uint64(r.Int64N(bound))<<32 | uint64(r.Uint32())
			}
			want, wantKeys := slices.Clone(ids), slices.Clone(keys)
			slices.Sort(want)
			slices.Sort(wantKeys)
			RadixSort8(ids, make([]int32, n), 0)
			RadixSort8(keys, make([]uint64, n), 0)
			if !slices.Equal(ids, want) || !slices.Equal(keys, wantKeys) {
				t.Fatalf("bound %d, n %d: not sorted", bound, n)
			}
		}
	}
}
