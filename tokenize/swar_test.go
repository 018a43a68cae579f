package tokenize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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
			word, upper, join := wordBytes(x), upperBytes(x), joinBytes(x)
			if got, want := packBits(word), packWant(word); got != want {
				t.Fatalf("packBits(%#016x) = %#x, want %#x", word, got, want)
			}
			for k := range 8 {
				c := byte(x >> (8 * k))
				if got, want := word>>(8*k)&0xff, lane(asciiKind[c] == wordByte); got != want {
					t.Fatalf("wordBytes lane %d of %#016x = %#x, want %#x", k, x, got, want)
				}
				// A borrow may mark c^1 after a connector (see joinBytes).
				prev := byte(0)
				if k > 0 {
					prev = byte(x >> (8 * (k - 1)))
				}
				borrow := k > 0 && asciiKind[prev] == joinByte && asciiKind[c^1] == joinByte
				if got, want := join>>(8*k)&0xff, lane(asciiKind[c] == joinByte); got != want && !(borrow && c < 0x80) {
					t.Fatalf("joinBytes lane %d of %#016x = %#x, want %#x", k, x, got, want)
				}
				if got, want := upper>>(8*k)&0xff, lane(isUpper(c)); got != want {
					t.Fatalf("upperBytes lane %d of %#016x = %#x, want %#x", k, x, got, want)
				}
			}
		}
	}
}

// packWant gathers the lanes' high bits one at a time.
func packWant(m uint64) uint64 {
	var out uint64
	for k := range 8 {
		out |= m >> (8*k + 7) & 1 << k
	}
	return out
}

func lane(b bool) uint64 {
	if b {
		return 0x80
	}
	return 0
}

// TestASCIIFastPath checks that the fast path, which marks word bytes 64 at
// a time, cuts exactly the words that the rune-at-a-time tokenizer cuts, on
// random text made of the bytes that matter to it: word bytes, connectors,
// separators, upper case, non-ASCII letters and invalid UTF-8. A third of
// the texts run to a few hundred bytes and hold only ASCII up to a random
// point past the first 64 bytes, so that words cross the 64-byte blocks and
// the fast path stops at a non-ASCII byte in any of them; another third
// are long and mostly ASCII, so that the fast path takes the text back
// after each non-ASCII stretch.
// Where the fast path hands text to the slow one (lastBreak, of the ASCII
// text before a non-ASCII byte) and takes it back (resumeAt): comparing the
// two paths' terms cannot tell, since both give the same terms wherever
// they cut.
func TestHandOverPoints(t *testing.T) {
	for _, c := range []struct {
		ascii string
		want  int
	}{{"", 0}, {"abc", 0}, {"ab cd", 2}, {"ab cd ", 5}, {"ab-cd", 0} /* a connector is no break */, {" ab", 0}} {
		if got := lastBreak(c.ascii); got != c.want {
			t.Errorf("lastBreak(%q) = %d, want %d", c.ascii, got, c.want)
		}
	}
	run := " " + strings.Repeat("x", resumeRun-1) // a break and enough ASCII after it to resume
	for _, c := range []struct {
		text string
		want int
	}{
		{"’" + run, len("’")},
		{"’" + run[:resumeRun-1], len("’" + run[:resumeRun-1])}, // one byte short
		{"’ ab ’" + run, len("’ ab ’")},                         // the run after the second quote
		{"’" + run[1:] + "x", len("’" + run[1:] + "x")},         // no break at all
		{"é" + run[1:] + run, len("é" + run[1:])},               // a break inside ASCII text
	} {
		if got := resumeAt(c.text); got != c.want {
			t.Errorf("resumeAt(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

func TestASCIIFastPath(t *testing.T) {
	pieces := []string{"a", "Z", "q", "7", "_", " ", "  ", "\n", ".", "-", "'", "@", "!", "é", "中", "\xff", "ab", "Cd", "I\u0307", "\u0301", "<", "\u0338"}
	configs := []Config{{}, {SplitCompounds: true}, {KeepCase: true}, {MinLen: 1}, {MinLen: 3}, {Stopwords: EnglishStopwords},
		{Stem: true}, {Stem: true, KeepCase: true}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, cfg := range configs {
		a := testAnalyzer(cfg, nil)
		for range 3000 {
			var b strings.Builder
			n, ascii, sparse := 40, 0, false // pieces, bytes before the first non-ASCII one, non-ASCII rare
			switch rng.IntN(3) {
			case 0:
				n, ascii = 300, 64+rng.IntN(400)
			case 1:
				n, sparse = 1500, true
			}
			for range rng.IntN(n) {
				p := pieces[rng.IntN(len(pieces))]
				for (b.Len() < ascii || sparse && rng.IntN(30) > 0) && p[0] >= utf8.RuneSelf {
					p = pieces[rng.IntN(len(pieces))]
				}
				b.WriteString(p)
			}
			checkFastPath(t, a, cfg, b.String())
		}
		for _, text := range blockEdgeTexts() {
			checkFastPath(t, a, cfg, text)
		}
	}
}

// blockEdgeTexts are texts whose words meet the fast path's 64-byte blocks
// or its hand-overs to the slow path in ways random pieces rarely do: a word
// filling whole blocks; a word ending on a block's last byte, a block
// without words, then a word on the next block's first byte; an ASCII
// character that a mark after it composes with; a short ASCII run between
// Han text; each also with a non-ASCII letter after it.
func blockEdgeTexts() []string {
	texts := []string{
		strings.Repeat("x", 200),
		" " + strings.Repeat("x", 130) + " y",
		strings.Repeat(" ", 61) + "abc" + strings.Repeat(" ", 64) + "de fg",
		strings.Repeat(" ", 62) + "ab" + strings.Repeat(".", 64) + "cd",
		strings.Repeat("x", 64) + " " + strings.Repeat("y", 63),
		"ab<\u0338cd", "x <\u0338 y", // NFKC composes '<' and U+0338 into '≮', a separator
		"中" + strings.Repeat("a", 63) + " 中" + strings.Repeat("b", 70),
	}
	for _, s := range texts { // the slice as it was: range evaluates it once
		texts = append(texts, s+"é", s+"-é")
	}
	return texts
}

// checkFastPath compares the terms of text with those of the rune-at-a-time
// path.
func checkFastPath(t *testing.T, a *Analyzer, cfg Config, text string) {
	t.Helper()
	got := a.Terms(nil, text)
	if want := slowTerms(a, text); !slices.Equal(got, want) {
		t.Fatalf("%+v: Terms(%q) = %q, rune at a time %q", cfg, text, got, want)
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
		if got, _ := lowerASCII(nil, s, 0); got != string(want) {
			t.Errorf("lowerASCII(%q) = %q, want %q", s, got, want)
		}
	}
}

// Kinds of byte for the ASCII fast path's classifiers (asciiKind), as the
// rune-at-a-time tokenizer sees them.
const (
	otherByte = iota // an ASCII separator, or a byte ≥ 0x80
	wordByte         // an ASCII word character: [A-Za-z0-9_]
	joinByte         // an ASCII connector (isConnector)
)

var asciiKind = func() (t [256]uint8) {
	for c := range utf8.RuneSelf {
		switch {
		case asciiClass[c] != sepRune:
			t[c] = wordByte
		case isConnector[c]:
			t[c] = joinByte
		}
	}
	return t
}()
