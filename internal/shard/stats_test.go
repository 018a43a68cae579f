package shard

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

const (
	newsTrain = "../../testdata/news/train"
	newsTest  = "../../testdata/news/test"
)

// readLabeled returns the labeled documents of path, in order.
func readLabeled(t testing.TB, path string) []labeled {
	t.Helper()
	var docs []labeled
	_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		docs = append(docs, labeled{d.Label, d.Text})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// trainInParts trains on docs split into k consecutive parts, in two
// passes, merging the parts' statistics as a tree: (1+2)+(3+4)….
// trainAsOne trains one model on docs.
func trainAsOne(t *testing.T, cfg pipeline.Config, docs []labeled) *pipeline.Model {
	t.Helper()
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if err := tr.Add(d.label, d.text); err != nil {
			t.Fatal(err)
		}
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// close reports whether a and b are within 1e-12 of each other, relative
// to the larger if it is above 1.
func close(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*max(1, math.Abs(a), math.Abs(b))
}

func trainInParts(t *testing.T, cfg pipeline.Config, docs []labeled, k int) (*pipeline.Model, error) {
	t.Helper()
	parts := make([][]labeled, k)
	for i := range k {
		parts[i] = docs[i*len(docs)/k : (i+1)*len(docs)/k]
	}
	dfs := make([]*DocFreqs, k)
	for i, p := range parts {
		c, err := NewDocFreqCounter(cfg)
		if err != nil {
			return nil, err
		}
		for _, d := range p {
			c.Add(d.label, d.text)
		}
		if dfs[i], err = c.DocFreqs(); err != nil {
			return nil, err
		}
	}
	all, err := mergeTree(dfs, MergeDocFreqs)
	if err != nil {
		return nil, err
	}
	prep, err := all.Prepare()
	if err != nil {
		return nil, err
	}
	sums := make([]*ClassSums, k)
	for i, p := range parts {
		s := prep.NewSummer()
		for _, d := range p {
			if err := s.Add(d.label, d.text); err != nil {
				return nil, err
			}
		}
		if sums[i], err = s.Sums(); err != nil {
			return nil, err
		}
	}
	total, err := mergeTree(sums, MergeClassSums)
	if err != nil {
		return nil, err
	}
	return prep.Build(total)
}

func mergeTree[T any](xs []T, merge func(a, b T) (T, error)) (T, error) {
	for len(xs) > 1 {
		var next []T
		for i := 0; i < len(xs); i += 2 {
			if i+1 == len(xs) {
				next = append(next, xs[i])
				continue
			}
			m, err := merge(xs[i], xs[i+1])
			if err != nil {
				return m, err
			}
			next = append(next, m)
		}
		xs = next
	}
	return xs[0], nil
}

// TestPartsTrainAsOneTwoClasses checks that the zero Classifier becomes
// the same model in parts as in one training when there are two classes.
func TestPartsTrainAsOneTwoClasses(t *testing.T) {
	docs := readLabeled(t, "../../testdata/spam.tsv")
	want := trainAsOne(t, pipeline.Config{Fast: true}, docs) // parts cannot choose or calibrate
	got, err := trainInParts(t, pipeline.Config{}, docs, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Config.Classifier != pipeline.Multinomial || got.Config.Alpha != pipeline.DefaultBinaryAlpha ||
		want.Config.Classifier != got.Config.Classifier || want.Config.Alpha != got.Config.Alpha {
		t.Fatalf("parts %v alpha %g, one training %v alpha %g; want mnb alpha %g", got.Config.Classifier, got.Config.Alpha,
			want.Config.Classifier, want.Config.Alpha, pipeline.DefaultBinaryAlpha)
	}
	gp, wp := got.NewPredictor(), want.NewPredictor()
	for i, d := range docs {
		a, ca := gp.Proba(nil, d.text)
		b, cb := wp.Proba(nil, d.text)
		if ca != cb || !close(a[ca], b[cb]) {
			t.Fatalf("document %d: class %d p %g in parts, %d p %g in one training", i, ca, a[ca], cb, b[cb])
		}
	}
}

// TestPartsTrainAsOne checks that training in parts gives the model of one
// training, to 1e-12 in every weight, with the same predictions.
func TestPartsTrainAsOne(t *testing.T) {
	docs := readLabeled(t, newsTrain)
	test := readLabeled(t, newsTest)
	for _, cfg := range []pipeline.Config{
		{},
		{Weighting: pipeline.Rennie, Norm: true},
		{Classifier: pipeline.Multinomial, Weighting: pipeline.RawCounts, Vocab: vectorize.VocabConfig{MaxFeatures: 300, MaxDF: 0.5}},
		{Classifier: pipeline.Bernoulli, Vocab: vectorize.VocabConfig{MinDF: 2}},
		{Vectorizer: pipeline.Hash, HashFeatures: 1 << 14},
		{MaxTableSize: 20000}, // automatic min_df above 1
	} {
		cfg.Fast = true // parts train the plain default: choice needs every row
		want := trainAsOne(t, cfg, docs)
		got, err := trainInParts(t, cfg, docs, 4)
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		if !slices.Equal(got.Classes, want.Classes) || got.Config.Vocab != want.Config.Vocab || got.NumFeatures() != want.NumFeatures() {
			t.Fatalf("%+v: classes %v, vocab %+v, %d features; want %v, %+v, %d", cfg, got.Classes, got.Config.Vocab,
				got.NumFeatures(), want.Classes, want.Config.Vocab, want.NumFeatures())
		}
		// The vocabulary's ids may differ: compare the weights term by term.
		col := make([]int, got.NumFeatures()) // want's column of got's column j
		for j := range col {
			col[j] = j
		}
		if gt, wt := got.Terms(), want.Terms(); gt != nil {
			at := map[string]int{}
			for j, term := range wt {
				at[term] = j
			}
			for j, term := range gt {
				k, ok := at[term]
				if !ok {
					t.Fatalf("%+v: term %q only in parts", cfg, term)
				}
				col[j] = k
			}
		}
		for c := range got.Classes {
			gw, gb := got.ClassWeights(c)
			ww, wb := want.ClassWeights(c)
			if !close(gb, wb) {
				t.Fatalf("%+v: class %d's bias %g, want %g", cfg, c, gb, wb)
			}
			for j, w := range gw {
				if !close(w, ww[col[j]]) {
					t.Fatalf("%+v: class %d, feature %d: weight %g, want %g", cfg, c, j, w, ww[col[j]])
				}
			}
		}
		gp, wp := got.NewPredictor(), want.NewPredictor()
		for i, d := range test {
			if _, a := gp.Proba(nil, d.text); func() bool { _, b := wp.Proba(nil, d.text); return a != b }() {
				t.Fatalf("%+v: test document %d predicted differently", cfg, i)
			}
		}
	}
}

func TestPartsRefuse(t *testing.T) {
	if _, err := NewDocFreqCounter(pipeline.Config{Semi: pipeline.Semi{Method: pipeline.EM}}); !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("semi-supervised: got %v, want ErrConfig", err)
	}
	if _, err := NewFeaturizer(pipeline.Config{}); !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("Featurizer with Lang Auto: got %v, want ErrConfig", err)
	}
	count := func(cfg pipeline.Config, docs ...labeled) *DocFreqs {
		c, err := NewDocFreqCounter(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			c.Add(d.label, d.text)
		}
		d, err := c.DocFreqs()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := count(pipeline.Config{}, labeled{"x", "the cat sat"}, labeled{"y", "a dog ran"})
	b := count(pipeline.Config{Weighting: pipeline.RawCounts}, labeled{"x", "the cat sat"})
	if _, err := MergeDocFreqs(a, b); !errors.Is(err, ErrStats) {
		t.Errorf("different weightings: got %v, want ErrStats", err)
	}
	p, err := a.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	s := p.NewSummer()
	if err := s.Add("z", "an unseen class"); !errors.Is(err, ErrStats) {
		t.Errorf("unseen class: got %v, want ErrStats", err)
	}
	if err := s.Add("x", "the cat sat"); err != nil {
		t.Fatal(err)
	}
	sums, err := s.Sums()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Build(sums); !errors.Is(err, ErrStats) {
		t.Errorf("sums of 1 document for 2: got %v, want ErrStats", err)
	}
}

// TestBuildRefusesExtremeAlpha checks that Build, as training does, refuses
// an alpha that makes infinite weights, rather than return a model that
// Save writes and Load refuses as damaged.
func TestBuildRefusesExtremeAlpha(t *testing.T) {
	docs := readLabeled(t, newsTrain)
	if _, err := trainInParts(t, pipeline.Config{Alpha: 1e308}, docs, 2); !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("Build with alpha 1e308: %v, want ErrConfig", err)
	}
}

// TestPrepareRefusesClasslessDocFreqs checks that statistics whose class
// counts do not add up to their documents, as a damaged file may hold, are
// refused rather than panic in Prepare.
func TestPrepareRefusesClasslessDocFreqs(t *testing.T) {
	c, err := NewDocFreqCounter(pipeline.Config{Tokenize: tokenize.Config{Lang: tokenize.English}})
	if err != nil {
		t.Fatal(err)
	}
	c.Add("a", "hello world")
	c.Add("b", "goodbye world")
	d, err := c.DocFreqs()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []func(d DocFreqs) DocFreqs{
		func(d DocFreqs) DocFreqs { d.Classes, d.ClassDocs = nil, nil; return d },
		func(d DocFreqs) DocFreqs { d.ClassDocs = []int64{2, -1}; return d },
		func(d DocFreqs) DocFreqs { d.Classes = []string{"a", "a"}; return d },
		func(d DocFreqs) DocFreqs { d.Classes = []string{"a", ""}; return d },
	} {
		b := bad(*d)
		if _, err := b.Prepare(); !errors.Is(err, ErrStats) {
			t.Errorf("Prepare of classes %q with %v documents: %v, want ErrStats", b.Classes, b.ClassDocs, err)
		}
	}
}

// TestPartsRefuseReweighting checks that training in parts refuses
// reweighting, whose gains depend on every document, with the sentinel.
func TestPartsRefuseReweighting(t *testing.T) {
	cfg := pipeline.Config{Reweight: 3}
	if _, err := NewDocFreqCounter(cfg); !errors.Is(err, pipeline.ErrReweighted) {
		t.Errorf("NewDocFreqCounter: %v", err)
	}
	cfg.Tokenize.Lang = tokenize.English
	if _, err := NewFeaturizer(cfg); !errors.Is(err, pipeline.ErrReweighted) {
		t.Errorf("NewFeaturizer: %v", err)
	}
}
