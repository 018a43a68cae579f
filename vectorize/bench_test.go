package vectorize_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/textnb/textnb/internal/postings"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/vectorize"
)

// benchCorpus is a synthetic stand-in for the 20 Newsgroups training set
// with unigrams and bigrams: 11,314 documents of Zipf-distributed words,
// 6.7M terms with 1.27M distinct (the real set has 3.37M unigrams of 130k
// distinct and 3.36M bigrams of 1.05M distinct). Like a tokenizer's output,
// the terms are substrings of their document's text.
var benchCorpus = sync.OnceValues(func() ([][]string, int) {
	const docs, perDoc = 11314, 298
	r := rand.New(rand.NewPCG(3, 5))
	z := rand.NewZipf(r, 1.25, 2.7, 1<<19)
	words := map[uint64]string{}
	out := make([][]string, docs)
	n := 0
	var text strings.Builder
	var ends []int
	for i := range out {
		text.Reset()
		ends = ends[:0]
		for k := r.IntN(2 * perDoc); k > 0; k-- {
			rank := z.Uint64()
			w, ok := words[rank]
			if !ok {
				w = benchWord(rank)
				words[rank] = w
			}
			if text.Len() > 0 {
				text.WriteByte(' ')
			}
			text.WriteString(w)
			ends = append(ends, text.Len())
		}
		s := text.String()
		terms := make([]string, 0, 2*len(ends))
		start := func(k int) int {
			if k == 0 {
				return 0
			}
			return ends[k-1] + 1
		}
		for k, e := range ends {
			terms = append(terms, s[start(k):e])
		}
		for k := 1; k < len(ends); k++ {
			terms = append(terms, s[start(k-1):ends[k]])
		}
		out[i] = terms
		n += len(terms)
	}
	return out, n
})

// benchWord spells rank as a pronounceable word of 2–12 letters.
func benchWord(rank uint64) string {
	const cons, vows = "bcdfghklmnprstvz", "aeiou"
	h := rank*0x9e3779b97f4a7c15 + 1
	b := make([]byte, 0, 12)
	for l := 2 + int(h%5) + min(5, bits.Len64(rank)/4); len(b) < l; h /= 80 {
		b = append(b, cons[h%16], vows[h/16%5])
	}
	return string(b)
}

func BenchmarkVocabBuild(b *testing.B) {
	docs, tokens := benchCorpus()
	var terms, cols int
	for b.Loop() {
		v, X, err := vectorize.FitVocab(vectorize.VocabConfig{}, slices.Values(docs))
		if err != nil {
			b.Fatal(err)
		}
		terms, cols = v.Len(), X.NNZ()
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
	b.ReportMetric(float64(terms), "terms")
	b.ReportMetric(float64(cols), "nnz")
}

func BenchmarkHashingTransform(b *testing.B) {
	docs, tokens := benchCorpus()
	for _, alt := range []bool{false, true} {
		b.Run(fmt.Sprintf("alternate=%v", alt), func(b *testing.B) {
			benchTransform(b, docs, tokens, vectorize.Hashing{AlternateSign: alt}.Transform)
		})
	}
}

// benchVocab builds the vocabulary and matrix of benchCorpus.
func benchVocab(b *testing.B, cfg vectorize.VocabConfig) (*vectorize.Vocabulary, *vectorize.CSR) {
	docs, _ := benchCorpus()
	v, X, err := vectorize.FitVocab(cfg, slices.Values(docs))
	if err != nil {
		b.Fatal(err)
	}
	return v, X
}

func BenchmarkVocabularyTransform(b *testing.B) {
	docs, tokens := benchCorpus()
	v, _ := benchVocab(b, vectorize.VocabConfig{MinDF: 2})
	v.ID("") // build the lookup table outside the timing
	benchTransform(b, docs, tokens, v.Transform)
}

// benchTransform times transform over docs, reporting tokens per second.
func benchTransform(b *testing.B, docs [][]string, tokens int, transform func([]int32, []float64, []string) ([]int32, []float64)) {
	var idx []int32
	var val []float64
	for b.Loop() {
		for _, d := range docs {
			idx, val = transform(idx[:0], val[:0], d)
		}
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

func BenchmarkPostings(b *testing.B) {
	_, X := benchVocab(b, vectorize.VocabConfig{})
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if _, err := postings.New(sparseOf(X), 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkTFIDFTransformRow(b *testing.B) {
	docs, tokens := benchCorpus()
	v, X := benchVocab(b, vectorize.VocabConfig{MinDF: 2})
	tf := vectorize.TFIDF{SublinearTF: true}
	if err := tf.Fit(X); err != nil {
		b.Fatal(err)
	}
	v.ID("") // build the lookup table outside the timing
	var idx []int32
	var val []float64
	for b.Loop() {
		for _, d := range docs {
			idx, val = v.Transform(idx[:0], val[:0], d)
			if err := tf.TransformRow(idx, val); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

func sparseOf(m *vectorize.CSR) *sparse.CSR { return (*sparse.CSR)(m) }
