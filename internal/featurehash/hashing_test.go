package featurehash

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/testkit"
)

func TestMurmur3Vectors(t *testing.T) {
	// Published MurmurHash3_x86_32 test vectors.
	cases := []struct {
		data string
		seed uint32
		want uint32
	}{
		{"", 0, 0},
		{"", 1, 0x514e28b7},
		{"", 0xffffffff, 0x81f16f39},
		{"\xff\xff\xff\xff", 0, 0x76293b50},
		{"\x21\x43\x65\x87", 0, 0xf55b516b},
		{"\x21\x43\x65\x87", 0x5082edee, 0x2362f9de},
		{"\x21\x43\x65", 0, 0x7e4a8634},
		{"\x21\x43", 0, 0xa0f7b07a},
		{"\x21", 0, 0x72661cf4},
		{"Hello, world!", 1234, 0xfaf6cdb3},
		{"The quick brown fox jumps over the lazy dog", 0x9747b28c, 0x2fa826cd},
	}
	for _, c := range cases {
		if got := Murmur3([]byte(c.data), c.seed); got != c.want {
			t.Errorf("Murmur3(%q, %#x) = %#x, want %#x", c.data, c.seed, got, c.want)
		}
		if got := Murmur3String(c.data, c.seed); got != c.want {
			t.Errorf("Murmur3String(%q, %#x) = %#x, want %#x", c.data, c.seed, got, c.want)
		}
	}
}

func TestHashingSumsAndSorts(t *testing.T) {
	h := Hashing{Features: 8}
	terms := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "a", "a"}
	idx, val := h.Transform([]int32{99}, []float64{-5}, terms)
	if idx[0] != 99 || val[0] != -5 {
		t.Fatal("Transform overwrote the caller's prefix")
	}
	idx, val = idx[1:], val[1:]
	if !slices.IsSorted(idx) || len(idx) != len(val) {
		t.Fatalf("row %v %v not sorted", idx, val)
	}
	want := make([]float64, 8)
	for _, term := range terms {
		c, s := h.Column(term)
		want[c] += s
	}
	total := 0.0
	for k, c := range idx {
		if val[k] != want[c] || k > 0 && idx[k-1] == c {
			t.Errorf("column %d = %g, want %g", c, val[k], want[c])
		}
		total += val[k]
	}
	if total != float64(len(terms)) {
		t.Errorf("counts sum to %g, want %d", total, len(terms))
	}
	if idx, val = h.Transform(nil, nil, nil); len(idx) != 0 || len(val) != 0 {
		t.Errorf("empty document gave %v %v", idx, val)
	}
}

// TestHashingAlternateSignCancels finds two terms in one column with
// opposite signs: like scikit-learn (sum_duplicates keeps explicit zeros),
// the entry stays with value 0.
func TestHashingAlternateSignCancels(t *testing.T) {
	h := Hashing{Features: 2, AlternateSign: true}
	var pos, neg string
	for i := 0; pos == "" || neg == ""; i++ {
		term := string(rune('a'+i%26)) + string(rune('a'+i/26))
		if c, s := h.Column(term); c == 0 && s > 0 && pos == "" {
			pos = term
		} else if c == 0 && s < 0 && neg == "" {
			neg = term
		}
	}
	idx, val := h.Transform(nil, nil, []string{pos, neg, neg})
	if !slices.Equal(idx, []int32{0}) || !slices.Equal(val, []float64{-1}) {
		t.Errorf("got %v %v, want [0] [-1]", idx, val)
	}
	idx, val = h.Transform(nil, nil, []string{neg, pos})
	if !slices.Equal(idx, []int32{0}) || !slices.Equal(val, []float64{0}) {
		t.Errorf("got %v %v, want a stored zero", idx, val)
	}
}

func TestHashingConfig(t *testing.T) {
	if (Hashing{}).Cols() != 1<<20 || (Hashing{Features: 5}).Cols() != 5 {
		t.Error("Cols")
	}
	for _, f := range []int{-1, math.MaxInt32 + 1} {
		h := Hashing{Features: f}
		if h.Valid() {
			t.Errorf("Valid(%d)", f)
		}
		// An invalid width falls back to the default instead of failing.
		if c, _ := h.Column("spam"); c != 1581447336%(1<<20) {
			t.Errorf("Column with invalid width = %d", c)
		}
	}
	if !(Hashing{Features: math.MaxInt32}).Valid() {
		t.Error("MaxInt32 features not valid")
	}
}

func TestHashingConcurrent(t *testing.T) {
	docs := testkit.ZipfDocs(9, 40, 50, 300)
	h := Hashing{Features: 1 << 10, AlternateSign: true}
	want := make([][]float64, len(docs))
	for i, d := range docs {
		_, want[i] = h.Transform(nil, nil, d)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			var idx []int32
			var val []float64
			for i, d := range docs {
				idx, val = h.Transform(idx[:0], val[:0], d)
				if !slices.Equal(val, want[i]) {
					t.Errorf("doc %d differs", i)
					return
				}
			}
		})
	}
	wg.Wait()
}

// Hashing n-grams from their words equals hashing the joined strings, for
// every split of the bytes into murmur3's 4-byte blocks.
func TestHashingTransformWords(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	alphabet := []string{"", "a", "ab", "abc", "abcd", "abcde", "naïve", "自然语言", "a b", "x"}
	for _, h := range []Hashing{{Features: 64}, {Features: 1 << 20, AlternateSign: true}} {
		var scratch []uint32
		for range 300 {
			var words, extra []string
			for range r.IntN(9) {
				words = append(words, alphabet[r.IntN(len(alphabet))])
			}
			if r.IntN(2) == 0 {
				extra = append(extra, alphabet[r.IntN(len(alphabet))])
			}
			ng := ngrams.Range{Min: 1 + r.IntN(2), Max: 1 + r.IntN(4)}
			lo, hi := ng.Bounds()
			wantIdx, wantVal := h.Transform(nil, nil, ngrams.Join(words, 0, lo, hi, extra))
			idx, val, s := h.TransformWords(nil, nil, scratch, words, ng, extra)
			scratch = s
			if !slices.Equal(idx, wantIdx) || !slices.Equal(val, wantVal) {
				t.Fatalf("%+v %q %v: TransformWords %v %v, Transform of joined %v %v", h, words, ng, idx, val, wantIdx, wantVal)
			}
		}
	}
	var st murmurStream
	for _, piece := range []string{"a", "bcdef", "", "gh", "ijklmnopq"} {
		st.write(piece)
	}
	if got, want := st.sum(), Murmur3String("abcdefghijklmnopq", 0); got != want {
		t.Errorf("streamed %08x, whole %08x", got, want)
	}
}
