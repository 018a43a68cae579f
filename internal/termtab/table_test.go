package termtab

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// testTerms returns distinct terms around the table's edge cases: empty,
// NUL bytes, 4, 8 and 9 bytes (inline keys and offsets), invalid UTF-8,
// long shared prefixes and a term longer than the tag's 255.
func testTerms() []string {
	terms := []string{"", "\x00", "\x00\x00", "a", "a\x00", "a\x00\x00\x00\x00\x00\x00\x00\x00", "abc", "abcd",
		"abcdefg", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefghijklmnop", "abcdefghijklmnop\x00",
		"abcdefghijklmnopq", "café", "cafe", "caf\xff", "自然语言", "北京大学", "ünïcödé",
		"\xff\xff\xff\xff\xff\xff\xff\xff\xff", strings.Repeat("long", 100), strings.Repeat("long", 100) + "!"}
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

func TestTable(t *testing.T) {
	terms := testTerms()
	var tab Table
	if id, ok := tab.Find("a"); ok || id != -1 {
		t.Fatalf("empty table: Find = %d, %v", id, ok)
	}
	for round := range 2 {
		for i, s := range terms {
			if id := tab.Intern(s); int(id) != i {
				t.Fatalf("round %d: Intern(%q) = %d, want %d", round, s, id, i)
			}
		}
	}
	if tab.Len() != len(terms) || !slices.Equal(tab.Strings(), terms) {
		t.Fatalf("table holds %d terms", tab.Len())
	}
	for i, s := range terms {
		if id, ok := tab.Find(s); !ok || int(id) != i || tab.Term(id) != s || tab.TermLen(id) != len(s) {
			t.Fatalf("Find(%q) = %d, %v, want %d", s, id, ok, i)
		}
	}
	// Doubling by rehashing the terms (as tables beyond 2^23 slots do)
	// finds the same ids.
	tab.double(false)
	for i, s := range terms {
		if id := tab.Intern(s); int(id) != i {
			t.Fatalf("after rehashing, Intern(%q) = %d, want %d", s, id, i)
		}
	}
	if id, ok := tab.Find("absent"); ok || id != -1 || tab.Len() != len(terms) {
		t.Errorf("Find of an absent term = %d, %v, and the table holds %d terms", id, ok, tab.Len())
	}
	if id := tab.Intern("absent"); int(id) != len(terms) || tab.Len() != len(terms)+1 {
		t.Errorf("a new term got id %d of %d", id, tab.Len())
	}
}

// craftedWords returns 256 distinct 16-byte words that collided under any
// seed with a linear rotate-and-xor hash: flipping bit 3 of byte k and bit
// 0 of byte 8+(k+4)%8 cancelled out.
func craftedWords() []string {
	var out []string
	for mask := range 256 {
		w := []byte("aaaaaaaadddddddd")
		for k := range 8 {
			if mask&(1<<k) != 0 {
				w[k] ^= 0x08
				w[8+(k+4)%8] ^= 0x01
			}
		}
		out = append(out, string(w))
	}
	return out
}

func TestCraftedWordsLeaveShortProbeRuns(t *testing.T) {
	words := craftedWords()
	var tab Table
	for _, w := range words {
		tab.Intern(w)
	}
	longest, run := 0, 0
	for _, sl := range append(tab.slots, tab.slots...) { // runs may wrap around
		if sl.tag == 0 {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	if longest > 64 {
		t.Errorf("a probe run of %d slots for %d crafted words", longest, len(words))
	}
}
