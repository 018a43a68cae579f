package vectorize_test

import (
	"fmt"
	"sync"

	"github.com/textnb/textnb/vectorize"
)

func ExampleCSR() {
	X := vectorize.NewCSR(4)
	X.AppendRow([]int32{0, 3}, []float64{2, 1})
	X.AppendRow(nil, nil)
	X.AppendRow([]int32{1}, []float64{5})
	idx, val := X.Row(2)
	fmt.Println(X.Rows, X.NNZ(), idx, val, X.ColumnSums(nil), X.Validate())
	// Output: 3 3 [1] [5] [2 5 0 1] <nil>
}

func ExampleVocabBuilder() {
	var b vectorize.VocabBuilder
	b.Add([]string{"spam", "eggs", "spam"})
	b.Add([]string{"ham", "eggs"})
	vocab, X, err := vectorize.FinishVocab(vectorize.VocabConfig{}, &b)
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

func ExampleFinishVocab() {
	docs := [][]string{{"a", "b"}, {"b", "c"}, {"c", "c", "d"}, {"d"}}
	// One builder per worker, each over a contiguous shard of documents.
	shards := []*vectorize.VocabBuilder{vectorize.NewVocabBuilder(), vectorize.NewVocabBuilder()}
	var wg sync.WaitGroup
	for k, b := range shards {
		wg.Go(func() {
			for _, d := range docs[2*k : 2*k+2] {
				b.Add(d)
			}
		})
	}
	wg.Wait()
	vocab, X, err := vectorize.FinishVocab(vectorize.VocabConfig{MinDF: 2}, shards...)
	if err != nil {
		panic(err)
	}
	fmt.Println(vocab.Terms(), X.Rows, X.Indices, X.Data)
	// Output: [b c d] 4 [0 0 1 1 2 2] [1 1 1 2 1 1]
}

func ExampleVocabConfig() {
	var b vectorize.VocabBuilder
	for _, d := range [][]string{{"the", "cat"}, {"the", "dog", "dog", "dog"}, {"the", "cat", "sat"}} {
		b.Add(d)
	}
	for _, cfg := range []vectorize.VocabConfig{
		{},
		{MinDF: 2},
		{MaxDF: 0.9},
		{MaxFeatures: 2},
		{MaxFeatures: 2, Binary: true},
	} {
		vocab, _, err := vectorize.FinishVocab(cfg, &b)
		fmt.Println(vocab.Terms(), err)
	}
	_, _, err := vectorize.FinishVocab(vectorize.VocabConfig{MinDF: 3, MaxDF: 0.9}, &b)
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
	vocab, err := vectorize.NewVocabulary([]string{"bayes", "naive", "spam"})
	if err != nil {
		panic(err)
	}
	idx, val := vocab.Transform(nil, nil, []string{"spam", "naive", "unknown", "spam"})
	id, ok := vocab.ID("naive")
	fmt.Println(idx, val, id, ok, vocab.Term(2))
	// Output: [1 2] [1 2] 1 true spam
}

func ExampleMergeVocabularies() {
	a, _ := vectorize.NewVocabulary([]string{"ham", "spam"})
	b, _ := vectorize.NewVocabulary([]string{"eggs", "spam"})
	u, fromA, fromB := vectorize.MergeVocabularies(a, b)
	fmt.Println(u.Terms(), fromA, fromB)
	// Output: [eggs ham spam] [1 2] [0 2]
}

func ExampleHashing() {
	// With only 16 columns, "naive" collides with "the".
	h := vectorize.Hashing{Features: 16}
	idx, val := h.Transform(nil, nil, []string{"the", "naive", "bayes", "the"})
	fmt.Println(idx, val)
	// Output: [4 14] [1 3]
}

func ExampleMurmur3() {
	fmt.Println(vectorize.Murmur3([]byte("spam"), 0), int32(vectorize.Murmur3String("spam", 0)))
	// Output: 2713519960 -1581447336
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

func ExamplePostings() {
	X := vectorize.FromDense([][]float64{{1, 1, 3}, {0, 1, 5}, {5, 4, 1}, {6, 6, 2}, {1, 4, 0}, {0, 0, 0}})
	y := []int{1, 1, 0, 0, 2, 2}
	p, err := vectorize.NewPostings(X, 0)
	if err != nil {
		panic(err)
	}
	scores, err := p.Chi2(y, 3)
	if err != nil {
		panic(err)
	}
	keep := vectorize.SelectTopK(scores, 2)
	S, _ := X.SelectColumns(keep)
	fmt.Printf("df %d, chi2 %.4f, keep %v, %d columns\n", p.DF(0), scores, keep, S.Cols)
	// Output: df 4, chi2 [15.3846 6.5000 8.9091], keep [0 2], 2 columns
}

func ExampleVocabCounts() {
	shards := []*vectorize.VocabBuilder{vectorize.NewVocabBuilder(), vectorize.NewVocabBuilder()}
	shards[0].Add([]string{"a", "b", "b"})
	shards[1].Add([]string{"b", "c"})
	shards[1].Add([]string{"c", "d"})
	counts, err := vectorize.MergeVocab(shards...)
	if err != nil {
		panic(err)
	}
	// Merge once, then choose the pruning: at most 2 columns.
	minDF := counts.MinDFFor(2, 0)
	vocab, X, err := counts.Finish(vectorize.VocabConfig{MinDF: minDF})
	fmt.Println(counts.Len(), counts.Rows(), minDF, vocab.Terms(), X.Data, err)
	// Output: 4 3 2 [b c] [2 1 1 1] <nil>
}

func ExampleNGrams() {
	var b vectorize.VocabBuilder
	b.AddWords([]string{"not", "good", "at", "all"}, vectorize.NGrams{Min: 1, Max: 2}, nil)
	b.AddWords([]string{"good", "at", "last"}, vectorize.NGrams{Min: 1, Max: 2}, []string{"extra"})
	c, err := vectorize.MergeVocab(&b)
	if err != nil {
		panic(err)
	}
	vocab, X, err := c.Consume(vectorize.VocabConfig{MinDF: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(vocab.Terms(), X.Rows, b.Rows())
	idx, val, _ := vocab.TransformWords(nil, nil, nil, []string{"good", "at", "good"}, vectorize.NGrams{Min: 1, Max: 2}, nil)
	fmt.Println(idx, val)
	// Output:
	// [at good good at] 2 0
	// [0 1 2] [1 2 1]
}

func ExampleWordCoder() {
	// Code runs where the documents are tokenized, on any goroutine; the
	// builder adds the coded documents in order on one goroutine.
	var coder vectorize.WordCoder
	var b vectorize.VocabBuilder
	r := vectorize.NGrams{Min: 1, Max: 2}
	for _, words := range [][]string{{"to", "be", "or", "not", "to", "be"}, {"not", "now"}} {
		var d vectorize.CodedDoc
		coder.Code(&d, words, r, nil)
		b.AddCoded(&d)
	}
	vocab, X, err := vectorize.FinishVocab(vectorize.VocabConfig{}, &b)
	if err != nil {
		panic(err)
	}
	fmt.Println(vocab.Terms())
	fmt.Println(X.Row(0))
	// Output:
	// [be be or not not now not to now or or not to to be]
	// [0 1 2 4 6 7 8 9] [2 1 1 1 1 1 2 2]
}

func ExampleCodedDoc() {
	var coder vectorize.WordCoder
	var d vectorize.CodedDoc
	coder.Code(&d, []string{"spam", "spam", "spam"}, vectorize.NGrams{Min: 1, Max: 2}, nil)
	fmt.Println(d.Len()) // "spam" three times and "spam spam" twice: two distinct terms
	coder.Code(&d, nil, vectorize.NGrams{}, nil)
	fmt.Println(d.Len()) // a document without terms
	// Output:
	// 2
	// 0
}

func ExamplePruned() {
	var b vectorize.VocabBuilder
	b.Add([]string{"spam", "eggs", "spam"})
	b.Add([]string{"ham", "eggs"})
	b.Add([]string{"spam"})
	merged, err := vectorize.MergeVocab(&b)
	if err != nil {
		panic(err)
	}
	p, err := merged.PruneConsume(vectorize.VocabConfig{MinDF: 2})
	if err != nil {
		panic(err)
	}
	vocab := p.Provisional() // the ids Row gives, in first-seen order
	for i := range p.Rows() {
		idx, val := p.Row(i, nil, nil)
		fmt.Printf("doc %d:", i)
		for k, id := range idx {
			fmt.Printf(" %s×%g (df %d)", vocab.Term(int(id)), val[k], p.DF()[id])
		}
		fmt.Println()
	}
	sorted, final := p.Vocabulary() // sorted as scikit-learn numbers them, and the map to it
	fmt.Println(sorted.Terms(), final)
	// Output:
	// doc 0: spam×2 (df 2) eggs×1 (df 2)
	// doc 1: eggs×1 (df 2)
	// doc 2: spam×1 (df 2)
	// [eggs spam] [1 0]
}
