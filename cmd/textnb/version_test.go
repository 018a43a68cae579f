package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestCLIVersion(t *testing.T) {
	out := mustRun(t, "", "version")
	if !strings.HasPrefix(out, "textnb ") || !strings.HasSuffix(out, " "+runtime.Version()+"\n") {
		t.Errorf("version: %q", out)
	}
	var v buildInfo
	if err := json.Unmarshal([]byte(mustRun(t, "", "version", "--json")), &v); err != nil || v.Go != runtime.Version() || v.Version == "" {
		t.Errorf("version --json: %+v, %v", v, err)
	}
	mustFail(t, 2, []string{"no arguments"}, "version", "extra")
	got := buildInfo{Version: "v1.2.0", Revision: "abc123", Time: "2026-11-26T11:05:35Z", Modified: true, Go: "go1.26.8"}.String()
	if want := "textnb v1.2.0 revision abc123 (modified) 2026-11-26T11:05:35Z go1.26.8"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestCLIProgressNotTerminal: with standard error not a terminal, train
// and eval show no progress, and --quiet is accepted.
func TestCLIProgressNotTerminal(t *testing.T) {
	model := t.TempDir() + "/m.model"
	for _, args := range [][]string{
		{"train", newsTrain, "-o", model},
		{"eval", "-m", model, newsTest},
		{"train", "--quiet", newsTrain, "-o", model},
		{"eval", "--quiet", "-m", model, newsTest},
	} {
		if _, errOut, code := textnb(t, "", args...); code != 0 || errOut != "" {
			t.Errorf("textnb %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
		}
	}
}
