package vectorize

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// trickyTerms holds terms that differ only in padding-like zero bytes, in
// long shared prefixes, in bytes above 0x7f, and the empty term.
func trickyTerms() []string {
	terms := []string{"", "\x00", "\x00\x00", "a", "a\x00", "a\x00\x00\x00\x00\x00\x00\x00\x00",
		"ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnop\x00",
		"abcdefghijklmnopq", "abcdefghijklmnopr", "abcdefghijklmnopqrstuvwxyz", "café", "cafe", "caf\xff",
		"自然语言", "北京大学", "ünïcödé", "\xff\xff\xff\xff\xff\xff\xff\xff\xff"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		b := []byte("the same long prefix ")[:r.IntN(22)]
		for range r.IntN(20) {
			b = append(b, "ab\x00z\xff"[r.IntN(5)])
		}
		terms = append(terms, string(b))
	}
	slices.Sort(terms)
	return slices.Compact(terms)
}

func TestSortByTerm(t *testing.T) {
	want := trickyTerms()
	for _, n := range []int{len(want), 100, 3} {
		terms := slices.Clone(want[:n])
		rand.New(rand.NewPCG(3, 4)).Shuffle(len(terms), func(i, j int) { terms[i], terms[j] = terms[j], terms[i] })
		for i, id := range sortByTerm(terms) {
			if terms[id] != want[i] {
				t.Fatalf("n=%d: position %d is %q, want %q", n, i, terms[id], want[i])
			}
		}
	}
}

func TestVocabShardsTrickyTerms(t *testing.T) {
	terms := trickyTerms()
	docs := make([][]string, 40)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range docs {
		for range 200 {
			docs[i] = append(docs[i], terms[r.IntN(len(terms))])
		}
	}
	wantTerms, wantDense := naiveVocab(VocabConfig{}, docs)
	for _, n := range []int{1, 3} {
		shards := make([]*VocabBuilder, n)
		for k := range shards {
			shards[k] = NewVocabBuilder()
			for _, d := range docs[k*len(docs)/n : (k+1)*len(docs)/n] {
				shards[k].Add(d)
			}
		}
		v, X, err := FinishVocab(VocabConfig{}, shards...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v.Terms(), wantTerms) {
			t.Fatalf("%d shards: terms differ", n)
		}
		got := toDense(X)
		for i := range got {
			if !slices.Equal(got[i], wantDense[i]) {
				t.Fatalf("%d shards: row %d differs", n, i)
			}
		}
	}
}

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
			radixSort8(ids, make([]int32, n), 0)
			radixSort8(keys, make([]uint64, n), 0)
			if !slices.Equal(ids, want) || !slices.Equal(keys, wantKeys) {
				t.Fatalf("bound %d, n %d: not sorted", bound, n)
			}
		}
	}
}
