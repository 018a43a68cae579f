package pipeline

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/vectorize"
)

// trainDocs trains on the given documents.
func trainDocs(t testing.TB, cfg Config, docs []corpus.Document) *Model {
	t.Helper()
	m, _, err := trainerOf(t, cfg, docs).Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMergeEqualsUnion(t *testing.T) {
	docs, err := corpus.ReadAll(newsTrain, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Disjoint parts; the last lacks a class, so classes are remapped too.
	var a, b, c []corpus.Document
	for i, d := range docs {
		switch {
		case d.Label == "tech" || i%3 == 0:
			a = append(a, d)
		case i%3 == 1:
			b = append(b, d)
		default:
			c = append(c, d)
		}
	}
	queries, err := corpus.ReadAll(newsTest, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []Config{
		{Weighting: RawCounts},
		{Weighting: RawCounts, Classifier: Multinomial, Vectorizer: Hash},
		{Classifier: Bernoulli},
		{Weighting: RawCounts, Norm: true},
	} {
		cfg.Fast = true // each part would choose its own α
		union := trainDocs(t, cfg, append(append(slices.Clone(b), a...), c...))
		merged, err := Merge(trainDocs(t, cfg, b), trainDocs(t, cfg, a), trainDocs(t, cfg, c))
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		if !slices.Equal(merged.Classes, union.Classes) {
			t.Fatalf("classes %v, union %v", merged.Classes, union.Classes)
		}
		// The merge sorts its vocabulary; training keeps the order in
		// which it first saw the terms: compare feature by feature.
		cm, _ := merged.fittedCounts()
		cu, _ := union.fittedCounts()
		fm, fu := featureOrder(merged), featureOrder(union)
		same := len(fm) == len(fu) && slices.Equal(cm.ClassCount, cu.ClassCount)
		for k := 0; same && k < len(fm); k++ {
			p, q := fm[k], fu[k]
			same = (merged.vocab == nil || merged.vocab.Term(int(p)) == union.vocab.Term(int(q))) &&
				sameFeature(countCells(cm), countCells(cu), p, q, 0)
		}
		if !same {
			t.Errorf("%+v: merged counts differ from the union's", cfg)
		}
		pm, pu := merged.NewPredictor(), union.NewPredictor()
		for _, q := range queries {
			x, _ := pm.Proba(nil, q.Text)
			y, _ := pu.Proba(nil, q.Text)
			for k := range x {
				if math.Abs(x[k]-y[k]) > 1e-12 {
					t.Fatalf("%+v: %s: merged %v, union %v", cfg, q.Source, x, y)
				}
			}
		}
	}
}

func TestMergeRefuses(t *testing.T) {
	docs, err := corpus.ReadAll(newsTrain, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	counts := trainDocs(t, Config{Weighting: RawCounts}, docs)
	for _, tc := range []struct {
		other *Model
		want  string
	}{
		{trainDocs(t, Config{Weighting: RawCounts, Alpha: 0.5}, docs), "Alpha"},
		{trainDocs(t, Config{Weighting: RawCounts, Classifier: Multinomial}, docs), "Classifier"},
		{trainDocs(t, Config{}, docs), "IDF"},
		{trainDocs(t, Config{Weighting: RawCounts, Vocab: vocabMinDF(2)}, docs), "pruned"},
	} {
		_, err := Merge(counts, tc.other)
		if !errors.Is(err, ErrMerge) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("merge error %v, want ErrMerge naming %q", err, tc.want)
		}
	}
}

// featureOrder returns m's feature ids in the sorted order of their terms,
// or in column order with hashing.
func featureOrder(m *Model) []int32 {
	if m.vocab == nil {
		ids := make([]int32, m.NumFeatures())
		for i := range ids {
			ids[i] = int32(i)
		}
		return ids
	}
	return termOrder(m.vocab.Terms())
}

func vocabMinDF(n int) vectorize.VocabConfig { return vectorize.VocabConfig{MinDF: n} }
