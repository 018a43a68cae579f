package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// labelStats watches a training corpus's labels for the signs of swapped
// columns (text<TAB>label): nearly a class per document, or labels that
// read like text.
type labelStats struct {
	docs    int
	last    string
	classes map[string]bool
	texty   int    // classes whose label looks like text
	example string // the first of them, or the first class
}

func newLabelStats() *labelStats { return &labelStats{classes: map[string]bool{}} }

func (s *labelStats) add(label string) {
	s.docs++
	if (label == s.last && s.docs > 1) || s.classes[label] { // corpora often list a class's documents together
		s.last = label
		return
	}
	s.last = label
	s.classes[label] = true
	if s.example == "" {
		s.example = label
	}
	if looksLikeText(label) {
		if s.texty == 0 {
			s.example = label
		}
		s.texty++
	}
}

// looksLikeText reports whether a label is long or has many spaces, as
// class names seldom are.
func looksLikeText(label string) bool {
	return utf8.RuneCountInString(label) > 80 || strings.Count(label, " ") >= 4
}

// Classes beyond manyClasses that average under two documents each look
// like texts rather than classes.
const manyClasses = 20

// check stops a training whose labels look wrong, unless allowed.
func (s *labelStats) check(path string, allowed bool) error {
	k := len(s.classes)
	var why string
	switch {
	case allowed:
		return nil
	case k > manyClasses && 2*k > s.docs:
		why = fmt.Sprintf("%d classes for %d documents", k, s.docs)
	case s.texty > 0 && 2*s.texty > k:
		why = fmt.Sprintf("%d of the %d labels look like text", s.texty, k)
	default:
		return nil
	}
	return fmt.Errorf("%s: %s (such as %q): are the label and text columns swapped? "+
		"Lines are LABEL<TAB>TEXT, or name the columns in a header (--label-field, --text-field); "+
		"--allow-many-classes trains anyway", path, why, shorten(s.example, 40))
}

// shorten cuts s to n runes, marking the cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
