package pipeline

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/vectorize"
)

// TestFoldCountsMatchCountRows checks that the counts cross-validation
// sums in the corpus's cells equal, bit for bit, those compact.CountRows
// sums from the fold's weighted training rows, which is what training on
// the fold's training part counts.
func TestFoldCountsMatchCountRows(t *testing.T) {
	news := readDocs(t, newsTrain)
	shuffled := slices.Clone(news) // classes interleaved: folds meet them in other orders than the corpus
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, tc := range []struct {
		name string
		cfg  Config
		docs []corpus.Document
	}{
		{"default", Config{}, news},
		{"default shuffled", Config{}, shuffled},
		{"rennie", Config{Weighting: Rennie}, shuffled},
		{"counts", Config{Weighting: RawCounts}, news},
		{"bnb", Config{Classifier: Bernoulli}, shuffled},
		{"cnb norm linear tf l1", Config{Norm: true, TFIDFOptions: TFIDFOptions{LinearTF: true, NoSmooth: true, Norm: vectorize.L1}}, news},
		{"binary max_features 60", Config{Vocab: vectorize.VocabConfig{MaxFeatures: 60, Binary: true}}, shuffled},
		{"chi2 300", Config{Select: Selection{Method: Chi2, K: 300}}, news},
		{"hashing binary", Config{Vectorizer: Hash, HashFeatures: 1 << 10, Vocab: vectorize.VocabConfig{Binary: true}}, shuffled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := trainerOf(t, tc.cfg, tc.docs).cvData(CVOptions{Folds: 3, Seed: 7}, false)
			if err != nil {
				t.Fatal(err)
			}
			x := d.cells()
			for k := range d.folds {
				f, err := d.fold(k)
				if err != nil {
					t.Fatal(err)
				}
				m := &Model{Config: d.cfg.forClasses(len(f.classes)), Classes: f.classes}
				if err := m.fitWeightingDF(len(f.train), func() []int64 { return f.df }); err != nil {
					t.Fatal(err)
				}
				w := newRowWeights(m, f, d.cfg.Vocab.Binary && d.terms != nil)
				got, ok := d.foldCounts(x, f, &w, m.newEstimator())
				if !ok {
					t.Fatalf("fold %d: refused", k)
				}
				want, err := compact.CountRows(m.newEstimator(), f.features, f.y, len(f.classes), func(i int, idx []int32, val []float64) ([]int32, []float64) {
					return w.row(d, f.train[i], idx, val)
				})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("fold %d: counts differ from CountRows'", k)
				}
			}
		})
	}
}
