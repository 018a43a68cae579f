package tokenize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSWARMasks checks every lane of the eight-byte classifiers against the
// byte tables, for every pair of byte values side by side, so that no lane
// can carry into or borrow from its neighbour unnoticed.
func TestSWARMasks(t *testing.T) {
	for a := range 256 {
		for b := range 256 {
			var x uint64
			for k := range 8 {
				x |= uint64([2]int{a, b}[k%2]) << (8 * k)
			}
			word, upper := wordBytes(x), upperBytes(x)
			for k := range 8 {
				c := byte(x >> (8 * k))
				if got, want := word>>(8*k)&0xff, lane(asciiKind[c] == wordByte); got != want {
					t.Fatalf("wordBytes lane %d of %#016x = %#x, want %#x", k, x, got, want)
				}
				if got, want := upper>>(8*k)&0xff, lane(isUpper(c)); got != want {
					t.Fatalf("upperBytes lane %d of %#016x = %#x, want %#x", k, x, got, want)
				}
			}
		}
	}
}

func lane(b bool) uint64 {
	if b {
		return 0x80
	}
	return 0
}

// TestASCIIFastPath checks that the fast path, which scans eight bytes at a
// time, cuts exactly the words that the rune-at-a-time tokenizer cuts, on
// random text made of the bytes that matter to it: word bytes, connectors,
// separators, upper case, non-ASCII letters and invalid UTF-8.
func TestASCIIFastPath(t *testing.T) {
	pieces := []string{"a", "Z", "q", "7", "_", " ", "  ", "\n", ".", "-", "'", "@", "!", "é", "中", "\xff", "ab", "Cd", "I\u0307", "\u0301"}
	configs := []Config{{}, {SplitCompounds: true}, {KeepCase: true}, {MinLen: 1}, {MinLen: 3}, {Stopwords: EnglishStopwords},
		{Stem: true}, {Stem: true, KeepCase: true}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, cfg := range configs {
		a := NewWithSegmenter(cfg, nil)
		for range 3000 {
			var b strings.Builder
			for range rng.IntN(40) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := b.String()
			got := a.Terms(nil, text)
			if want := slowTerms(a, text); !slices.Equal(got, want) {
				t.Fatalf("%+v: Terms(%q) = %q, rune at a time %q", cfg, text, got, want)
			}
		}
	}
}

// slowTerms tokenizes text without the ASCII fast path.
func slowTerms(a *Analyzer, text string) []string {
	text = normalize(text)
	if !a.cfg.KeepCase {
		text = strings.ToLower(text)
	}
	return a.unicodeTerms(nil, new(state), text)
}

func TestLowerASCII(t *testing.T) {
	for _, s := range []string{"", "abc", "ABC", "Hello, World! 0123456789 ÀÉ", strings.Repeat("aB\xff@[`{", 9), "abcdefghijklmnoP"} {
		want := []byte(s)
		for i, c := range want {
			want[i] = lowerTable[c]
		}
		if got := lowerASCII(s); got != string(want) {
			t.Errorf("lowerASCII(%q) = %q, want %q", s, got, want)
		}
	}
}
