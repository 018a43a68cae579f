package termtab

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// testTerms returns distinct terms around the table's edge cases: every
// string of up to 7 bytes from "a", NUL and 0xff (lengths around the
// inline keys' 4-byte halves, which overlap from 5 to 7 bytes), 8, 9, 16
// and 17 bytes (inline keys and offsets), non-Latin text, and terms longer
// than the tag's 255.
func testTerms() []string {
	terms := []string{"a\x00\x00\x00\x00\x00\x00\x00\x00", "abcdefgh", "abcdefgh\x00", "abcdefghi",
		"abcdefghijklmnop", "abcdefghijklmnop\x00", "abcdefghijklmnopq", "café", "cafe", "caf\xff", "自然语言",
		"北京大学", "ünïcödé", "\xff\xff\xff\xff\xff\xff\xff\xff\xff", strings.Repeat("long", 100),
		strings.Repeat("long", 100) + "!"}
	short, level := []string{""}, []string{""}
	for range 7 {
		var next []string
		for _, s := range level {
			for _, c := range []string{"a", "\x00", "\xff"} {
				next = append(next, s+c)
			}
		}
		short, level = append(short, next...), next
	}
	terms = append(terms, short...)
	slices.Sort(terms)
	return slices.Compact(terms)
}

func TestTable(t *testing.T) {
	terms := testTerms()
	var tab Table
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
		if id := int32(i); tab.Term(id) != s || tab.TermLen(id) != len(s) {
			t.Fatalf("term %d is %q of length %d, want %q", i, tab.Term(id), tab.TermLen(id), s)
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
	if id := tab.Intern("absent"); int(id) != len(terms) || tab.Len() != len(terms)+1 {
		t.Errorf("a new term got id %d of %d", id, tab.Len())
	}
}

// Long terms that share their first and last 8 bytes, and short ones that
// differ in one byte, leave short probe runs: the hash spreads them.
func TestSimilarTermsLeaveShortProbeRuns(t *testing.T) {
	var tab Table
	n := 0
	for i := range 1 << 12 {
		long, short := tab.Intern(fmt.Sprintf("aaaaaaaa%04xdddddddd", i)), tab.Intern(fmt.Sprintf("w%03x", i))
		if int(long) != n || int(short) != n+1 {
			t.Fatalf("term %d: ids %d and %d, want %d and %d", i, long, short, n, n+1)
		}
		n += 2
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
	if tab.Len() != n || longest > 64 {
		t.Errorf("%d terms of %d, and a probe run of %d slots", tab.Len(), n, longest)
	}
}
