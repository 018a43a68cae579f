package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/modelfile"
)

func TestHostileTextHeaders(t *testing.T) {
	models := tinyText(t)
	for _, tc := range []struct {
		name, model string
		edit        func(h map[string]any)
		detail      string
	}{
		// Issue 21.3: 4·(f+1) wrapped to 0 and made a slice of f+1.
		{"2^62 features, no IDF", "mnb-count", func(h map[string]any) { h["features"] = 4611686018427387903 }, "features"},
		{"2^62 features, IDF", "cnb", func(h map[string]any) { h["features"] = 4611686018427387903 }, "features"},
		{"2^62 features, hashing", "hash", func(h map[string]any) { h["features"] = 4611686018427387903 }, "features"},
		{"2^31 features", "hash", func(h map[string]any) { h["features"] = 1 << 31 }, "features"},
		{"no features", "hash", func(h map[string]any) { h["features"] = 0 }, "features"},
		{"terms with hashing", "hash", func(h map[string]any) { h["terms"] = 16 }, "terms"},
		{"2^62 terms", "cnb", func(h map[string]any) { h["terms"] = 4611686018427387903 }, "terms"},
		{"repeated class", "cnb", func(h map[string]any) {
			c := h["classes"].([]any)
			c[1] = c[0]
		}, "appears twice"},
		{"empty class", "mnb-count", func(h map[string]any) { h["classes"].([]any)[2] = "" }, "empty name"},
		{"negative class count", "bnb", func(h map[string]any) { h["class_count"].([]any)[0] = -1 }, "class"},
		{"huge class counts", "bnb", func(h map[string]any) {
			for i := range h["class_count"].([]any) {
				h["class_count"].([]any)[i] = 1e308
			}
		}, "in all"},
		{"unknown classifier", "cnb", func(h map[string]any) { h["config"].(map[string]any)["classifier"] = "svm" }, "classifier"},
		{"classifier by number", "cnb", func(h map[string]any) { h["config"].(map[string]any)["classifier"] = 1 }, "classifier"},
		{"classifier auto", "cnb", func(h map[string]any) { h["config"].(map[string]any)["classifier"] = "auto" }, "classifier auto"},
		{"unknown norm", "cnb", func(h map[string]any) { config(h, "tfidf")["norm"] = "l3" }, "norm"},
	} {
		hostile.WantDamaged(t, tc.name, loadOnly, hostile.EditHeader(t, models[tc.model], tc.edit), tc.detail)
	}
}

// config returns the object at the path of keys under a header's config.
func config(h map[string]any, path ...string) map[string]any {
	o := h["config"].(map[string]any)
	for _, k := range path {
		o = o[k].(map[string]any)
	}
	return o
}

// Format 1 and 2 headers held enumerations as integers: one out of range
// is refused as damage, as before.
func TestHostileLegacyHeaders(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		edit       func(h map[string]any)
		detail     string
	}{
		{"unknown classifier", "news-v2", func(h map[string]any) { config(h)["Classifier"] = 9 }, "classifier"},
		{"classifier 3", "news-v2", func(h map[string]any) { config(h)["Classifier"] = 3 }, "classifier"},
		{"classifier 255", "news-v2", func(h map[string]any) { config(h)["Classifier"] = 255 }, "classifier"},
		{"unknown vectorizer", "news-v1", func(h map[string]any) { config(h)["Vectorizer"] = 2 }, "vectorizer"},
		{"unknown weighting", "news-v2", func(h map[string]any) { config(h)["Weighting"] = 3 }, "weighting"},
		{"unknown norm", "news-v2", func(h map[string]any) { config(h, "TFIDFOptions")["Norm"] = 3 }, "norm"},
		{"unknown semi-supervised method", "news-v2", func(h map[string]any) { config(h, "Semi")["Method"] = 4 }, "semi-supervised"},
		{"classifier by name", "news-v2", func(h map[string]any) { config(h)["Classifier"] = "cnb" }, "Classifier"},
		{"unknown multi-label score", "multilabel-v2", func(h map[string]any) { h["multi"].(map[string]any)["score"] = 2 }, "score"},
	} {
		data, err := os.ReadFile(filepath.Join("../../testdata/models", tc.file+".model"))
		if err != nil {
			t.Fatal(err)
		}
		edited := hostile.EditHeader(t, data, tc.edit)
		if tc.file == "multilabel-v2" {
			if err := MultiLabel.Decode(edited); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), tc.detail) {
				t.Errorf("%s: %v, want ErrDamaged naming %q", tc.name, err, tc.detail)
			}
			continue
		}
		hostile.WantDamaged(t, tc.name, loadOnly, edited, tc.detail)
	}
}

