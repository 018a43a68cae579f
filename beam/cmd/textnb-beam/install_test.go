package main

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestGoInstallLatest publishes this checkout's two modules, the main one
// and beam/, as a release would (the same version, beam/go.mod requiring
// it), on a module proxy in a temporary folder, and installs the command
// from it with `go install …@latest` outside any module, as a user would.
// It fails if beam/go.mod has a replace directive (go install refuses it)
// or requires a version of the main module that is not the one released
// with it.
func TestGoInstallLatest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds textnb-beam from a module proxy")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("no git checkout to publish: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "beam", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`(?m)^replace\b`).Match(gomod) {
		t.Fatal("beam/go.mod has a replace directive: go install …@latest refuses it (put it in beam/go.work)")
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/textnb/textnb (v\S+)`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("beam/go.mod does not require github.com/textnb/textnb")
	}
	version := string(m[1])

	proxy := t.TempDir()
	var mainFiles, beamFiles []string
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		if rest, ok := strings.CutPrefix(f, "beam/"); ok {
			beamFiles = append(beamFiles, rest)
		} else {
			mainFiles = append(mainFiles, f)
		}
	}
	publish(t, proxy, "github.com/textnb/textnb", version, root, mainFiles)
	publish(t, proxy, "github.com/textnb/textnb/beam", version, filepath.Join(root, "beam"), beamFiles)

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	bin, work := t.TempDir(), t.TempDir()
	goproxy, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	install := exec.CommandContext(ctx, "go", "install", "github.com/textnb/textnb/beam/cmd/textnb-beam@latest")
	install.Dir = work // outside any module or workspace
	install.Env = append(os.Environ(),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+strings.TrimSpace(string(goproxy)),
		"GONOSUMDB=github.com/textnb", // not in the checksum database: the proxy is this test's
		"GOWORK=off", "GOBIN="+bin, "GOFLAGS=-buildvcs=false")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install …@latest: %v\n%s", err, out)
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "textnb-beam"), "train")
	cmd.Stderr = &stderr
	err = cmd.Run()
	if _, ok := err.(*exec.ExitError); !ok || !strings.Contains(stderr.String(), "-o") {
		t.Fatalf("installed textnb-beam train without arguments: %v, stderr %q; want a usage error naming -o", err, stderr.String())
	}
}

// publish writes module path at version, made of files under dir, to the
// file-system module proxy at proxy (GOPROXY=file://…).
func publish(t *testing.T, proxy, path, version, dir string, files []string) {
	t.Helper()
	at := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := zip.NewWriter(&z)
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		fw, err := w.Create(path + "@" + version + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":"2026-12-01T00:00:00Z"}`, version)
	for name, b := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(info),
		version + ".mod":  mod,
		version + ".zip":  z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
