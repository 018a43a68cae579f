package numtable

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/textfile"
)

// Helpers as in package corpus's tests.

func write(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func errorMentions(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

func parseError(t *testing.T, err error, file string, line int, want error) {
	t.Helper()
	var pe *textfile.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v (%T), want a *ParseError", err, err)
	}
	if pe.File != file || pe.Line != line {
		t.Errorf("error at %s:%d, want %s:%d (%v)", pe.File, pe.Line, file, line, err)
	}
	errorMentions(t, err, fmt.Sprintf("%s:%d: ", file, line))
	if want != nil && !errors.Is(err, want) {
		t.Errorf("%v does not wrap %v", err, want)
	}
}

type errorCase struct {
	file, content string
	line          int
	want          error
	mentions      string
}

func checkErrorCases(t *testing.T, read func(path string) error, cases []errorCase) {
	t.Helper()
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			p := write(t, dir, c.file, c.content)
			err := read(p)
			parseError(t, err, p, c.line, c.want)
			errorMentions(t, err, c.mentions)
		})
	}
}
