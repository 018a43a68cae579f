package sparse

import "slices"

// RadixSort8 sorts non-negative keys by their bits from bit from up: an 8-bit
// radix sort with as many passes as the largest key needs, which beats a
// comparison sort's mispredicted branches on rows of a few hundred entries.
// tmp must be as long as keys. Short inputs use a comparison sort.
func RadixSort8[T int32 | uint64](keys, tmp []T, from int) {
	if len(keys) < 64 {
		slices.Sort(keys)
		return
	}
	var or T
	for _, k := range keys {
		or |= k
	}
	src, dst := keys, tmp[:len(keys)]
	for shift := from; shift < 64 && or>>shift != 0; shift += 8 {
		var count [256]int
		for _, k := range src {
			count[k>>shift&0xff]++
		}
		sum := 0
		for d := range count {
			count[d], sum = sum, sum+count[d]
		}
		for _, k := range src {
			d := k >> shift & 0xff
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}

// CountRuns sorts idx[start:] and replaces each run of equal ids by one id,
// appending the run length to val. Its scratch space is idx's own spare
// capacity, so it allocates only while the caller's buffer grows.
func CountRuns(idx []int32, val []float64, start int) ([]int32, []float64) {
	n := len(idx) - start
	idx = slices.Grow(idx, n)
	RadixSort8(idx[start:], idx[len(idx):len(idx)+n], 0)
	seg := idx[start:]
	w := start
	for r := 0; r < len(seg); {
		id, n := seg[r], 1
		for r++; r < len(seg) && seg[r] == id; r++ {
			n++
		}
		idx[w] = id
		val = append(val, float64(n))
		w++
	}
	return idx[:w], val
}
