package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

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
