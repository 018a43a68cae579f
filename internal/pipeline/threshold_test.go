package pipeline

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/testkit"
)

const spamTSV = "../../testdata/spam.tsv"

// TestThreshold checks that a threshold decides Proba's class, goes
// through a model file and back, and that a file without one predicts
// the most probable class.
func TestThreshold(t *testing.T) {
	m, _ := train(t, Config{}, spamTSV)
	spam := slices.Index(m.Classes, "spam")
	texts := []string{"WINNER! claim your free prize now", "see you at dinner tonight", "call me", ""}
	plain := m.NewPredictor()
	var ps [][]float64
	for _, text := range texts {
		p, best := plain.Proba(nil, text)
		if best != m.Decide(p) {
			t.Errorf("%q: Proba predicts %d, Decide %d", text, best, m.Decide(p))
		}
		ps = append(ps, p)
	}
	for _, at := range []float64{0, 0.3, 0.5, 0.99, 1} {
		th, err := m.parseThreshold("spam=" + formatG(at))
		if err != nil {
			t.Fatal(err)
		}
		m.Threshold = &th
		var buf bytes.Buffer
		if _, err := m.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		loaded, err := decode(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Threshold == nil || *loaded.Threshold != th {
			t.Fatalf("threshold %+v read back as %+v", th, loaded.Threshold)
		}
		for _, mm := range []*Model{m, loaded} {
			pr := mm.NewPredictor()
			for i, text := range texts {
				p, best := pr.Proba(nil, text)
				want := 1 - spam
				if ps[i][spam] >= at {
					want = spam
				}
				if best != want || !slices.Equal(p, ps[i]) {
					t.Errorf("spam=%g %q: class %d (p %v), want %d (p %v)", at, text, best, p, want, ps[i])
				}
			}
		}
		if info, _ := loaded.Inspect(0); info.Settings.Threshold != "spam="+formatG(at) {
			t.Errorf("Inspect's threshold %q", info.Settings.Threshold)
		}
	}
	m.Threshold = nil
	b := testkit.Encode(t, m)
	if bytes.Contains(b, []byte(`"threshold":{"class"`)) {
		t.Error("a model without a threshold writes one")
	}
	if got, err := decode(b); err != nil || got.Threshold != nil {
		t.Errorf("without a threshold: %v, %v", got.Threshold, err)
	}
}

func formatG(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func TestThresholdRefused(t *testing.T) {
	m, _ := train(t, Config{}, spamTSV)
	for _, s := range []string{"spam", "spam=x", "eggs=0.5", "spam=1.5", "spam=-0.1", "spam=NaN", "=0.5"} {
		if _, err := m.parseThreshold(s); !errors.Is(err, ErrThreshold) {
			t.Errorf("%q: %v, want ErrThreshold", s, err)
		}
	}
	news, _ := train(t, Config{}, newsTrain)
	if _, err := news.NewThreshold(news.Classes[0], 0.5); !errors.Is(err, ErrThreshold) {
		t.Errorf("a %d-class model takes a threshold: %v", len(news.Classes), err)
	}
	news.Threshold = &Threshold{Class: 0, P: 0.5}
	if _, err := news.WriteTo(&bytes.Buffer{}); !errors.Is(err, ErrThreshold) {
		t.Errorf("writing a %d-class model with a threshold: %v", len(news.Classes), err)
	}
	m.Threshold = &Threshold{Class: 2, P: 0.5}
	if _, err := m.WriteTo(&bytes.Buffer{}); !errors.Is(err, ErrThreshold) {
		t.Errorf("writing a threshold of class 2: %v", err)
	}
	// A file whose header names a threshold no model has is damaged.
	m.Threshold = nil
	for _, bad := range []fileThreshold{{"eggs", 0.5}, {"spam", 2}} {
		var buf bytes.Buffer
		if _, err := m.writeFile(&buf, modelfile.TextModel, func(h header) any { h.Threshold = &bad; return h }); err != nil {
			t.Fatal(err)
		}
		if _, err := decode(buf.Bytes()); !errors.Is(err, ErrDamaged) {
			t.Errorf("threshold %+v in the header: %v, want ErrDamaged", bad, err)
		}
	}
}
