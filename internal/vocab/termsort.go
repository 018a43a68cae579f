package vocab

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strings"
)

// sortKey holds a term's first 16 bytes, big-endian and zero-padded, and
// its length, which together order and identify terms of up to 16 bytes.
type sortKey struct {
	hi, lo uint64
	id, n  int32
}

func newSortKey(t string, id int32) sortKey {
	// A copy into a zeroed array pads short terms at the cost of one small
	// move, where padding byte by byte took three times as long.
	var b [16]byte
	copy(b[:], t)
	return sortKey{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]), id, int32(min(len(t), math.MaxInt32))}
}

// comparePrefix orders two terms by their keys. tie reports that both
// exceed 16 bytes and share the first 16, so only the terms can decide. (If
// just one is that short, it is a prefix of the other and sorts first.)
func comparePrefix(x, y *sortKey) (c int, tie bool) {
	if c := cmp.Compare(x.hi, y.hi); c != 0 {
		return c, false
	}
	if c := cmp.Compare(x.lo, y.lo); c != 0 {
		return c, false
	}
	if x.n <= 16 || y.n <= 16 {
		return cmp.Compare(x.n, y.n), false
	}
	return 0, true
}

// sortByTerm returns the positions of terms in term order (byte order,
// which is also Python's code point order).
func sortByTerm(terms []string) []int32 {
	pos := make([]int32, len(terms))
	for i, k := range sortKeys(terms) {
		pos[i] = k.id
	}
	return pos
}

// sortKeys returns the keys of terms, whose ids are their positions, in
// term order. It radix-sorts by the first 8 bytes, then each run of equal
// first bytes by the next 8, and compares the terms themselves only within
// runs of equal 16-byte prefixes.
func sortKeys(terms []string) []sortKey {
	keys := make([]sortKey, len(terms))
	for i, t := range terms {
		keys[i] = newSortKey(t, int32(i))
	}
	tmp := make([]sortKey, len(keys))
	radixSort(keys, tmp)
	forRuns(keys, func(run []sortKey, at int) {
		swapHalves(run) // radixSort sorts by hi
		radixSort(run, tmp[at:])
		forRuns(run, func(run []sortKey, _ int) {
			slices.SortFunc(run, func(x, y sortKey) int {
				if c, tie := comparePrefix(&x, &y); !tie {
					return c
				}
				return strings.Compare(terms[x.id], terms[y.id])
			})
		})
		swapHalves(run)
	})
	return keys
}

func swapHalves(keys []sortKey) {
	for i := range keys {
		keys[i].hi, keys[i].lo = keys[i].lo, keys[i].hi
	}
}

// forRuns calls f on every run of at least two keys with equal hi, giving
// its offset.
func forRuns(keys []sortKey, f func(run []sortKey, at int)) {
	for lo := 0; lo < len(keys); {
		hi := lo + 1
		for hi < len(keys) && keys[hi].hi == keys[lo].hi {
			hi++
		}
		if hi-lo > 1 {
			f(keys[lo:hi], lo)
		}
		lo = hi
	}
}

// radixSort sorts keys by hi: least significant digit first, 11 bits at a
// time, skipping digits that are the same in every key. Small inputs use a
// comparison sort.
func radixSort(keys, tmp []sortKey) {
	if len(keys) < 256 {
		slices.SortFunc(keys, func(x, y sortKey) int { return cmp.Compare(x.hi, y.hi) })
		return
	}
	const digit, passes, mask = 11, 6, 1<<11 - 1
	var count [passes][1 << digit]int
	for i := range keys {
		for p := range passes {
			count[p][keys[i].hi>>(p*digit)&mask]++
		}
	}
	src, dst := keys, tmp[:len(keys)]
	for p := range passes {
		c := &count[p]
		if c[keys[0].hi>>(p*digit)&mask] == len(keys) {
			continue
		}
		sum := 0
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		for i := range src {
			d := src[i].hi >> (p * digit) & mask
			dst[c[d]] = src[i]
			c[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
