package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/textnb/textnb/beam/internal/prismrun"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
)

// asMain makes the test binary textnb-beam itself, so that the launcher,
// and the workers it hosts, run this package's code.
const asMain = "TEXTNB_BEAM_AS_MAIN"

func TestMain(m *testing.M) {
	prismrun.Serve()
	if os.Getenv(asMain) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const testdata = "../../../testdata"

// command returns textnb-beam with args, as its own process.
func command(ctx context.Context, t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(os.Environ(), asMain+"=1")
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

func TestRefuses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.model")
	news := filepath.Join(testdata, "news/train")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", news, "-o", out, "--multi-label"}, "per-label thresholds"},
		{[]string{"train", news, "-o", out, "--reweight", "3"}, "reweighting rescores"},
		{[]string{"train", news, "-o", out, "--tune"}, "--tune cross-validates"},
		{[]string{"train", news}, "need INPUT... and -o MODEL"},
		{[]string{"train", filepath.Join(testdata, "README.md"), "-o", out}, "want a folder of class folders"},
		{[]string{"train", filepath.Join(testdata, "news/train/*/nothing*"), "-o", out}, "matches no file"},
		{[]string{"train", news, "-o", out, "--model", "gaussian"}, "numeric tables"},
		{[]string{"train", news, "-o", testdata}, "not a file a model may replace"},
		{[]string{"serve"}, "want the command train"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		b, err := command(ctx, t, tc.args...).CombinedOutput()
		cancel()
		if err == nil || !strings.Contains(string(b), tc.want) {
			t.Errorf("%q: %v, %s; want an error saying %q", tc.args, err, b, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q wrote a model", tc.args)
		}
	}
}

// TestPrismProcess submits textnb-beam train to Prism running as a process
// of its own, workers in the launcher's process (LOOPBACK), and checks
// that each model predicts every test document as the model of textnb
// train --fast with the same settings does.
func TestPrismProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Prism and textnb")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	dir := t.TempDir()
	prism, textnb := filepath.Join(dir, "prism"), filepath.Join(dir, "textnb")
	if err := prismrun.Build(ctx, "../..", prism); err != nil {
		t.Fatal(err)
	}
	build := exec.CommandContext(ctx, "go", "build", "-o", textnb, "./cmd/textnb")
	build.Dir = "../../.." // the main module, which has no Beam in its dependencies
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building textnb: %v\n%s", err, b)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		name, train, test string
		flags, beamFlags  []string
		// identical: one group summed in order, so textnb train's weights
		// bit for bit
		identical bool
	}
	runs := []run{
		{"folders", filepath.Join(testdata, "news/train"), filepath.Join(testdata, "news/test"), []string{"--lang", "en"}, nil, false},
		{"lines-hash-auto", filepath.Join(testdata, "spam.tsv"), filepath.Join(testdata, "spam.tsv"), []string{"--vectorizer", "hash", "--features", "4096"}, nil, true},
		{"folders-hash-one-group", filepath.Join(testdata, "news/train"), filepath.Join(testdata, "news/test"), []string{"--lang", "en", "--vectorizer", "hash"}, []string{"--groups", "1"}, true},
		{"folders-hash-groups", filepath.Join(testdata, "news/train"), filepath.Join(testdata, "news/test"), []string{"--lang", "en", "--vectorizer", "hash"}, []string{"--groups", "3"}, false},
	}
	// TEXTNB_20NG names the folder that holds 20news-bydate-train and -test
	// (not in CI: unit tests use testdata only).
	if root := os.Getenv("TEXTNB_20NG"); root != "" {
		runs = append(runs, run{"20newsgroups", filepath.Join(root, "20news-bydate-train"), filepath.Join(root, "20news-bydate-test"), []string{"--lang", "en"}, nil, false})
	}
	for _, tc := range runs {
		t.Run(tc.name, func(t *testing.T) {
			train := tc.train
			local, distributed := filepath.Join(dir, tc.name+".local"), filepath.Join(dir, tc.name+".beam")
			args := append([]string{"train", train, "-o", local, "--fast"}, tc.flags...)
			if b, err := exec.CommandContext(ctx, textnb, args...).CombinedOutput(); err != nil {
				t.Fatalf("textnb %q: %v\n%s", args, err, b)
			}
			res, err := prismrun.Run(ctx, prismrun.Job{
				Prism:    prism,
				Launcher: append([]string{self, "train", train, "-o", distributed, "--environment_type=LOOPBACK"}, append(tc.flags, tc.beamFlags...)...),
				Env:      []string{asMain + "=1", "TMPDIR=" + dir}, // the SDK leaves an empty file in TMPDIR
				Timeout:  10 * time.Minute,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Private {
				if !slices.Equal(res.Interfaces, []string{"lo"}) {
					t.Errorf("private namespace with interfaces %q, want only lo", res.Interfaces)
				}
			} else {
				t.Log("no private network namespace here: Prism listened on every interface (it has no flag for its address)")
			}
			var roles []string
			for _, p := range res.Procs {
				roles = append(roles, p.Role)
			}
			if !slices.Contains(roles, "prism") || !slices.Contains(roles, "launcher") {
				t.Errorf("processes %q", roles)
			}
			t.Logf("Beam on Prism's process: %.1fs (private network namespace: %v)", res.Wall.Seconds(), res.Private)
			a, b := load(t, distributed), load(t, local)
			samePredictions(t, a, b, tc.test)
			if tc.identical {
				sameWeights(t, a, b)
			}
		})
	}
}

func load(t *testing.T, path string) *pipeline.Model {
	t.Helper()
	m, err := pipeline.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// samePredictions checks that a and b have the same settings and give
// every document of path the same class.
func samePredictions(t *testing.T, a, b *pipeline.Model, path string) {
	t.Helper()
	if a.Config.Classifier != b.Config.Classifier || a.Config.Alpha != b.Config.Alpha || a.Config.Vectorizer != b.Config.Vectorizer ||
		a.Config.Tokenize.Lang != b.Config.Tokenize.Lang || a.NumFeatures() != b.NumFeatures() {
		t.Errorf("settings differ: Beam %v %g %v %v %d features, textnb %v %g %v %v %d features",
			a.Config.Classifier, a.Config.Alpha, a.Config.Vectorizer, a.Config.Tokenize.Lang, a.NumFeatures(),
			b.Config.Classifier, b.Config.Alpha, b.Config.Vectorizer, b.Config.Tokenize.Lang, b.NumFeatures())
	}
	pa, pb := a.NewPredictor(), b.NewPredictor()
	var n, same, rightA, rightB int
	_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		_, i := pa.Proba(nil, d.Text)
		_, j := pb.Proba(nil, d.Text)
		if a.Classes[i] != b.Classes[j] {
			t.Errorf("%s: %s by Beam, %s by textnb", d.Source, a.Classes[i], b.Classes[j])
		} else {
			same++
		}
		if a.Classes[i] == d.Label {
			rightA++
		}
		if b.Classes[j] == d.Label {
			rightB++
		}
		n++
		return nil
	})
	if err != nil || n < 10 {
		t.Fatalf("%d test documents, %v", n, err)
	}
	t.Logf("%s: %d of %d test documents predicted alike; accuracy %.4f (Beam), %.4f (textnb train)",
		path, same, n, float64(rightA)/float64(n), float64(rightB)/float64(n))
}

// sameWeights checks that a and b have the same classes, weights and
// biases, bit for bit.
func sameWeights(t *testing.T, a, b *pipeline.Model) {
	t.Helper()
	if !slices.Equal(a.Classes, b.Classes) {
		t.Fatalf("classes %q and %q", a.Classes, b.Classes)
	}
	for c := range a.Classes {
		wa, ba := a.ClassWeights(c)
		wb, bb := b.ClassWeights(c)
		if ba != bb || !slices.Equal(wa, wb) {
			t.Fatalf("class %s: weights differ from textnb train's", a.Classes[c])
		}
	}
}
