package pipeline

import (
	"errors"
	"reflect"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/tokenize"
)

func TestParseGrid(t *testing.T) {
	g, err := ParseGrid("alpha=0.03,0.1,0.3,1;ngrams=1,1|1,2;char-ngrams=none|1,2|1,3;weighting=tfidf|rennie|counts;model=cnb|mnb")
	if err != nil {
		t.Fatal(err)
	}
	want := Grid{
		Alpha:      []float64{0.03, 0.1, 0.3, 1},
		NGrams:     []tokenize.NGramRange{{Min: 1, Max: 1}, {Min: 1, Max: 2}},
		CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 2}, {Min: 1, Max: 3}},
		Weighting:  []Weighting{TFIDF, Rennie, RawCounts},
		Classifier: []Classifier{Complement, Multinomial},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got %+v, want %+v", g, want)
	}
	for _, bad := range []string{"alpha=0", "alpha=x", "ngrams=2,1", "char-ngrams=1", "weighting=idf", "model=svm", "beta=1", "alpha"} {
		if _, err := ParseGrid(bad); !errors.Is(err, ErrConfig) {
			t.Errorf("ParseGrid(%q): %v, want ErrConfig", bad, err)
		}
	}
}

func docsOf(docs []corpus.Document) Docs {
	return func(yield func(label, text string) bool) error {
		for _, d := range docs {
			if !yield(d.Label, d.Text) {
				break
			}
		}
		return nil
	}
}

// TestTuneMatchesCrossValidate checks that every setting of a grid scores
// what cross-validating it alone scores, and that the choice follows the
// scores.
func TestTuneMatchesCrossValidate(t *testing.T) {
	docs := readDocs(t, newsTrain)
	g := Grid{
		Alpha:      []float64{0.1, 0.3},
		NGrams:     []tokenize.NGramRange{{Min: 1, Max: 1}, {Min: 1, Max: 2}},
		CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 1}}, // English: not tried
		Weighting:  []Weighting{TFIDF, RawCounts},
		Classifier: []Classifier{Complement, Multinomial, Bernoulli},
	}
	o := CVOptions{Folds: 3, Seed: 2}
	r, err := Tune(Config{}, g, o, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if n := 2 * 2 * 3 * 2; len(r.Results) != n {
		t.Fatalf("%d results, want %d", len(r.Results), n)
	}
	if r.Base < 0 {
		t.Fatal("the default setting is in the grid but not found")
	}
	if c := r.Results[r.Base].Config; c.Alpha != DefaultAlpha || c.Weighting != TFIDF || c.Classifier != Complement ||
		c.Tokenize.WordNGrams != DefaultWordNGrams {
		t.Errorf("base setting %+v is not the default", c)
	}
	for i, x := range r.Results {
		if x.Accuracy.Mean > r.Results[r.Top].Accuracy.Mean {
			t.Errorf("setting %d scores %g, above the top's %g", i, x.Accuracy.Mean, r.Results[r.Top].Accuracy.Mean)
		}
		if i%5 != 0 {
			continue // cross-validating each alone is slow under -race
		}
		alone := crossValidate(t, x.Config, docs, o)
		if alone.Accuracy != x.Accuracy || alone.MacroF1 != x.MacroF1 || !reflect.DeepEqual(alone.Predicted, x.Predicted) {
			t.Errorf("setting %d: tuned %+v, alone %+v", i, x.Accuracy, alone.Accuracy)
		}
	}
	if r.Best != r.Top && r.Best != r.Base {
		t.Errorf("chose %d, neither the top %d nor the base %d", r.Best, r.Top, r.Base)
	}
}

func TestTuneChineseCharNGrams(t *testing.T) {
	docs := readDocs(t, "../testdata/zh/train.tsv")
	g := Grid{CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 1}, {Min: 2, Max: 3}}}
	r, err := Tune(Config{}, g, CVOptions{Folds: 3}, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 3 {
		t.Fatalf("%d results, want 3", len(r.Results))
	}
	for i, want := range g.CharNGrams {
		c := r.Results[i].Config
		if c.Tokenize.Lang != tokenize.Chinese || c.Tokenize.HanChars != want {
			t.Errorf("setting %d: lang %v, char n-grams %v, want zh %v", i, c.Tokenize.Lang, c.Tokenize.HanChars, want)
		}
	}
	if r.Base != 2 { // the default for Chinese is 2,3
		t.Errorf("base setting %d, want 2", r.Base)
	}
}
