// Package bench holds what the benchmark programs share: building textnb,
// unpacking data, and timing whole processes with their peak memory.
package bench

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/textnb/textnb/corpus"
)

// Shared returns the path of the shared data folder: $TEXTNB_SHARED, or
// ../shared from the repository root, or from the main checkout's root
// when this is a linked git worktree elsewhere.
func Shared() string {
	if s := os.Getenv("TEXTNB_SHARED"); s != "" {
		return s
	}
	s := filepath.Join(Root(), "..", "shared")
	if _, err := os.Stat(s); err != nil {
		out, err := exec.Command("git", "-C", Root(), "rev-parse", "--path-format=absolute", "--git-common-dir").Output()
		if common := strings.TrimSpace(string(out)); err == nil && common != "" {
			return filepath.Join(filepath.Dir(common), "..", "shared")
		}
	}
	return s
}

// Root returns the repository root (the module's folder), or "." if go
// cannot tell.
func Root() string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	mod := strings.TrimSpace(string(out))
	if err != nil || mod == "" || mod == os.DevNull { // outside a module
		return "."
	}
	return filepath.Dir(mod)
}

// Workdir makes a temporary folder and builds textnb into it, passing
// flags to go build; cleanup removes the folder. Errors end the program:
// this is for benchmarks.
func Workdir(prefix string, flags ...string) (dir, bin string, cleanup func()) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		log.Fatal(err)
	}
	cleanup = func() { os.RemoveAll(dir) }
	if bin, err = BuildTextnb(dir, flags...); err != nil {
		cleanup()
		log.Fatal(err)
	}
	return dir, bin, cleanup
}

// DefaultCache is where the benchmarks cache scikit-learn's results
// unless told otherwise: outside the repository, in the user's cache folder.
func DefaultCache() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "textnb-bench", "sklearn.json")
}

// Describe names the build of bin for a table's caption: its version line
// and the commit of the checkout it was built from, marked when the
// checkout had changes.
func Describe(bin string) string {
	v, _ := exec.Command(bin, "version").Output()
	s := strings.TrimSpace(string(v))
	if rev, err := exec.Command("git", "-C", Root(), "rev-parse", "--short", "HEAD").Output(); err == nil {
		s += "; checkout " + strings.TrimSpace(string(rev))
		if st, err := exec.Command("git", "-C", Root(), "status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)benchmarks").Output(); err == nil && len(st) > 0 {
			s += " (with uncommitted changes)"
		}
	}
	return s
}

// ReadSMS reads the SMS Spam Collection.
func ReadSMS() ([]corpus.Document, error) {
	tmp, err := os.MkdirTemp("", "textnb-sms-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	link, err := LinkSMS(tmp)
	if err != nil {
		return nil, err
	}
	return corpus.ReadAll(link, corpus.Options{})
}

// LinkSMS makes dir/sms.tsv a symbolic link to the SMS Spam Collection and
// returns its path: the file has no extension, and is read as TSV through
// a link that has one.
func LinkSMS(dir string) (string, error) {
	src, err := filepath.Abs(filepath.Join(Shared(), "data", "smsspamcollection", "SMSSpamCollection"))
	if err != nil {
		return "", err
	}
	link := filepath.Join(dir, "sms.tsv")
	return link, os.Symlink(src, link)
}

// Unpack20News unpacks the shared 20 Newsgroups archive into dir and
// returns the paths of its train and test folders.
func Unpack20News(dir string) (train, test string, err error) {
	archive := filepath.Join(Shared(), "data", "20news-bydate.tar.gz")
	if err := Untar(archive, dir); err != nil {
		return "", "", fmt.Errorf("unpack %s: %w", archive, err)
	}
	return filepath.Join(dir, "20news-bydate-train"), filepath.Join(dir, "20news-bydate-test"), nil
}

// BuildTextnb builds cmd/textnb into dir, with extra go build flags, and
// returns the binary's path.
func BuildTextnb(dir string, flags ...string) (string, error) {
	bin := filepath.Join(dir, "textnb")
	args := append(append([]string{"build"}, flags...), "-o", bin, "github.com/textnb/textnb/cmd/textnb")
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	return bin, cmd.Run()
}

// Untar unpacks a .tar.gz archive into dir.
func Untar(archive, dir string) error {
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(p, 0o755)
		case tar.TypeReg:
			err = writeFile(p, tr)
		}
		if err != nil {
			return err
		}
	}
}

func writeFile(p string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Result is one measured process.
type Result struct {
	Wall   time.Duration
	CPU    time.Duration // user and system time
	PeakKB int64         // maximum resident set size
	Stdout string
}

// Run runs a command to completion and measures it.
func Run(stdin []byte, name string, args ...string) (Result, error) {
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	start := time.Now()
	err := cmd.Run()
	r := Result{Wall: time.Since(start), Stdout: out.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.PeakKB = ru.Maxrss
		r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	if err != nil {
		return r, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, errb.String())
	}
	return r, nil
}

// HasSklearn reports whether python3 can import scikit-learn.
func HasSklearn(python string) bool {
	return exec.Command(python, "-c", "import sklearn").Run() == nil
}

// Python returns Debian's python3, where apt installs python3-sklearn.
func Python() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}

// Eval is what "textnb eval --json" prints.
type Eval struct {
	N        int     `json:"n"`
	Accuracy float64 `json:"accuracy"`
	MacroF1  float64 `json:"macro_f1"`
}

// TrainEval trains with textnb on train (extra flags in args), evaluates on
// test, and returns the evaluation with both processes' measurements.
func TrainEval(bin, model, train, test string, args []string) (Eval, Result, Result, error) {
	var e Eval
	tr, err := Run(nil, bin, append([]string{"train", train, "-o", model}, args...)...)
	if err != nil {
		return e, tr, Result{}, err
	}
	evalArgs := []string{"eval", "-m", model, "--json", test}
	for i, a := range args { // the column flags apply to eval too
		if (a == "--text-field" || a == "--label-field") && i+1 < len(args) {
			evalArgs = append(evalArgs, a, args[i+1])
		}
	}
	ev, err := Run(nil, bin, evalArgs...)
	if err != nil {
		return e, tr, ev, err
	}
	err = json.Unmarshal([]byte(ev.Stdout), &e)
	return e, tr, ev, err
}

// FirstPrediction measures a whole "textnb predict" process that loads
// model and classifies one line from standard input.
func FirstPrediction(bin, model, text string) (Result, error) {
	return Run([]byte(text+"\n"), bin, "predict", "-m", model, "-")
}

// Labels returns the labels of docs, in order, as the corpus splits take them.
func Labels(docs []corpus.Document) []string {
	labels := make([]string, len(docs))
	for i, d := range docs {
		labels[i] = d.Label
	}
	return labels
}

// Pick returns s[idx[0]], s[idx[1]], …: the items of a split, in its order.
func Pick[T any](s []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = s[j]
	}
	return out
}

// MiB formats a peak in KiB as MiB.
func MiB(kb int64) string { return fmt.Sprintf("%.0f", float64(kb)/1024) }
