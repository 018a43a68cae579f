package pipeline

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/nb"
)

func TestParsePriors(t *testing.T) {
	classes := []string{"spam", "ham", "a=b"}
	for _, tc := range []struct {
		in   string
		want []float64
	}{
		{"spam=0.1,ham=0.7,a=b=0.2", []float64{0.1, 0.7, 0.2}},
		{" ham = 0.5 , spam=0.25,a=b=.25", []float64{0.25, 0.5, 0.25}},
		{"spam=0.2,ham=0.6,a=b=0.205", []float64{0.2 / 1.005, 0.6 / 1.005, 0.205 / 1.005}}, // renormalized
	} {
		got, err := ParsePriors(tc.in, classes)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		for c := range got {
			if math.Abs(got[c]-tc.want[c]) > 1e-12 {
				t.Fatalf("%q: %v, want %v", tc.in, got, tc.want)
			}
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"spam=0.1,ham=0.9", `no prior for class "a=b"`},
		{"spam=0.1", `no prior for class "ham" and "a=b"`},
		{"spam=0.1,ham=0.8,a=b=0.1,eggs=0", `"eggs" names no class`},
		{"spam=0,ham=0.8,a=b=0.2", `class "spam" could never be predicted`},
		{"spam=-0.1,ham=0.9,a=b=0.2", "cannot be negative"},
		{"spam=0.5,ham=0.5,a=b=0.5", "sum to 1.5"},
		{"spam=0.1,ham=0.8,a=b=0.05", "sum to 0.95"},
		{"spam0.1,ham=0.8,a=b=0.1", `"spam0.1" is not CLASS=PRIOR`},
		{"spam=x,ham=0.8,a=b=0.1", `"x" is not a finite number`},
		{"spam=NaN,ham=0.8,a=b=0.1", `"NaN" is not a finite number`},
		{"spam=0.1,,ham=0.8,a=b=0.1", "empty item"},
		{"spam=0.1,ham=0.8,a=b=0.1,spam=0.1", `class "spam" given twice`},
		{"", "empty item"},
	} {
		_, err := ParsePriors(tc.in, classes)
		if !errors.Is(err, ErrPriors) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want ErrPriors with %q", tc.in, err, tc.want)
		}
	}
}

// TestPosteriorPriors checks the π of prior correction against models
// trained with the prior built in: shifting a Multinomial model's
// posteriors to uniform priors gives those of the same model trained with
// UniformPrior, and Complement NB's posteriors assume uniform priors.
func TestPosteriorPriors(t *testing.T) {
	docs, err := corpus.ReadAll("../testdata/spam.tsv", corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mnb, _ := train(t, Config{Classifier: Multinomial}, "../testdata/spam.tsv")
	uniform, _ := train(t, Config{Classifier: Multinomial, UniformPrior: true}, "../testdata/spam.tsv")
	cnb, _ := train(t, Config{}, "../testdata/spam.tsv")
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

func ExampleParsePriors() {
	p, err := ParsePriors("spam=0.1, ham=0.9", []string{"ham", "spam"})
	fmt.Println(p, err)
	_, err = ParsePriors("spam=0,ham=1", []string{"ham", "spam"})
	fmt.Println(err)
	// Output:
	// [0.9 0.1] <nil>
	// pipeline: bad class priors: "spam=0": with prior 0 class "spam" could never be predicted; give a small positive prior
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
