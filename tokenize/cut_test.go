package tokenize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// cutFragments are what random texts are made of: words, connectors,
// separators, Han, full-width and compatibility forms, combining marks,
// invalid bytes.
var cutFragments = []string{
	"word", "Word", "WORDS", "e-mail", "don't", "don’t", "3.14", "jo@x.com", "snake_case", "running",
	" ", " ", " ", "\n", "\t", "\r\n", ",", ".", "-", "'", "’", "@", "(", ")", "...", " - ",
	"。", "，", "！", "、", "；", "「", "」", "中文", "北京大学", "天气很好", "日本語", "ｶﾀｶﾅ", "カタカナ",
	"café", "ﬁne", "ＡＢＣ１２３", "e\u0301", "\u0301", "\u0338", "<", "İstanbul", "ΣΊΣΥΦΟΣ", "Привет",
	"\xff", "\xe4\xb8", "․", "½", "①", "\u3000", "\u00a0", "😀", "한국어",
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(cutFragments[r.IntN(len(cutFragments))])
	}
	return b.String()
}

// TestCutKeepsWords checks that analyzing the pieces Cut makes gives the
// words and extra terms of the whole text, in order, for every kind of
// configuration and piece sizes from tiny to large.
func TestCutKeepsWords(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := []string{"", "a", "ab cd", strings.Repeat("x", 100), "中文。中文，English words"}
	for range 300 {
		texts = append(texts, randomText(r, 1+r.IntN(120)))
	}
	for _, cfg := range []Config{
		{},
		{Stem: true, Stopwords: EnglishStopwords},
		{SplitCompounds: true, KeepCase: true},
		{HanChars: NGramRange{2, 3}, Stopwords: ChineseStopwords},
		{HanChars: NGramRange{1, 2}, NoHanWords: true},
		{NoHanWords: true, MinLen: 1},
	} {
		a := testAnalyzer(cfg, &pairSegmenter{})
		w := a.newWorker()
		for _, text := range texts {
			wantWords, wantExtra := a.newWorker().Words(nil, nil, text)
			for _, size := range []int{0, 1, 3, 8, 40} {
				var words, extra []string
				for rest := text; rest != ""; {
					i := cut(rest, size)
					if i <= 0 || i > len(rest) {
						t.Fatalf("cut(%q, %d) = %d", rest, size, i)
					}
					words, extra = w.Words(words, extra, rest[:i])
					rest = rest[i:]
				}
				if !slices.Equal(words, wantWords) || !slices.Equal(extra, wantExtra) {
					t.Fatalf("%+v, pieces of %d bytes of %q:\n got %q %q\nwant %q %q", cfg, size, text, words, extra, wantWords, wantExtra)
				}
			}
		}
	}
}

func TestCutPlaces(t *testing.T) {
	for _, c := range []struct {
		text string
		size int
		want int
	}{
		{"short", 10, 5},
		{"aaaa bbbb cccc", 7, 4},                // the last break at or before size
		{"aaaa bbbb cccc", 12, 9},               //
		{"a bbbbbbbbbbbbbbb cc", 8, 17},         // none in the second half: the first after
		{"aaaaaaaaaaaaaaaaaaaa", 8, 20},         // none at all
		{"中文中文。中文", 12, 12},                     // before '。'
		{"aaaa-bbbb-cccc", 7, 14},               // connectors join: no cut
		{"aaaa’bbbb cccc", 7, 11},               // nor before '’'
		{"aaaa\u3000bbbb", 6, 4},                // ideographic space
		{strings.Repeat("中", 10) + "，a", 9, 30}, // '，'
	} {
		if got := cut(c.text, c.size); got != c.want {
			t.Errorf("cut(%q, %d) = %d, want %d", c.text, c.size, got, c.want)
		}
	}
}
