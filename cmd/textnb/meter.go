package main

import (
	"flag"
	"io"

	"github.com/textnb/textnb/internal/progress"
)

// quietFlag adds --quiet, which turns off the progress line.
func quietFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("quiet", false, "show no progress on standard error (shown only when it is a terminal)")
}

// newMeter returns a progress meter on stderr for reading path ("": a
// phase that reads nothing), or nil when quiet or when stderr is not a
// terminal. The size of path is summed on the side, as a large folder
// takes a while to list.
func newMeter(stderr io.Writer, label, path string, quiet bool) *progress.Meter {
	if quiet {
		return nil
	}
	m := progress.New(stderr, label, 0)
	if m != nil && path != "" {
		go func() { m.SetTotal(progress.Size(path)) }()
	}
	return m
}
