package pipeline

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
)

// An alpha whose weights overflow is refused; one below MinAlpha is
// raised to it, and the model records what was applied.
func TestAlphaLimits(t *testing.T) {
	for _, c := range []Classifier{Complement, Multinomial, Bernoulli} {
		tr, err := NewTrainer(Config{Classifier: c, Alpha: 1e308})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := corpus.Walk(newsTrain, corpus.Options{}, func(d corpus.Document) error {
			tr.Add(d.Label, d.Text)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := tr.Finish(); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "alpha 1e+308") {
			t.Errorf("%v with alpha 1e308: %v, want ErrConfig naming the alpha", c, err)
		}
	}
	m, _ := train(t, Config{Alpha: 1e-30}, newsTrain)
	if m.Config.Alpha != MinAlpha {
		t.Errorf("alpha 1e-30 recorded as %g, want %g", m.Config.Alpha, MinAlpha)
	}
}

// Column names survive a model file, of either kind.
func TestFieldNamesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	m, _ := train(t, Config{}, newsTrain)
	m.LabelField, m.TextField = "cat", "text_a"
	path := filepath.Join(dir, "m.model")
	if err := modelfile.Save(path, m); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(path); err != nil || got.LabelField != "cat" || got.TextField != "text_a" {
		t.Errorf("loaded fields %q, %q (%v)", got.LabelField, got.TextField, err)
	}
}
