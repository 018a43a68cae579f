package vectorize

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Murmur3 returns MurmurHash3_x86_32 of data with seed, as scikit-learn's
// murmurhash3_32(positive=True).
func Murmur3(data []byte, seed uint32) uint32 { return murmur3(data, seed) }

// Murmur3String is Murmur3 of the UTF-8 bytes of s, without copying them.
func Murmur3String(s string, seed uint32) uint32 { return murmur3(s, seed) }

const (
	murmurC1 = 0xcc9e2d51
	murmurC2 = 0x1b873593
)

func murmur3[T string | []byte](data T, seed uint32) uint32 {
	h := seed
	n := len(data)
	i := 0
	for ; i+4 <= n; i += 4 {
		k := uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		h ^= murmurMix(k)
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	switch n - i {
	case 3:
		k ^= uint32(data[i+2]) << 16
		fallthrough
	case 2:
		k ^= uint32(data[i+1]) << 8
		fallthrough
	case 1:
		k ^= uint32(data[i])
		h ^= murmurMix(k)
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

func murmurMix(k uint32) uint32 {
	k *= murmurC1
	k = bits.RotateLeft32(k, 15)
	return k * murmurC2
}

// DefaultHashFeatures is the number of hashing columns when Features is 0.
const DefaultHashFeatures = 1 << 20

// Hashing is scikit-learn's HashingVectorizer (norm=None) over given terms:
// term t goes to column |h| mod Features where h is murmurhash3_32 of its
// UTF-8 bytes with seed 0 read as a signed int32. It has no state, so
// models hashed apart share their columns. The zero value uses 2^20 columns
// and non-negative counts, as naive Bayes requires.
type Hashing struct {
	// Features is the number of columns; 0 means DefaultHashFeatures.
	Features int
	// AlternateSign counts a term −1 instead of +1 when h < 0 (scikit-learn's
	// default, off here). Colliding terms may then cancel to a stored 0,
	// which scikit-learn keeps too.
	AlternateSign bool
}

// Cols returns the number of columns, resolving the default.
func (h Hashing) Cols() int {
	if h.Features == 0 {
		return DefaultHashFeatures
	}
	return h.Features
}

// Validate reports a Features value outside [0, MaxInt32].
func (h Hashing) Validate() error {
	if h.Features < 0 || h.Features > math.MaxInt32 {
		return fmt.Errorf("%w: %d hashing features (want 0 for the default or 1..%d)", ErrConfig, h.Features, math.MaxInt32)
	}
	return nil
}

// Column returns term's column and sign (+1, or −1 when AlternateSign and the
// hash is negative). An invalid Features (see Validate) is treated as 0.
func (h Hashing) Column(term string) (int32, float64) {
	return h.column(term, h.modulus())
}

func (h Hashing) modulus() int64 {
	if h.Validate() != nil {
		return DefaultHashFeatures
	}
	return int64(h.Cols())
}

func (h Hashing) column(term string, n int64) (int32, float64) {
	s := int32(murmur3(term, 0))
	// int64 makes |MinInt32| exact: scikit-learn special-cases it to the
	// same value, 2^31 mod n.
	col := int32(abs64(int64(s)) % n)
	if h.AlternateSign && s < 0 {
		return col, -1
	}
	return col, 1
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Transform appends one document's row to idx and val: sorted columns with
// the summed (signed) counts of its terms. Concurrent calls are safe.
func (h Hashing) Transform(idx []int32, val []float64, terms []string) ([]int32, []float64) {
	start, n := len(idx), h.modulus()
	if !h.AlternateSign {
		for _, t := range terms {
			c, _ := h.column(t, n)
			idx = append(idx, c)
		}
		return countRuns(idx, val, start)
	}
	// Signed values need (column, sign) pairs sorted together.
	kp := keyPool.Get().(*[]uint64)
	buf := slices.Grow((*kp)[:0], 2*len(terms))[:2*len(terms)]
	keys := buf[:len(terms)]
	for i, t := range terms {
		c, s := h.column(t, n)
		keys[i] = uint64(c) << 1
		if s < 0 {
			keys[i] |= 1
		}
	}
	radixSort8(keys, buf[len(terms):], 0)
	for r := 0; r < len(keys); {
		c, sum := int32(keys[r]>>1), 0.0
		for ; r < len(keys) && int32(keys[r]>>1) == c; r++ {
			sum += 1 - 2*float64(keys[r]&1)
		}
		idx = append(idx, c)
		val = append(val, sum)
	}
	*kp = buf
	keyPool.Put(kp)
	return idx, val
}

var keyPool = sync.Pool{New: func() any { return new([]uint64) }}
