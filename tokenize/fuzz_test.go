package tokenize

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// fuzzAnalyzers caches an Analyzer per configuration FuzzAnalyzer picks.
var fuzzAnalyzers sync.Map

// FuzzAnalyzer analyzes any text under configurations picked by flags and
// n: every term must be non-empty UTF-8 (for UTF-8 text), Terms must be the
// word n-grams of Words followed by its extra terms, and a second pass must
// give the same terms.
func FuzzAnalyzer(f *testing.F) {
	for _, s := range []string{
		"The quick brown fox jumps over the lazy dog",
		"e-mail don't jo@example.com 3.14 U.S.A. co-op's",
		"我们在北京天安门广场 hello 世界",
		"Ｆｕｌｌｗｉｄｔｈ ＡＢＣ ﬁne café naïve <\u0338 ǅemal İstanbul ß",
		"مرحبا بالعالم Привет мир 😀👍🏽 \u200d\ufeff",
		"running runs ran easily fairly generously",
		"",
	} {
		f.Add(s, uint16(0), uint8(0))
		f.Add(s, uint16(0xffff), uint8(7))
	}
	f.Fuzz(func(t *testing.T, text string, flags uint16, n uint8) {
		cfg := Config{
			MinLen:         int(flags & 3),
			HanMinLen:      int(flags >> 2 & 3),
			KeepCase:       flags&(1<<4) != 0,
			Stopwords:      StopwordSet(flags >> 5 & 3),
			Stem:           flags&(1<<7) != 0,
			SplitCompounds: flags&(1<<8) != 0,
			NoHanWords:     flags&(1<<9) != 0,
			WordNGrams:     NGramRange{Min: 1 + int(n&1), Max: 1 + int(n&1) + int(n>>1&3)},
		}
		if k := int(n >> 3 & 3); k > 0 {
			cfg.HanChars = NGramRange{Min: 1, Max: k}
		}
		v, ok := fuzzAnalyzers.Load(cfg)
		if !ok {
			v, _ = fuzzAnalyzers.LoadOrStore(cfg, testNew(cfg))
		}
		a := v.(*Analyzer)
		terms := a.Terms(nil, text)
		for _, term := range terms {
			if term == "" || utf8.ValidString(text) && !utf8.ValidString(term) {
				t.Fatalf("%+v: %q gives term %q", cfg, text, term)
			}
		}
		words, extra := a.newWorker().Words(nil, nil, text)
		var grams []string
		r := a.Config().WordNGrams
		for k := r.Min; k <= r.Max; k++ {
			for i := 0; i+k <= len(words); i++ {
				grams = append(grams, strings.Join(words[i:i+k], " "))
			}
		}
		if !sameTerms(terms, append(grams, extra...)) {
			t.Fatalf("%+v: %q: Terms %q, Words %q and %q", cfg, text, terms, words, extra)
		}
		if again := a.Terms(nil, text); !slices.Equal(again, terms) {
			t.Fatalf("%+v: %q: Terms %q, then %q", cfg, text, terms, again)
		}
	})
}

// sameTerms reports whether a and b hold the same terms, in any order
// (Terms orders the n-grams by length, then position).
func sameTerms(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
