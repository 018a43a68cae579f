package pipeline

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

// trainSpilling is train with the rows spilled to dir above limit bytes.
func trainSpilling(t *testing.T, cfg Config, dir string, limit int) (*Model, error) {
	m, _, err := trainSpillingFrom(t, cfg, dir, limit)
	return m, err
}

// trainSpillingFrom is trainSpilling, also reporting whether the rows
// were read back from a file.
func trainSpillingFrom(t *testing.T, cfg Config, dir string, limit int) (*Model, bool, error) {
	t.Helper()
	tr, err := NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr.SpillRows(dir, limit)
	_, err = corpus.Walk(newsTrain, corpus.Options{}, func(d corpus.Document) error {
		tr.Add(d.Label, d.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := tr.Finish()
	return m, tr.spill.used, err
}

func TestSpilledRowsGiveTheSameModel(t *testing.T) {
	configs := map[string]Config{
		"default":   {},
		"hash":      {Vectorizer: Hash, HashFeatures: 1 << 12},
		"rennie":    {Weighting: Rennie, Vocab: vectorize.VocabConfig{MaxFeatures: 500}},
		"bernoulli": {Classifier: Bernoulli, Vocab: vectorize.VocabConfig{MinDF: 2}},
		"counts":    {Weighting: RawCounts, Classifier: Multinomial, Vectorizer: Hash},
	}
	for name, cfg := range configs {
		cfg.Fast = true // spilled rows make training fall back to the plain default
		t.Run(name, func(t *testing.T) {
			want, _ := train(t, cfg, newsTrain)
			dir := t.TempDir()
			got, used, err := trainSpillingFrom(t, cfg, dir, 1) // rows go out as they come
			if err != nil {
				t.Fatal(err)
			}
			if !used {
				t.Fatal("no rows were spilled")
			}
			if !bytes.Equal(testkit.Encode(t, want), testkit.Encode(t, got)) {
				t.Error("the model trained from spilled rows differs")
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
				t.Errorf("spill files left behind: %v", left)
			}
		})
	}
}

func TestSmallCorporaDoNotSpill(t *testing.T) {
	for _, cfg := range []Config{{}, {Vectorizer: Hash}} {
		if _, used, err := trainSpillingFrom(t, cfg, t.TempDir(), 0); err != nil || used {
			t.Errorf("%v: spilled %v, error %v", cfg.Vectorizer, used, err)
		}
	}
}

func TestSpillToMissingDirFails(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	for _, cfg := range []Config{{}, {Vectorizer: Hash}} {
		if _, err := trainSpilling(t, cfg, dir, 1); !errors.Is(err, vectorize.ErrSpill) {
			t.Errorf("%v: got %v, want ErrSpill", cfg.Vectorizer, err)
		}
	}
}
