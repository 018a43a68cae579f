package tokenize_test

import (
	"fmt"
	"strings"
	"sync"

	"github.com/textnb/textnb/tokenize"
)

func ExampleAnalyzer() {
	a := tokenize.New(tokenize.Config{Stem: true})
	fmt.Println(a.Terms(nil, "The runners were RUNNING; don't stop!"))
	// Output: [the runner were run don't stop]
}

func ExampleConfig() {
	cfg := tokenize.Config{Stopwords: tokenize.EnglishStopwords, WordNGrams: tokenize.NGramRange{Min: 1, Max: 2}}
	a := tokenize.New(cfg)
	fmt.Println(a.Terms(nil, "This movie was not good at all"))
	fmt.Printf("%+v\n", tokenize.Config{}.WithDefaults())
	// Output:
	// [movie good movie good]
	// {MinLen:2 HanMinLen:1 KeepCase:false Stopwords:none Stem:false SplitCompounds:false WordNGrams:[1,1] HanChars:[0,0] NoHanWords:false Lang:auto}
}

func ExampleNGramRange() {
	// Han character bigrams instead of dictionary words.
	cfg := tokenize.Config{NoHanWords: true, HanChars: tokenize.NGramRange{Min: 2, Max: 2}}
	fmt.Println(tokenize.New(cfg).Terms(nil, "自然语言, language"))
	// Output: [language 自然 然语 语言]
}

func ExampleStopwordSet() {
	set, err := tokenize.ParseStopwordSet("en,zh")
	fmt.Println(set, err, set&tokenize.EnglishStopwords != 0)
	// Output: en,zh <nil> true
}

func ExampleLang() {
	l, err := tokenize.ParseLang("zh")
	fmt.Println(l == tokenize.Chinese, err)
	fmt.Println(tokenize.DetectLang("朴素贝叶斯分类器 (naive Bayes)"))
	// Output:
	// true <nil>
	// zh
}

func ExampleLangDetector() {
	var d tokenize.LangDetector
	for _, doc := range []string{"Spam, spam, spam.", "Lovely spam!", "垃圾邮件"} {
		d.Add(doc)
	}
	fmt.Println(d.Lang())
	// Output: en
}

// runeSegmenter cuts Han text into single characters.
type runeSegmenter struct{}

func (runeSegmenter) Cut(dst []string, han string) []string {
	for _, r := range han {
		dst = append(dst, string(r))
	}
	return dst
}

func ExampleSegmenter() {
	a := tokenize.NewWithSegmenter(tokenize.Config{}, runeSegmenter{})
	fmt.Println(a.Terms(nil, "中文 text"))
	// Output: [中 文 text]
}

func ExampleScriptTokenizer() {
	text := "Go语言 カナ ＡＢ"
	for _, tok := range (tokenize.ScriptTokenizer{}).Tokenize(nil, text) {
		fmt.Println(text[tok.Start:tok.End], tok.Script)
	}
	// Output:
	// Go latin
	// 语言 han
	// カナ other
	// ＡＢ latin
}

func ExampleTokenizer() {
	var t tokenize.Tokenizer = tokenize.ScriptTokenizer{}
	fmt.Println(len(t.Tokenize(nil, "one, two-three")))
	// Output: 2
}

func ExampleToken() {
	text := "hello, world"
	toks := (tokenize.ScriptTokenizer{}).Tokenize(nil, text)
	fmt.Printf("%+v %q\n", toks[1], text[toks[1].Start:toks[1].End])
	// Output: {Start:7 End:12 Script:latin} "world"
}

func ExampleScript() {
	fmt.Println(tokenize.Latin, tokenize.Han, tokenize.Other)
	// Output: latin han other
}

func ExampleTokenFilter() {
	chain := []tokenize.TokenFilter{
		tokenize.LowerCase{},
		tokenize.MinLength{N: 3},
		tokenize.StopFilter(tokenize.IsEnglishStopword),
		tokenize.Stemmer{},
	}
	var out []string
	for _, w := range strings.Fields("The Quick Foxes ARE jumping") {
		term := []byte(w)
		for _, f := range chain {
			if term = f.Filter(term); len(term) == 0 {
				break
			}
		}
		if len(term) > 0 {
			out = append(out, string(term))
		}
	}
	fmt.Println(out)
	// Output: [quick fox jump]
}

func ExampleLowerCase() {
	fmt.Printf("%s\n", tokenize.LowerCase{}.Filter([]byte("ÉCOLE Straße")))
	// Output: école straße
}

func ExampleMinLength() {
	f := tokenize.MinLength{N: 3}
	fmt.Printf("%q %q\n", f.Filter([]byte("ab")), f.Filter([]byte("été")))
	// Output: "" "été"
}

func ExampleStopFilter() {
	f := tokenize.StopFilter(tokenize.IsEnglishStopword)
	fmt.Printf("%q %q\n", f.Filter([]byte("the")), f.Filter([]byte("bayes")))
	// Output: "" "bayes"
}

func ExampleStemmer() {
	for _, w := range []string{"classification", "classifiers", "Running"} {
		fmt.Printf("%s ", tokenize.Stemmer{}.Filter([]byte(w)))
	}
	fmt.Println()
	// Output: classif classifi Running
}

func ExampleAnalyzer_Words() {
	a := tokenize.New(tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 2}})
	words, extra := a.Words(nil, nil, "Naive Bayes, naive!")
	fmt.Println(words, len(extra))
	fmt.Println(a.Terms(nil, "Naive Bayes, naive!"))
	// Output:
	// [naive bayes naive] 0
	// [naive bayes naive naive bayes bayes naive]
}

func ExampleWorker() {
	a := tokenize.New(tokenize.Config{Stem: true})
	docs := []string{"Runners running", "The runner ran", "RUNNING late"}
	var wg sync.WaitGroup
	terms := make([][]string, len(docs))
	for g := range 2 { // each goroutine with a Worker of its own
		wg.Go(func() {
			w := a.NewWorker()
			for i := g; i < len(docs); i += 2 {
				terms[i] = w.Terms(nil, docs[i])
			}
		})
	}
	wg.Wait()
	fmt.Println(terms)
	// Output: [[runner run] [the runner ran] [run late]]
}
