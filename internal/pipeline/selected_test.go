package pipeline

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/vectorize"
)

// Selecting from a model's counts keeps the terms, and scores the
// documents, as training with the selection does: after training, and
// after learning half the corpus into a model of the other half.
func TestSelectedMatchesTrainingWithSelect(t *testing.T) {
	docs, err := corpus.ReadAll("../../testdata/spam.tsv", corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	news, err := corpus.ReadAll(newsTrain, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	binary := vectorize.VocabConfig{Binary: true, MinDF: 1}
	for _, tc := range []struct {
		name string
		cfg  Config
		sel  Selection
		docs []corpus.Document
	}{
		{"mi binary mnb", Config{Fast: true, Weighting: RawCounts, Vocab: binary}, Selection{Method: MutualInfo, K: 40}, docs},
		{"df binary mnb", Config{Fast: true, Weighting: RawCounts, Vocab: binary}, Selection{Method: DocFreq, K: 25}, docs},
		{"chi2 counts mnb", Config{Fast: true, Weighting: RawCounts, Vocab: vectorize.VocabConfig{MinDF: 1}}, Selection{Method: Chi2, K: 30}, docs},
		{"mi binary cnb, 20 classes", Config{Fast: true, Weighting: RawCounts, Vocab: binary, Classifier: Complement}, Selection{Method: MutualInfo, K: 200}, news},
	} {
		t.Run(tc.name, func(t *testing.T) {
			with := tc.cfg
			with.Select = tc.sel
			want := trainDocs(t, with, tc.docs)
			// the even documents trained, the odd learned: both hold every class
			var first []corpus.Document
			var rest []Example
			for i, d := range tc.docs {
				if i%2 == 0 {
					first = append(first, d)
				} else {
					rest = append(rest, Example{Label: d.Label, Text: d.Text})
				}
			}
			learned := trainDocs(t, tc.cfg, first)
			if err := learned.LearnBatch(rest); err != nil {
				t.Fatal(err)
			}
			for name, m := range map[string]*Model{"trained": trainDocs(t, tc.cfg, tc.docs), "learned": learned} {
				got, err := m.Selected(tc.sel)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := got.Terms(), want.Terms(); !slices.Equal(sorted(g), sorted(w)) {
					t.Fatalf("%s: %d terms %v, want %d %v", name, len(g), g, len(w), w)
				}
				if got.NumFeatures() != tc.sel.K || got.Config.Select != tc.sel {
					t.Errorf("%s: %d features, selection %+v", name, got.NumFeatures(), got.Config.Select)
				}
				gp, wp := got.NewPredictor(), want.NewPredictor()
				for _, d := range tc.docs {
					g, w := gp.JointLogLikelihood(nil, d.Text), wp.JointLogLikelihood(nil, d.Text)
					for c := range w {
						if math.Abs(g[c]-w[c]) > 1e-9*max(1, math.Abs(w[c])) {
							t.Fatalf("%s: %s: scores %v, want %v", name, d.Source, g, w)
						}
					}
				}
			}
		})
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// Selected refuses what its counts cannot tell.
func TestSelectedRefuses(t *testing.T) {
	counts := trainDocs(t, Config{Fast: true, Weighting: RawCounts}, readDocs(t, "../../testdata/spam.tsv"))
	if _, err := counts.Selected(Selection{Method: MutualInfo, K: 10}); !errors.Is(err, ErrConfig) {
		t.Errorf("mutual information of term counts: %v, want ErrConfig", err)
	}
	tfidf := trainDocs(t, Config{Fast: true, Vocab: vectorize.VocabConfig{Binary: true}}, readDocs(t, "../../testdata/spam.tsv"))
	if _, err := tfidf.Selected(Selection{Method: Chi2, K: 10}); !errors.Is(err, ErrConfig) {
		t.Errorf("tf-idf: %v, want ErrConfig", err)
	}
	if _, err := counts.Selected(Selection{Method: Chi2}); !errors.Is(err, ErrConfig) {
		t.Errorf("K 0: %v, want ErrConfig", err)
	}
}
