package vectorize

import "slices"

// radixSort8 sorts non-negative keys by their bits from bit from up: an 8-bit
// radix sort with as many passes as the largest key needs, which beats a
// comparison sort's mispredicted branches on rows of a few hundred entries.
// tmp must be as long as keys. Short inputs use a comparison sort.
func radixSort8[T int32 | uint64](keys, tmp []T, from int) {
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
