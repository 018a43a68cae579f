package vocab

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
	wantTerms, wantDense := naiveVocab(Config{}, docs)
	for _, n := range []int{1, 3} {
		shards := make([]*Builder, n)
		for k := range shards {
			shards[k] = NewBuilder()
			for _, d := range docs[k*len(docs)/n : (k+1)*len(docs)/n] {
				shards[k].Add(d)
			}
		}
		v, X, err := Finish(Config{}, shards...)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v.Terms(), wantTerms) {
			t.Fatalf("%d shards: terms differ", n)
		}
		got := denseOf(X)
		for i := range got {
			if !slices.Equal(got[i], wantDense[i]) {
				t.Fatalf("%d shards: row %d differs", n, i)
			}
		}
	}
}
