package zh

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeployedBinary builds testdata/deploy and runs it where no module
// cache, GOPATH or source tree exists. -trimpath matters: without it gse's
// recorded source paths point into this machine's module cache, so a
// file-based loader would still find its dictionary here.
func TestDeployedBinary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	bin := filepath.Join(t.TempDir(), "deploy")
	buildDeploy(t, goTool, bin)

	out, err := runIsolated(t, bin, "我爱北京天安门", "北京大学")
	if err != nil {
		t.Fatalf("deployed binary: %v\n%s", err, out)
	}
	if want := "我 爱 北京 天安门\n北京大学\n"; out != want {
		t.Errorf("deployed binary printed %q, want %q", out, want)
	}
}

// TestDeployedBinaryNoEmbed checks that the `ne` tag, which empties gse's
// embedded dictionaries, makes Load fail instead of segmenting silently
// into single characters.
func TestDeployedBinaryNoEmbed(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not found")
	}
	bin := filepath.Join(t.TempDir(), "deploy")
	buildDeploy(t, goTool, bin, "-tags", "ne")

	out, err := runIsolated(t, bin, "我爱北京天安门")
	if err == nil {
		t.Fatalf("binary built with -tags ne succeeded: %q", out)
	}
	if !strings.Contains(out, ErrEmptyDictionary.Error()) {
		t.Errorf("binary built with -tags ne printed %q, want %q", out, ErrEmptyDictionary)
	}
}

func buildDeploy(t *testing.T, goTool, bin string, flags ...string) {
	t.Helper()
	args := append([]string{"build", "-trimpath", "-o", bin}, flags...)
	cmd := exec.Command(goTool, append(args, "./testdata/deploy")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
}

// runIsolated runs bin in an empty directory with an environment that
// points HOME, GOPATH and GOMODCACHE at it.
func runIsolated(t *testing.T, bin string, args ...string) (string, error) {
	t.Helper()
	empty := t.TempDir()
	cmd := exec.Command(bin, args...)
	cmd.Dir = empty
	cmd.Env = []string{"HOME=" + empty, "GOPATH=" + empty, "GOMODCACHE=" + empty, "PATH=" + empty}
	out, err := cmd.CombinedOutput()
	return string(out), err
}