// Issue 21.5: NaN and infinite weights loaded and predicted NaN.
func TestNonFiniteWeights(t *testing.T) {
	data := tinyText(t)["cnb"]
	words := textWords(t, data)
	at := func(what string) word {
		for _, w := range words {
			if w.what == what {
				return w
			}
		}
		t.Fatalf("no word %s", what)
		return word{}
	}
	for _, tc := range []struct {
		what   string
		v      float64
		detail string
	}{
		{"delta[0]", math.NaN(), "cell weight 0 is NaN"},
		{"delta[3]", math.Inf(1), "cell weight 3 is +Inf"},
		{"bias[1]", math.Inf(-1), "bias 1 is -Inf"},
		{"Q[0]", 1e300, "Q 0 is 1e+300"},
		{"base[2]", -math.MaxFloat64, "base weight 2"},
		{"idf[4]", math.NaN(), "IDF weight 4 is NaN"},
		{"threshold[0]", math.Inf(1), "threshold"},
	} {
		d := bytes.Clone(data)
		binary.LittleEndian.PutUint64(d[at(tc.what).off:], math.Float64bits(tc.v))
		hostile.WantDamaged(t, tc.what, loadOnly, hostile.Rechecksum(d), tc.detail)
	}
}

// Issue 21.7: merge matched classes by name and collapsed repeated ones.
func TestMergeRefusesRepeatedClasses(t *testing.T) {
	m, err := decode(tinyText(t)["mnb-count"])
	if err != nil {
		t.Fatal(err)
	}
	bad, err := decode(tinyText(t)["mnb-count"])
	if err != nil {
		t.Fatal(err)
	}
	bad.Classes = []string{"sport", "tech", "sport"}
	if _, err := Merge(m, bad); !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), "model 2") || !strings.Contains(err.Error(), "twice") {
		t.Errorf("Merge with a repeated class: %v, want ErrMerge naming model 2", err)
	}
}

// A damaged genuine file says it is damaged; a foreign file says it is not
// a model file.
func TestDamagedOrForeign(t *testing.T) {
	good := tinyText(t)["cnb"]
	for _, tc := range []struct {
		name    string
		data    []byte
		damaged bool
	}{
		{"empty", nil, false},
		{"text", []byte("label\ttext\nspam\tbuy now\n"), false},
		{"magic prefix", []byte(magic[:5]), false},
		{"magic only", []byte(magic), true},
		{"header only", good[:headerSize], true},
		{"truncated", good[:len(good)/2], true},
		{"one bit flipped", flipBit(good, len(good)/2), true},
	} {
		path := filepath.Join(t.TempDir(), "m.model")
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for fn, load := range map[string]func(string) error{
			"Load":     func(p string) error { _, err := Load(p); return err },
			"FileKind": func(p string) error { _, err := modelfile.FileKind(p); return err },
		} {
			err := load(path)
			if !errors.Is(err, ErrFormat) || errors.Is(err, ErrDamaged) != tc.damaged || errors.Is(err, ErrNotModel) == tc.damaged ||
				!strings.Contains(err.Error(), path) {
				t.Errorf("%s of %s: %v; want damaged %t, naming the file", fn, tc.name, err, tc.damaged)
			}
		}
	}
}

func flipBit(data []byte, i int) []byte {
	d := bytes.Clone(data)
	d[i] ^= 0x10
	return d
}

// Issue 21.12: what is not a regular file is refused before it is read,
// and a large file that is not a model after its first bytes.
func TestLoadNotRegular(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{"folder": dir}
	if fi, err := os.Stat("/dev/zero"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		paths["character device"] = "/dev/zero"
		link := filepath.Join(dir, "zero.model")
		if err := os.Symlink("/dev/zero", link); err == nil {
			paths["link to a device"] = link
		}
	}
	if fifo := makeFIFO(t, dir); fifo != "" {
		paths["FIFO"] = fifo
	}
	big := filepath.Join(dir, "big.model")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: 2 GiB that take no disk and would take 2 GiB of memory
	// to read whole.
	if _, err := f.WriteString("not a model, though large"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	paths["2 GiB text file"] = big
	for what, path := range paths {
		for fn, load := range map[string]func(string) error{
			"Load":     func(p string) error { _, err := Load(p); return err },
			"FileKind": func(p string) error { _, err := modelfile.FileKind(p); return err },
			"PeekKind": func(p string) error { _, err := modelfile.PeekKind(p); return err },
		} {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			err := load(path)
			runtime.ReadMemStats(&ms)
			if !errors.Is(err, ErrNotModel) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s of a %s: %v; want ErrNotModel naming the file", fn, what, err)
			}
			if alloc := ms.TotalAlloc - before; alloc > 1<<20 {
				t.Errorf("%s of a %s allocated %d bytes", fn, what, alloc)
			}
		}
	}
}

// loadOnly loads a text model file.
func loadOnly(path string) error {
	_, err := Load(path)
	return err
}
