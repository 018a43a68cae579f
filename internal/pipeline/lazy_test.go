package pipeline

import (
	"bytes"
	"reflect"
	"sync"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/vectorize"
)

// A model whose cell weights are computed on demand saves the same bytes,
// scores, explains and refuses infinite weights as one that holds them,
// also when predicting from several goroutines first.
func TestLazyWeightsGiveTheSameModel(t *testing.T) {
	var texts []string
	_, err := corpus.Walk(newsTest, corpus.Options{}, func(d corpus.Document) error {
		texts = append(texts, d.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	texts = texts[:min(len(texts), 40)]
	configs := map[string]Config{
		"default":   {},
		"hash":      {Vectorizer: Hash, HashFeatures: 1 << 12},
		"norm":      {Norm: true, Weighting: Rennie, Vocab: vectorize.VocabConfig{MaxFeatures: 500}},
		"bernoulli": {Classifier: Bernoulli, Vocab: vectorize.VocabConfig{MinDF: 2}},
		"counts":    {Weighting: RawCounts, Classifier: Multinomial, Vectorizer: Hash},
	}
	for name, cfg := range configs {
		t.Run(name, func(t *testing.T) {
			want, _ := train(t, cfg, newsTrain)
			if want.lazy != nil {
				t.Fatal("a small model computes its weights on demand")
			}
			defer func(n int) { lazyCells = n }(lazyCells)
			lazyCells = 0
			for _, predictFirst := range []bool{false, true} {
				got, _ := train(t, cfg, newsTrain)
				if got.lazy == nil {
					t.Fatal("the weights are not computed on demand")
				}
				if predictFirst {
					var wg sync.WaitGroup
					for range 4 {
						wg.Go(func() { scoreAll(got, texts) })
					}
					wg.Wait()
				}
				if !bytes.Equal(testkit.Encode(t, want), testkit.Encode(t, got)) {
					t.Fatal("the model file differs")
				}
				if !reflect.DeepEqual(scoreAll(want, texts), scoreAll(got, texts)) {
					t.Error("the scores differ")
				}
				wp, gp := want.NewPredictor(), got.NewPredictor()
				if !reflect.DeepEqual(wp.Explain(texts[0]), gp.Explain(texts[0])) {
					t.Error("the explanations differ")
				}
				ww, wb := want.ClassWeights(1)
				gw, gb := got.ClassWeights(1)
				if wb != gb || !reflect.DeepEqual(ww, gw) {
					t.Error("the class weights differ")
				}
			}
		})
	}
}

func scoreAll(m *Model, texts []string) [][]float64 {
	p := m.NewPredictor()
	var out [][]float64
	for _, s := range texts {
		out = append(out, p.JointLogLikelihood(nil, s))
	}
	return out
}

// TestAlphaLimits holds for models whose weights are computed on demand.
func TestLazyAlphaLimits(t *testing.T) {
	defer func(n int) { lazyCells = n }(lazyCells)
	lazyCells = 0
	TestAlphaLimits(t)
}
