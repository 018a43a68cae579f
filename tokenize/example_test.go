package tokenize_test

import (
	"fmt"
	"sync"

	"github.com/textnb/textnb/tokenize"
)

func ExampleAnalyzer() {
	words := tokenize.NGramRange{Min: 1, Max: 1} // the default adds word bigrams
	a := tokenize.New(tokenize.Config{Stem: true, WordNGrams: words})
	fmt.Println(a.Terms(nil, "The runners were RUNNING; don't stop!"))
	// Output: [the runner were run don't stop]
}

func ExampleConfig() {
	cfg := tokenize.Config{Stopwords: tokenize.EnglishStopwords} // word 1–2-grams by default
	a := tokenize.New(cfg)
	fmt.Println(a.Terms(nil, "This movie was not good at all"))
	fmt.Printf("%+v\n", tokenize.New(tokenize.Config{}).Config()) // defaults spelled out
	// Output:
	// [movie good movie good]
	// {MinLen:2 HanMinLen:1 KeepCase:false Stopwords:none Stem:false SplitCompounds:false WordNGrams:[1,2] HanChars:[0,0] NoHanWords:false Lang:auto}
}

func ExampleNGramRange() {
	// Han character bigrams instead of dictionary words.
	cfg := tokenize.Config{NoHanWords: true, HanChars: tokenize.NGramRange{Min: 2, Max: 2}}
	fmt.Println(tokenize.New(cfg).Terms(nil, "自然语言, language"))
	// Output: [language 自然 然语 语言]
}

func ExampleStopwordSet() {
	var set tokenize.StopwordSet
	err := set.UnmarshalText([]byte("en,zh"))
	fmt.Println(set, err, set&tokenize.EnglishStopwords != 0)
	// Output: en,zh <nil> true
}

func ExampleLang() {
	var l tokenize.Lang
	err := l.UnmarshalText([]byte("zh"))
	fmt.Println(l == tokenize.Chinese, err)
	// Output: true <nil>
}

func ExampleAnalyzer_concurrent() {
	a := tokenize.New(tokenize.Config{Stem: true, WordNGrams: tokenize.NGramRange{Min: 1, Max: 1}})
	docs := []string{"Runners running", "The runner ran", "RUNNING late"}
	var wg sync.WaitGroup
	terms := make([][]string, len(docs))
	for g := range 2 { // one Analyzer, shared by the goroutines
		wg.Go(func() {
			for i := g; i < len(docs); i += 2 {
				terms[i] = a.Terms(nil, docs[i])
			}
		})
	}
	wg.Wait()
	fmt.Println(terms)
	// Output: [[runner run] [the runner ran] [run late]]
}
