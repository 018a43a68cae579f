package vectorize_test

import (
	"fmt"
	"slices"

	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

func ExampleCSR() {
	X := vectorize.NewCSR(4)
	X.AppendRow([]int32{0, 3}, []float64{2, 1})
	X.AppendRow(nil, nil)
	X.AppendRow([]int32{1}, []float64{5})
	idx, val := X.Row(2)
	fmt.Println(X.Rows, X.NNZ(), idx, val, X.Validate())
	// Output: 3 3 [1] [5] <nil>
}

func ExampleFitVocab() {
	docs := [][]string{{"spam", "eggs", "spam"}, {"ham", "eggs"}}
	vocab, X, err := vectorize.FitVocab(vectorize.VocabConfig{}, slices.Values(docs))
	if err != nil {
		panic(err)
	}
	fmt.Println(vocab.Terms())
	for i := 0; i < X.Rows; i++ {
		fmt.Println(X.Row(i))
	}
	// Output:
	// [eggs ham spam]
	// [0 2] [1 2]
	// [0 1] [1 1]
}

// The stages one by one: an Analyzer turns texts into terms, word n-grams
// included, and FitVocab learns their vocabulary.
func ExampleFitVocab_analyzer() {
	a := tokenize.New(tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 2}})
	texts := []string{"Not good at all", "Good at last"}
	terms := func(yield func([]string) bool) {
		for _, t := range texts {
			if !yield(a.Terms(nil, t)) {
				return
			}
		}
	}
	vocab, X, err := vectorize.FitVocab(vectorize.VocabConfig{MinDF: 2}, terms)
	if err != nil {
		panic(err)
	}
	fmt.Println(vocab.Terms(), X.Rows)
	idx, val := vocab.Transform(nil, nil, a.Terms(nil, "good at good"))
	fmt.Println(idx, val)
	// Output:
	// [at good good at] 2
	// [0 1 2] [1 2 1]
}

func ExampleVocabConfig() {
	docs := [][]string{{"the", "cat"}, {"the", "dog", "dog", "dog"}, {"the", "cat", "sat"}}
	for _, cfg := range []vectorize.VocabConfig{
		{},
		{MinDF: 2},
		{MaxDF: 0.9},
		{MaxFeatures: 2},
		{MaxFeatures: 2, Binary: true},
	} {
		vocab, _, err := vectorize.FitVocab(cfg, slices.Values(docs))
		fmt.Println(vocab.Terms(), err)
	}
	_, _, err := vectorize.FitVocab(vectorize.VocabConfig{MinDF: 3, MaxDF: 0.9}, slices.Values(docs))
	fmt.Println(err)
	// Output:
	// [cat dog sat the] <nil>
	// [cat the] <nil>
	// [cat dog sat] <nil>
	// [dog the] <nil>
	// [cat the] <nil>
	// vectorize: invalid configuration: max_df 0.9 is 2.7 of 3 documents, fewer than min_df 3
}

func ExampleVocabulary() {
	vocab, _, err := vectorize.FitVocab(vectorize.VocabConfig{}, slices.Values([][]string{{"naive", "bayes"}, {"spam"}}))
	if err != nil {
		panic(err)
	}
	idx, val := vocab.Transform(nil, nil, []string{"spam", "naive", "unknown", "spam"})
	id, ok := vocab.ID("naive")
	fmt.Println(idx, val, id, ok, vocab.Term(2))
	// Output: [1 2] [1 2] 1 true spam
}

func ExampleHashing() {
	// With only 16 columns, "naive" collides with "the".
	h := vectorize.Hashing{Features: 16}
	idx, val := h.Transform(nil, nil, []string{"the", "naive", "bayes", "the"})
	fmt.Println(idx, val)
	// Output: [4 14] [1 3]
}

func ExampleNorm() {
	row := []float64{3, 4}
	vectorize.NormalizeRow(row, vectorize.L2)
	fmt.Println(row, vectorize.L2, vectorize.L1, vectorize.NoNorm)
	// Output: [0.6 0.8] l2 l1 none
}

func ExampleTFIDF() {
	X := vectorize.FromDense([][]float64{{3, 0}, {1, 1}})
	tf := vectorize.TFIDF{Norm: vectorize.NoNorm}
	if err := tf.Fit(X); err != nil {
		panic(err)
	}
	idx, val := []int32{0, 1}, []float64{2, 1}
	if err := tf.TransformRow(idx, val); err != nil {
		panic(err)
	}
	fmt.Printf("idf %.4f, row %.4f\n", tf.IDF, val)
	// Output: idf [1.0000 1.4055], row [2.0000 1.4055]
}

func ExampleRennie() {
	X := vectorize.FromDense([][]float64{{2, 1, 0}, {0, 1, 0}, {0, 0, 5}})
	var r vectorize.Rennie
	if err := r.Fit(X); err != nil {
		panic(err)
	}
	if err := r.Transform(X); err != nil {
		panic(err)
	}
	idx, val := X.Row(0)
	fmt.Printf("idf %.4f, row 0 %v %.4f\n", r.IDF, idx, val)
	// Output: idf [1.0986 0.4055 1.0986], row 0 [0 1] [0.9739 0.2268]
}
