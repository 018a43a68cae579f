package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"

	"github.com/textnb/textnb/corpus"
)

// TestEarlierModelFiles checks that model files written by earlier builds
// (testdata/models/*-v2.model: before the format-2 header changed;
// multilabel-v3.model: before the reweighting rate was recorded) still
// load and predict exactly what they predicted when written
// (*.predict.jsonl, made by those builds' predict --json). Only labels and probabilities are compared: the
// sources name paths relative to where the files were made.
func TestEarlierModelFiles(t *testing.T) {
	const dir = "../../testdata/models/"
	for _, c := range []struct{ model, input string }{
		{"news-v2", "../../testdata/news/test"},
		{"multilabel-v2", "../../testdata/multilabel.jsonl"},
		{"multilabel-v3", "../../testdata/multilabel.jsonl"}, // reweighted, before the rate was recorded
		{"gaussian-v2", dir + "iris-new.tsv"},
		{"categorical-v2", dir + "iris-new.tsv"},
	} {
		t.Run(c.model, func(t *testing.T) {
			want, err := os.ReadFile(dir + c.model + ".predict.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			got := mustRun(t, "", "predict", "-m", dir+c.model+".model", "--json", c.input)
			g, w := decisions(t, got), decisions(t, string(want))
			if len(g) != len(w) || len(w) == 0 {
				t.Fatalf("%d predictions, want %d", len(g), len(w))
			}
			for i := range w {
				if !reflect.DeepEqual(g[i], w[i]) {
					t.Fatalf("prediction %d:\n got %v\nwant %v", i+1, g[i], w[i])
				}
			}
			if c.model == "multilabel-v3" {
				if mm, err := loadMultiLabel(dir + c.model + ".model"); err != nil || mm.Multi.Reweight != 10 || mm.Multi.ReweightRate != 20 {
					t.Errorf("%v; want 10 passes at rate 20, the only rate then", err)
				}
			}
		})
	}
}

// decisions keeps each JSON line's label(s) and probabilities.
func decisions(t *testing.T, out string) []map[string]any {
	t.Helper()
	var d []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		for k := range v {
			if k != "label" && k != "labels" && k != "proba" {
				delete(v, k)
			}
		}
		d = append(d, v)
	}
	return d
}

// TestFastReproducesEarlierDefaults checks that train --fast, and
// facade.Config.Fast, write byte for byte the model files that the build
// before cross-validated choice wrote with its defaults
// (testdata/models/*-v3-fast.model).
func TestFastReproducesEarlierDefaults(t *testing.T) {
	for _, c := range []struct{ model, corpus string }{
		{"news-v3-fast", "../../testdata/news/train"},
		{"spam-v3-fast", "../../testdata/spam.tsv"},
	} {
		want, err := os.ReadFile("../../testdata/models/" + c.model + ".model")
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "m.model")
		mustRun(t, "", "train", c.corpus, "-o", out, "--fast", "--quiet")
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("train --fast %s: %d bytes, not the %d of %s.model", c.corpus, len(got), len(want), c.model)
		}
		// As train configures it: the model records its semi-supervised
		// flags' defaults.
		tr, err := facade.NewTrainer(facade.Config{Fast: true, Semi: facade.Semi{K: 0.5, Lambda: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := corpus.Walk(c.corpus, corpus.Options{}, func(d corpus.Document) error { return tr.Add(d.Label, d.Text) }); err != nil {
			t.Fatal(err)
		}
		m, _, err := tr.Finish()
		if err != nil {
			t.Fatal(err)
		}
		lib := filepath.Join(t.TempDir(), "lib.model")
		if err := facade.SaveFile(lib, m); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(lib); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Config.Fast on %s: not %s.model", c.corpus, c.model)
		}
	}
}
