package tokenize

import (
	"strings"
	"testing"

	"github.com/textnb/textnb/tokenize/zh"
)

// benchTerms measures Terms on text with a warm cache, reporting bytes of
// input per second.
func benchTerms(b *testing.B, a *Analyzer, text string) {
	buf := a.Terms(nil, text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		buf = a.Terms(buf[:0], text)
	}
}

// benchParallel is benchTerms with all cores sharing one Analyzer.
func benchParallel(b *testing.B, a *Analyzer, text string) {
	a.Terms(nil, text)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var buf []string
		for pb.Next() {
			buf = a.Terms(buf[:0], text)
		}
	})
}

var englishDoc = strings.Repeat(englishProse, 4)

func BenchmarkEnglish(b *testing.B) {
	b.Run("stem", func(b *testing.B) { benchTerms(b, testAnalyzer(Config{Stem: true}, nil), englishDoc) })
	b.Run("nostem", func(b *testing.B) { benchTerms(b, testAnalyzer(Config{}, nil), englishDoc) })
	b.Run("stem+stopwords", func(b *testing.B) {
		benchTerms(b, testAnalyzer(Config{Stem: true, Stopwords: EnglishStopwords}, nil), englishDoc)
	})
	b.Run("bigrams", func(b *testing.B) {
		benchTerms(b, testAnalyzer(Config{WordNGrams: NGramRange{1, 2}}, nil), englishDoc)
	})
	b.Run("parallel", func(b *testing.B) { benchParallel(b, testAnalyzer(Config{}, nil), englishDoc) })
	// One curly apostrophe near the start, as typeset English has them.
	b.Run("curly", func(b *testing.B) {
		benchTerms(b, testAnalyzer(Config{}, nil), englishDoc[:40]+" don’t "+englishDoc[40:])
	})
}

func BenchmarkChinese(b *testing.B) { benchHan(b, chineseProse) }

func BenchmarkMixed(b *testing.B) { benchHan(b, mixedProse) }

// benchHan measures text with Han character n-grams, and with dictionary
// words and word bigrams.
func benchHan(b *testing.B, text string) {
	b.Run("chars", func(b *testing.B) {
		benchTerms(b, testAnalyzer(Config{NoHanWords: true, HanChars: NGramRange{1, 2}}, nil), text)
	})
	b.Run("segment", func(b *testing.B) {
		if err := zh.Default().Load(); err != nil {
			b.Skip(err)
		}
		benchTerms(b, testNew(Config{WordNGrams: NGramRange{1, 2}}), text)
	})
}
