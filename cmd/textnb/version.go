package main

import (
	"flag"
	"fmt"
	"io"
	"runtime/debug"

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

// buildInfo is what textnb version prints.
type buildInfo struct {
	Version  string `json:"version"`            // the module's, "(devel)" for a build from a checkout
	Revision string `json:"revision,omitempty"` // VCS commit
	Time     string `json:"time,omitempty"`     // of the commit
	Modified bool   `json:"modified,omitempty"` // the checkout had changes
	Go       string `json:"go"`
}

func readBuildInfo() buildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return buildInfo{Version: "unknown"}
	}
	v := buildInfo{Version: bi.Main.Version, Go: bi.GoVersion}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("version", "version [--json]", stderr)
	asJSON := fs.Bool("json", false, "print the version as one JSON object")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: version takes no arguments", errUsage)
	}
	v := readBuildInfo()
	if *asJSON {
		return printJSON(stdout, v)
	}
	_, err = fmt.Fprintln(stdout, v)
	return err
}

func (v buildInfo) String() string {
	s := "textnb " + v.Version
	if v.Revision == "" {
		s += " (no VCS revision recorded: built with -buildvcs=false or outside a git checkout)"
	} else {
		s += " revision " + v.Revision
		if v.Modified {
			s += " (modified)"
		}
		if v.Time != "" {
			s += " " + v.Time
		}
	}
	return s + " " + v.Go
}
