package main

import (
	"errors"
	"reflect"
	"testing"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/tokenize"
)

func TestParseGrid(t *testing.T) {
	g, err := parseGrid("alpha=0.03,0.1,0.3,1;ngrams=1,1|1,2;char-ngrams=none|1,2|1,3;weighting=tfidf|rennie|counts;model=cnb|mnb")
	if err != nil {
		t.Fatal(err)
	}
	want := facade.Grid{
		Alpha:      []float64{0.03, 0.1, 0.3, 1},
		NGrams:     []tokenize.NGramRange{{Min: 1, Max: 1}, {Min: 1, Max: 2}},
		CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 2}, {Min: 1, Max: 3}},
	}
	want.Weighting = append(want.Weighting, facade.TFIDF, facade.Rennie, facade.RawCounts)
	want.Classifier = append(want.Classifier, facade.Complement, facade.Multinomial)
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got %+v, want %+v", g, want)
	}
	for spec, noRace := range map[string]bool{"race=no": true, "race=yes": false, "alpha=1": false} {
		if g, err := parseGrid(spec); err != nil || g.NoRace != noRace {
			t.Errorf("parseGrid(%q): NoRace %v, %v; want %v", spec, g.NoRace, err, noRace)
		}
	}
	for _, bad := range []string{"alpha=0", "alpha=x", "ngrams=2,1", "char-ngrams=1", "weighting=idf", "model=svm", "beta=1", "alpha", "race=maybe"} {
		if _, err := parseGrid(bad); !errors.Is(err, facade.ErrConfig) {
			t.Errorf("parseGrid(%q): %v, want facade.ErrConfig", bad, err)
		}
	}
}
