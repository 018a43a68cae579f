// Package textfiletest checks the parse errors of the packages that read
// text files through textfile. Only tests use it; it is apart from
// internal/testkit because it imports textfile, whose own tests use
// testkit.
package textfiletest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/internal/textfile"
)

// ParseError checks that err is a *textfile.ParseError at file:line
// wrapping want (if non-nil) and that its message names the file and line.
func ParseError(t testing.TB, err error, file string, line int, want error) {
	t.Helper()
	var pe *textfile.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v (%T), want a *ParseError", err, err)
	}
	if pe.File != file || pe.Line != line {
		t.Errorf("error at %s:%d, want %s:%d (%v)", pe.File, pe.Line, file, line, err)
	}
	testkit.ErrorMentions(t, err, fmt.Sprintf("%s:%d: ", file, line))
	if want != nil && !errors.Is(err, want) {
		t.Errorf("%v does not wrap %v", err, want)
	}
}

// An ErrorCase is a malformed file: reading it must fail at Line with a
// *textfile.ParseError wrapping Want (when set) whose message mentions
// Mentions. It is an unnamed struct type so that tables of cases can list
// them unkeyed, one line each.
type ErrorCase = struct {
	File, Content string
	Line          int
	Want          error
	Mentions      string
}

// CheckErrorCases writes each case's file to a temporary directory and
// checks the error read returns for it, in a subtest named after the file.
func CheckErrorCases(t *testing.T, read func(path string) error, cases []ErrorCase) {
	t.Helper()
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.File, func(t *testing.T) {
			p := testkit.Write(t, dir, c.File, c.Content)
			err := read(p)
			ParseError(t, err, p, c.Line, c.Want)
			testkit.ErrorMentions(t, err, c.Mentions)
		})
	}
}
