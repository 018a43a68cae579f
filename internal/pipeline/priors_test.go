package pipeline

import (
	"fmt"
	"math"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/nb"
)

// TestPosteriorPriors checks the π of prior correction against models
// trained with the prior built in: shifting a Multinomial model's
// posteriors to uniform priors gives those of the same model trained with
// UniformPrior, and Complement NB's posteriors assume uniform priors.
func TestPosteriorPriors(t *testing.T) {
	docs, err := corpus.ReadAll("../../testdata/spam.tsv", corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mnb, _ := train(t, Config{Classifier: Multinomial, Fast: true}, "../../testdata/spam.tsv") // one α for both
	uniform, _ := train(t, Config{Classifier: Multinomial, UniformPrior: true, Fast: true}, "../../testdata/spam.tsv")
	cnb, _ := train(t, Config{Classifier: Complement, Fast: true}, "../../testdata/spam.tsv") // uncalibrated
	if p := mnb.PosteriorPriors(); math.Abs(p[0]-0.75) > 1e-12 || math.Abs(p[1]-0.25) > 1e-12 {
		t.Fatalf("Multinomial: %v, want the training frequencies 0.75, 0.25", p)
	}
	for _, m := range []*Model{uniform, cnb} {
		if p := m.PosteriorPriors(); p[0] != 0.5 || p[1] != 0.5 {
			t.Fatalf("%v (uniform %v): %v, want 0.5 each", m.Config.Classifier, m.Config.UniformPrior, p)
		}
	}
	pm, pu := mnb.NewPredictor(), uniform.NewPredictor()
	for _, d := range docs[:30] {
		a, _ := pm.Proba(nil, d.Text)
		shifted, err := nb.AdjustPriors(nil, a, mnb.PosteriorPriors(), []float64{0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := pu.Proba(nil, d.Text)
		for c := range want {
			if math.Abs(shifted[c]-want[c]) > 1e-9 {
				t.Fatalf("%s: shifted %v, UniformPrior model %v", d.Source, shifted, want)
			}
		}
	}
}

func ExampleModel_PosteriorPriors() {
	tr, _ := NewTrainer(Config{Classifier: Multinomial})
	for _, d := range []struct{ label, text string }{
		{"ham", "see you at lunch"}, {"ham", "dinner at eight"}, {"ham", "call me later"},
		{"spam", "win a free prize now"},
	} {
		tr.Add(d.label, d.text)
	}
	m, _, _ := tr.Finish()
	pr := m.NewPredictor()
	p, _ := pr.Proba(nil, "free lunch")
	// The same text if spam were as common as ham:
	q, _ := nb.AdjustPriors(nil, p, m.PosteriorPriors(), []float64{0.5, 0.5})
	fmt.Printf("priors %.2f\nP(spam) %.3f → %.3f\n", m.PosteriorPriors(), p[1], q[1])
	// Output:
	// priors [0.75 0.25]
	// P(spam) 0.362 → 0.630
}
