// Package featurehash is the hashing vectorizer behind vectorize.Hashing
// (scikit-learn's HashingVectorizer), with the fast paths only textnb's
// own packages use: TransformWords and TransformWordsFrom hash a
// document's word n-grams without joining them, into scratch space the
// caller keeps. Transform of the joined n-grams is their reference, and
// the tests compare the two.
//
// vectorize.Hashing has the fields of Hashing and converts to it.
package featurehash

import (
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/sparse"
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
		h = murmurBlock(h, uint32(data[i])|uint32(data[i+1])<<8|uint32(data[i+2])<<16|uint32(data[i+3])<<24)
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
	return murmurFinish(h, n)
}

func murmurBlock(h, k uint32) uint32 {
	h ^= murmurMix(k)
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func murmurFinish(h uint32, n int) uint32 {
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}

func murmurMix(k uint32) uint32 {
	k *= murmurC1
	k = bits.RotateLeft32(k, 15)
	return k * murmurC2
}

// DefaultFeatures is the number of hashing columns when Features is 0.
const DefaultFeatures = 1 << 20 // vectorize.DefaultHashFeatures

// Hashing is scikit-learn's HashingVectorizer (norm=None) over given terms:
// term t goes to column |h| mod Features where h is murmurhash3_32 of its
// UTF-8 bytes with seed 0 read as a signed int32. It has no state, so
// models hashed apart share their columns. The zero value uses 2^20 columns
// and non-negative counts, as naive Bayes requires.
type Hashing struct {
	// Features is the number of columns; 0 means DefaultFeatures.
	Features int
	// AlternateSign counts a term −1 instead of +1 when h < 0 (scikit-learn's
	// default, off here). Colliding terms may then cancel to a stored 0,
	// which scikit-learn keeps too.
	AlternateSign bool
}

// Cols returns the number of columns, resolving the default.
func (h Hashing) Cols() int {
	if h.Features == 0 {
		return DefaultFeatures
	}
	return h.Features
}

// Valid reports whether Features is in [0, MaxInt32].
func (h Hashing) Valid() bool { return h.Features >= 0 && h.Features <= math.MaxInt32 }

// Column returns term's column and sign (+1, or −1 when AlternateSign and the
// hash is negative). An invalid Features (see Valid) is treated as 0.
func (h Hashing) Column(term string) (int32, float64) {
	return columnOf(murmur3(term, 0), h.modulus(), h.AlternateSign)
}

func (h Hashing) modulus() int64 {
	if !h.Valid() {
		return DefaultFeatures
	}
	return int64(h.Cols())
}

// columnOf returns the column of a term with murmur3 hash x among n, and
// its sign.
func columnOf(x uint32, n int64, alternate bool) (int32, float64) {
	s := int32(x)
	// int64 makes |MinInt32| exact: scikit-learn special-cases it to the
	// same value, 2^31 mod n.
	col := int32(abs64(int64(s)) % n)
	if alternate && s < 0 {
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
	hp := hashPool.Get().(*[]uint32)
	idx, val, *hp = h.TransformWords(idx, val, *hp, nil, ngrams.Range{}, terms) // terms are TransformWords' extra terms
	hashPool.Put(hp)
	return idx, val
}

// TransformWords is Transform of the n-grams of words with lengths in r
// followed by extra (see vocab.Builder.AddWords). It hashes each n-gram as
// its words joined by spaces, without joining them: the hash of "a b" goes
// on from the hash of "a". hashes is scratch space, returned for reuse.
func (h Hashing) TransformWords(idx []int32, val []float64, hashes []uint32, words []string, r ngrams.Range, extra []string) ([]int32, []float64, []uint32) {
	return h.TransformWordsFrom(idx, val, hashes, words, 0, r, extra)
}

// TransformWordsFrom is TransformWords of a piece of a document: only the
// n-grams that end in words[from:] count, words[:from] being the last words
// of the piece before. The rows of a document's pieces, summed, are the
// row of the whole document.
func (h Hashing) TransformWordsFrom(idx []int32, val []float64, hashes []uint32, words []string, from int, r ngrams.Range, extra []string) ([]int32, []float64, []uint32) {
	lo, hi := r.Bounds()
	hashes = hashes[:0]
	for i := max(0, from-hi+1); i < len(words); i++ { // the first word of an n-gram that counts
		var st murmurStream
		st.write(words[i])
		for n := 1; n <= hi && i+n <= len(words); n++ {
			if n > 1 {
				st.write(" ")
				st.write(words[i+n-1])
			}
			if n >= lo && i+n > from {
				hashes = append(hashes, st.sum())
			}
		}
	}
	for _, t := range extra {
		hashes = append(hashes, murmur3(t, 0))
	}
	idx, val = h.fromHashes(idx, val, hashes)
	return idx, val, hashes
}

// fromHashes appends the row of terms with murmur3 hashes hs.
func (h Hashing) fromHashes(idx []int32, val []float64, hs []uint32) ([]int32, []float64) {
	start, n := len(idx), h.modulus()
	if !h.AlternateSign {
		for _, x := range hs {
			c, _ := columnOf(x, n, false)
			idx = append(idx, c)
		}
		return sparse.CountRuns(idx, val, start)
	}
	// Signed values need (column, sign) pairs sorted together.
	kp := keyPool.Get().(*[]uint64)
	buf := slices.Grow((*kp)[:0], 2*len(hs))[:2*len(hs)]
	keys := buf[:len(hs)]
	for i, x := range hs {
		c, s := columnOf(x, n, true)
		keys[i] = uint64(c) << 1
		if s < 0 {
			keys[i] |= 1
		}
	}
	sparse.RadixSort8(keys, buf[len(hs):], 0)
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

var (
	keyPool  = sync.Pool{New: func() any { return new([]uint64) }}
	hashPool = sync.Pool{New: func() any { return new([]uint32) }}
)

// murmurStream hashes bytes given in pieces as murmur3 (seed 0) hashes
// their concatenation. Copying it forks the stream.
type murmurStream struct {
	h, tail uint32 // the hash so far; up to 3 bytes of an unfinished block
	nt, n   int    // bytes in tail; bytes written
}

func (m *murmurStream) write(s string) {
	m.n += len(s)
	i := 0
	if m.nt > 0 {
		for ; m.nt < 4 && i < len(s); i++ {
			m.tail |= uint32(s[i]) << (8 * m.nt)
			m.nt++
		}
		if m.nt < 4 {
			return
		}
		m.block(m.tail)
		m.tail, m.nt = 0, 0
	}
	for ; i+4 <= len(s); i += 4 {
		m.block(le32(s, i))
	}
	for ; i < len(s); i++ {
		m.tail |= uint32(s[i]) << (8 * m.nt)
		m.nt++
	}
}

func (m *murmurStream) block(k uint32) { m.h = murmurBlock(m.h, k) }

// sum returns the hash of everything written.
func (m murmurStream) sum() uint32 {
	h := m.h
	if m.nt > 0 {
		h ^= murmurMix(m.tail)
	}
	return murmurFinish(h, m.n)
}

func le32(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
