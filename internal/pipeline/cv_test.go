package pipeline

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

func readDocs(t testing.TB, path string) []corpus.Document {
	t.Helper()
	docs, err := corpus.ReadAll(path, corpus.Options{TextField: "text_a"})
	if err != nil {
		docs, err = corpus.ReadAll(path, corpus.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// trainerOf returns a Trainer for cfg given docs.
func trainerOf(t testing.TB, cfg Config, docs []corpus.Document) *Trainer {
	t.Helper()
	tr, err := NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		tr.Add(d.Label, d.Text)
	}
	return tr
}

func crossValidate(t testing.TB, cfg Config, docs []corpus.Document, o CVOptions) *CVResult {
	t.Helper()
	r, err := trainerOf(t, cfg, docs).CrossValidate(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCrossValidateMatchesFoldTraining checks that every fold predicts
// what a model trained on that fold's complement predicts, with the same
// vocabulary size and scores.
func TestCrossValidateMatchesFoldTraining(t *testing.T) {
	news := readDocs(t, newsTrain)
	spam := readDocs(t, "../../testdata/spam.tsv")
	zh := readDocs(t, "../../testdata/zh/train.tsv")
	for _, tc := range []struct {
		name string
		cfg  Config
		docs []corpus.Document
	}{
		{"default", Config{}, news},
		{"rennie", Config{Weighting: Rennie}, news},
		{"counts", Config{Weighting: RawCounts}, news},
		{"mnb", Config{Classifier: Multinomial, Alpha: 0.1}, news},
		{"cnb reweighted", Config{Reweight: 4, ReweightRate: 40}, news},
		{"mnb reweighted", Config{Classifier: Multinomial, Alpha: 0.3, Reweight: 4}, news},
		{"spam reweighted", Config{Reweight: 3}, spam},
		{"bnb", Config{Classifier: Bernoulli}, news},
		{"cnb norm linear tf l1", Config{Norm: true, TFIDFOptions: TFIDFOptions{LinearTF: true, NoSmooth: true, Norm: vectorize.L1}}, news},
		{"min_df 2", Config{Vocab: vectorize.VocabConfig{MinDF: 2}}, news},
		{"max_df 0.3", Config{Vocab: vectorize.VocabConfig{MaxDF: 0.3}}, news},
		{"max_features 60", Config{Vocab: vectorize.VocabConfig{MaxFeatures: 60}}, news},
		{"binary max_features 60", Config{Vocab: vectorize.VocabConfig{MaxFeatures: 60, Binary: true}}, news},
		{"automatic min_df", Config{MaxTableSize: 4000}, news},
		{"chi2 300", Config{Select: Selection{Method: Chi2, K: 300}}, news},
		{"chi2 300 mnb", Config{Select: Selection{Method: Chi2, K: 300}, Classifier: Multinomial, Alpha: 0.01}, news},
		{"mi 300", Config{Select: Selection{Method: MutualInfo, K: 300}}, news},
		{"df 300", Config{Select: Selection{Method: DocFreq, K: 300}}, news},
		{"binary chi2 300", Config{Select: Selection{Method: Chi2, K: 300}, Vocab: vectorize.VocabConfig{Binary: true}}, news},
		{"hashing", Config{Vectorizer: Hash, HashFeatures: 1 << 10}, news},
		{"hashing binary", Config{Vectorizer: Hash, HashFeatures: 1 << 10, Vocab: vectorize.VocabConfig{Binary: true}}, news},
		{"spam unigrams", Config{Tokenize: tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 1}}}, spam},
		{"chinese", Config{}, zh},
		{"chinese char unigrams", Config{Tokenize: tokenize.Config{HanChars: tokenize.NGramRange{Min: 1, Max: 1}}}, zh},
	} {
		tc.cfg.Fast = true // the machinery under one configuration; choice has its own tests
		t.Run(tc.name, func(t *testing.T) {
			o := CVOptions{Folds: 3, Seed: 7}
			r := crossValidate(t, tc.cfg, tc.docs, o)
			labels := make([]string, len(tc.docs))
			for i, d := range tc.docs {
				labels[i] = d.Label
			}
			folds := split.StratifiedKFold(labels, o.Folds, o.Seed)
			if len(r.Folds) != len(folds) {
				t.Fatalf("%d folds, want %d", len(r.Folds), len(folds))
			}
			var cvPredictor *Predictor
			for k, test := range folds {
				tr, err := NewTrainer(tc.cfg)
				if err != nil {
					t.Fatal(err)
				}
				for _, i := range split.FoldTrain(nil, folds, k) {
					tr.Add(tc.docs[i].Label, tc.docs[i].Text)
				}
				m, s, err := tr.Finish()
				if err != nil {
					t.Fatal(err)
				}
				if got := r.Folds[k]; got.Features != s.Features || got.Test != len(test) || got.Train != s.Documents {
					t.Errorf("fold %d: %d features, %d+%d documents; training on its complement: %d features, %d documents",
						k, got.Features, got.Train, got.Test, s.Features, s.Documents)
				}
				if tc.cfg.Vectorizer == Vocab && r.Folds[k].MinDF != s.MinDF {
					t.Errorf("fold %d: min_df %d, training %d", k, r.Folds[k].MinDF, s.MinDF)
				}
				ev := metrics.NewEvaluator(m.Classes)
				p := m.NewPredictor()
				for _, i := range test {
					_, c := p.Proba(nil, tc.docs[i].Text)
					ev.AddProba(tc.docs[i].Label, c, nil)
					if want := m.Classes[c]; r.Predicted[i] != want {
						t.Errorf("fold %d document %d: cross-validation predicts %q, training on the complement %q", k, i, r.Predicted[i], want)
					}
				}
				if got, want := r.Folds[k].Evaluation.Accuracy, ev.Result().Accuracy; got != want {
					t.Errorf("fold %d: accuracy %g, training on the complement %g", k, got, want)
				}
				cvPredictor = p
			}
			if cvPredictor == nil || r.Accuracy.Mean <= 0 || math.IsNaN(r.MacroF1.SD) {
				t.Errorf("summary %+v %+v", r.Accuracy, r.MacroF1)
			}
		})
	}
}

func TestCrossValidateErrors(t *testing.T) {
	docs := readDocs(t, "../../testdata/spam.tsv")
	for _, tc := range []struct {
		name string
		cfg  Config
		o    CVOptions
		want error
	}{
		{"one fold", Config{}, CVOptions{Folds: 1}, ErrConfig},
		{"more folds than documents", Config{}, CVOptions{Folds: len(docs) + 1}, ErrConfig},
		{"semi-supervised", Config{Semi: Semi{Method: EM}}, CVOptions{}, ErrConfig},
		{"max_df below min_df", Config{Vocab: vectorize.VocabConfig{MinDF: 50, MaxDF: 0.1}}, CVOptions{}, ErrConfig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := trainerOf(t, tc.cfg, docs).CrossValidate(tc.o); !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
	tr, _ := NewTrainer(Config{})
	if _, err := tr.CrossValidate(CVOptions{}); !errors.Is(err, ErrNoDocuments) {
		t.Errorf("no documents: %v", err)
	}
}

// TestByDFDescending compares the counting sort with a stable sort.
func TestByDFDescending(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 1000} {
		df := make([]int64, n)
		for j := range df {
			df[j] = r.Int64N(20)
		}
		for _, lo := range []int64{0, 1, 3, 25} {
			var want []int32
			for j, v := range df {
				if v >= lo {
					want = append(want, int32(j))
				}
			}
			slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(df[b], df[a]) })
			if got := byDFDescending(df, lo); !slices.Equal(got, want) {
				t.Fatalf("%d columns, lo %d: %v, want %v", n, lo, got, want)
			}
		}
	}
}
