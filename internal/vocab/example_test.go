package vocab_test

import (
	"fmt"

	"github.com/textnb/textnb/internal/ngrams"
	"github.com/textnb/textnb/internal/vocab"
)

func ExampleMergeVocabularies() {
	a, _ := vocab.NewVocabulary([]string{"ham", "spam"})
	b, _ := vocab.NewVocabulary([]string{"eggs", "spam"})
	u, fromA, fromB := vocab.MergeVocabularies(a, b)
	fmt.Println(u.Terms(), fromA, fromB)
	// Output: [eggs ham spam] [1 2] [0 2]
}

func ExampleCounts() {
	shards := []*vocab.Builder{vocab.NewBuilder(), vocab.NewBuilder()}
	shards[0].Add([]string{"a", "b", "b"})
	shards[1].Add([]string{"b", "c"})
	shards[1].Add([]string{"c", "d"})
	counts, err := vocab.Merge(shards...)
	if err != nil {
		panic(err)
	}
	// Merge once, then choose the pruning: at most 2 columns.
	minDF := counts.MinDFFor(2, 0)
	v, X, err := counts.Finish(vocab.Config{MinDF: minDF})
	fmt.Println(counts.Len(), counts.Rows(), minDF, v.Terms(), X.Data, err)
	// Output: 4 3 2 [b c] [2 1 1 1] <nil>
}

func ExampleWordCoder() {
	// Code runs where the documents are tokenized, on any goroutine; the
	// builder adds the coded documents in order on one goroutine.
	var coder vocab.WordCoder
	var b vocab.Builder
	r := ngrams.Range{Min: 1, Max: 2}
	for _, words := range [][]string{{"to", "be", "or", "not", "to", "be"}, {"not", "now"}} {
		var d vocab.CodedDoc
		coder.Code(&d, words, r, nil)
		b.AddCoded(&d)
	}
	v, X, err := vocab.Finish(vocab.Config{}, &b)
	if err != nil {
		panic(err)
	}
	fmt.Println(v.Terms())
	fmt.Println(X.Row(0))
	// Output:
	// [be be or not not now not to now or or not to to be]
	// [0 1 2 4 6 7 8 9] [2 1 1 1 1 1 2 2]
}

func ExampleCodedDoc() {
	var coder vocab.WordCoder
	var d vocab.CodedDoc
	coder.Code(&d, []string{"spam", "spam", "spam"}, ngrams.Range{Min: 1, Max: 2}, nil)
	fmt.Println(d.Len()) // "spam" three times and "spam spam" twice: two distinct terms
	coder.Code(&d, nil, ngrams.Range{}, nil)
	fmt.Println(d.Len()) // a document without terms
	// Output:
	// 2
	// 0
}

func ExamplePruned() {
	var b vocab.Builder
	b.Add([]string{"spam", "eggs", "spam"})
	b.Add([]string{"ham", "eggs"})
	b.Add([]string{"spam"})
	merged, err := vocab.Merge(&b)
	if err != nil {
		panic(err)
	}
	p, err := merged.PruneConsume(vocab.Config{MinDF: 2})
	if err != nil {
		panic(err)
	}
	v := p.Provisional() // the ids Row gives, in first-seen order
	for i := range p.Rows() {
		idx, val := p.Row(i, nil, nil)
		fmt.Printf("doc %d:", i)
		for k, id := range idx {
			fmt.Printf(" %s×%g (df %d)", v.Term(int(id)), val[k], p.DF()[id])
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
