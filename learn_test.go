package textnb

import (
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// TestLearnConcurrently learns, with new classes, while other goroutines
// predict, explain, list classes and save (for the race detector), and
// checks that each Learn is seen by the next prediction.
func TestLearnConcurrently(t *testing.T) {
	for _, cfg := range []Config{{Weighting: RawCounts, Fast: true}, {Fast: true}} {
		m, err := Train(spamDocs(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		dir := t.TempDir()
		for g := range 3 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					switch (g + i) % 4 {
					case 0:
						p := m.Predict("claim your free prize")
						if len(p.Proba) > len(m.Classes()) {
							t.Errorf("%d probabilities for %d classes", len(p.Proba), len(m.Classes()))
						}
					case 1:
						m.PredictBatch([]string{"lunch today?", "free prize"})
					case 2:
						m.Explain("free prize call now")
					case 3:
						if err := m.Save(filepath.Join(dir, "m.model")); err != nil {
							t.Error(err)
						}
					}
				}
			})
		}
		for i, d := range []Document{
			{"spam", "the jackpot jackpot jackpot is yours"},
			{"promo", "summer sale summer sale"},
			{"ham", "see you at the jackpot bar"},
		} {
			before := m.Predict(d.Text)
			if err := m.Learn(d.Label, d.Text); err != nil {
				t.Fatal(err)
			}
			after := m.Predict(d.Text)
			c := slices.Index(m.Classes(), d.Label)
			if i != 1 && !(after.Proba[c].Prob > before.Proba[c].Prob) {
				t.Errorf("%+v: p(%s) %v after Learn, %v before", cfg, d.Label, after.Proba[c].Prob, before.Proba[c].Prob)
			}
		}
		close(stop)
		wg.Wait()
		if !slices.Contains(m.Classes(), "promo") {
			t.Errorf("classes %q lack the learned one", m.Classes())
		}
	}
}

func spamDocs() []Document {
	return []Document{
		{"spam", "WIN a free prize now, call 0800 123"},
		{"spam", "Free entry: claim your cash prize today"},
		{"spam", "URGENT: your prize is waiting, reply WIN"},
		{"ham", "Are we still meeting for lunch today?"},
		{"ham", "I'll call you when I get home"},
		{"ham", "Can you send me the notes from class"},
	}
}
