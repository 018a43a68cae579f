package shard

import (
	"bytes"
	"errors"
	"testing"

	"github.com/textnb/textnb/internal/pipeline"
)

// TestHashOnePartIsOneTraining checks that the hashing vectorizer's dense
// sums of one part, in order, give the model of one training byte for
// byte: the table adds each cell's rows in row order, as the Trainer does.
func TestHashOnePartIsOneTraining(t *testing.T) {
	docs := readLabeled(t, newsTrain)
	for _, cfg := range []pipeline.Config{
		{Vectorizer: pipeline.Hash, HashFeatures: 1 << 14},
		{Vectorizer: pipeline.Hash, HashFeatures: 1 << 12, Classifier: pipeline.Bernoulli},
	} {
		cfg.Fast = true
		want := trainAsOne(t, cfg, docs)
		got, err := trainInParts(t, cfg, docs, 1)
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		if _, err := got.WriteTo(&a); err != nil {
			t.Fatal(err)
		}
		if _, err := want.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%+v: the model of one part differs from one training's", cfg)
		}
	}
}

// partSums returns the class sums of docs split into k parts.
func partSums(t *testing.T, cfg pipeline.Config, docs []labeled, k int) (*Prepared, []*ClassSums) {
	t.Helper()
	c, err := NewDocFreqCounter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		c.Add(d.label, d.text)
	}
	dfs, err := c.DocFreqs()
	if err != nil {
		t.Fatal(err)
	}
	p, err := dfs.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	sums := make([]*ClassSums, k)
	for i := range k {
		s := p.NewSummer()
		for _, d := range docs[i*len(docs)/k : (i+1)*len(docs)/k] {
			if err := s.Add(d.label, d.text); err != nil {
				t.Fatal(err)
			}
		}
		if sums[i], err = s.Sums(); err != nil {
			t.Fatal(err)
		}
	}
	return p, sums
}

func encoded(t *testing.T, s *ClassSums) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := s.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDenseSumsFile checks that dense sums (dense and sparse classes) are
// read back as written, that Add adds as MergeClassSums does, leaving
// the Summer's later sums alone, and that a damaged file is refused.
func TestDenseSumsFile(t *testing.T) {
	docs := readLabeled(t, newsTrain)
	for _, features := range []int{1 << 8, 1 << 18} { // full classes; classes mostly zero
		cfg := pipeline.Config{Vectorizer: pipeline.Hash, HashFeatures: features, Fast: true}
		_, sums := partSums(t, cfg, docs, 2)
		b := encoded(t, sums[0])
		back, err := ReadClassSums(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encoded(t, back), b) {
			t.Fatalf("%d features: read back differently", features)
		}
		merged, err := MergeClassSums(sums[0], sums[1])
		if err != nil {
			t.Fatal(err)
		}
		if err := back.Add(sums[1]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encoded(t, back), encoded(t, merged)) {
			t.Fatalf("%d features: Add differs from MergeClassSums", features)
		}
		if !bytes.Equal(encoded(t, sums[0]), b) {
			t.Fatalf("%d features: merging changed a part's sums", features)
		}
		for _, cut := range []int{10, len(b) / 2, len(b) - 1} {
			if _, err := ReadClassSums(bytes.NewReader(b[:cut])); !errors.Is(err, pipeline.ErrFormat) {
				t.Errorf("%d features: cut at %d: %v, want ErrFormat", features, cut, err)
			}
		}
		bad := bytes.Clone(b)
		copy(bad[len(bad)-8:], []byte{0, 0, 0, 0, 0, 0, 0xf0, 0xff}) // a NaN sum
		if _, err := ReadClassSums(bytes.NewReader(bad)); !errors.Is(err, pipeline.ErrFormat) {
			t.Errorf("%d features: NaN sum read: %v", features, err)
		}
		if _, err := ReadClassSums(bytes.NewReader(append(bytes.Clone(b), 0))); !errors.Is(err, pipeline.ErrFormat) {
			t.Errorf("%d features: trailing byte read: %v", features, err)
		}
	}
}

// TestSummerSumsAgain checks that a Summer's sums stay as they were
// handed out when it adds more documents.
func TestSummerSumsAgain(t *testing.T) {
	docs := readLabeled(t, newsTrain)
	cfg := pipeline.Config{Vectorizer: pipeline.Hash, HashFeatures: 1 << 10, Fast: true}
	c, _ := NewDocFreqCounter(cfg)
	for _, d := range docs {
		c.Add(d.label, d.text)
	}
	dfs, _ := c.DocFreqs()
	p, err := dfs.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	s := p.NewSummer()
	half := len(docs) / 2
	for _, d := range docs[:half] {
		s.Add(d.label, d.text)
	}
	first, _ := s.Sums()
	was := encoded(t, first)
	for _, d := range docs[half:] {
		s.Add(d.label, d.text)
	}
	all, _ := s.Sums()
	if !bytes.Equal(encoded(t, first), was) {
		t.Fatal("more documents changed sums handed out")
	}
	if m, err := p.Build(all); err != nil || m.NumFeatures() != 1<<10 {
		t.Fatalf("%v", err)
	}
}
