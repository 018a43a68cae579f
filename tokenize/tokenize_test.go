package tokenize

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"

	"github.com/textnb/textnb/tokenize/zh"
)

// loadedByEnglish records whether an English-only run of a New Analyzer
// loaded the process-wide dictionary; TestMain looks before any test can
// load it.
var loadedByEnglish bool

func TestMain(m *testing.M) {
	a := testNew(Config{WordNGrams: NGramRange{1, 2}, HanChars: NGramRange{1, 2}, Stopwords: EnglishStopwords | ChineseStopwords})
	a.Terms(nil, englishProse)
	a.Terms(nil, "ＡＢＣ１２３ café Привет カタカナ 한국어 😀")
	loadedByEnglish = zh.Default().Loaded()
	os.Exit(m.Run())
}

func TestEnglishLeavesDictionary(t *testing.T) {
	if loadedByEnglish {
		t.Error("text without Han characters loaded the Chinese dictionary")
	}
}

// pairSegmenter cuts Han runs into two-rune words and counts its calls: a
// deterministic stand-in for the dictionary segmenter.
type pairSegmenter struct {
	mu    sync.Mutex
	calls int
}

func (p *pairSegmenter) Cut(dst []string, han string) []string {
	p.mu.Lock()
	p.calls++
	p.mu.Unlock()
	for len(han) > 0 {
		n := 0
		for i := 0; i < 2 && n < len(han); i++ {
			_, size := utf8.DecodeRuneInString(han[n:])
			n += size
		}
		dst = append(dst, han[:n])
		han = han[n:]
	}
	return dst
}

func (p *pairSegmenter) Calls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

func TestTerms(t *testing.T) {
	noStem := Config{}
	raw := Config{NoHanWords: true}
	tests := []struct {
		name string
		cfg  Config
		text string
		want []string
	}{
		{"empty", Config{}, "", nil},
		{"lowercase and stem", Config{Stem: true}, "The Running DOGS", []string{"the", "run", "dog"}},
		{"keep case", Config{KeepCase: true, Stem: true}, "Running running THE", []string{"Running", "run", "THE"}},
		{"keep case no stem", Config{KeepCase: true}, "Running DOGS", []string{"Running", "DOGS"}},
		{"min length 2", noStem, "a an I ox", []string{"an", "ox"}},
		{"min length 1", Config{MinLen: 1}, "a I ox", []string{"a", "i", "ox"}},
		{"min length 3", Config{MinLen: 3}, "a ab abc abcd", []string{"abc", "abcd"}},
		{"min length counts runes", Config{MinLen: 3}, "éé ééé", []string{"ééé"}},
		{"digits", noStem, "In 2024 we had 3 cats and 42 dogs", []string{"in", "2024", "we", "had", "cats", "and", "42", "dogs"}},
		{"apostrophes and hyphens split", Config{SplitCompounds: true}, "don't stop state-of-the-art it's", []string{"don", "stop", "state", "of", "the", "art", "it"}},
		{"compounds joined", noStem, "don't stop state-of-the-art it’s", []string{"don't", "stop", "state-of-the-art", "it’s"}},
		{"connectors only between word characters", noStem, "--x-- ..ab.. a--b 3.14 v1.2.3 'quoted' end.", []string{"ab", "3.14", "v1.2.3", "quoted", "end"}},
		{"compound with non-ASCII letters", raw, "café-crème naïve.test x-中文", []string{"café-crème", "naïve.test", "中文"}},
		{"underscore joins", noStem, "foo_bar __init__", []string{"foo_bar", "__init__"}},
		{"punctuation split", Config{SplitCompounds: true}, "(hello), world!! e-mail: a@b.cd", []string{"hello", "world", "mail", "cd"}},
		{"punctuation", noStem, "(hello), world!! e-mail: a@b.cd.", []string{"hello", "world", "e-mail", "a@b.cd"}},
		{"snowball", Config{Stem: true}, "generously caresses ponies happiness consignment knightly",
			[]string{"generous", "caress", "poni", "happi", "consign", "knight"}},
		{"snowball keeps its stop words", Config{}, "having being", []string{"having", "being"}},
		{"english stop words", Config{Stopwords: EnglishStopwords, Stem: true},
			"The quick brown fox jumps over the lazy dog", []string{"quick", "brown", "fox", "jump", "lazi", "dog"}},
		{"stop words before stemming", Config{Stopwords: EnglishStopwords, Stem: true}, "interest interesting", []string{"interest"}},
		{"stop words and keep case", Config{Stopwords: EnglishStopwords, KeepCase: true},
			"The the", []string{"The"}},
		{"bigrams", Config{WordNGrams: NGramRange{1, 2}}, "Not good at all",
			[]string{"not", "good", "at", "all", "not good", "good at", "at all"}},
		{"bigrams only", Config{WordNGrams: NGramRange{2, 2}}, "Not good at all",
			[]string{"not good", "good at", "at all"}},
		{"trigrams", Config{WordNGrams: NGramRange{2, 3}}, "a b c d",
			[]string{}},
		{"1-3 grams", Config{WordNGrams: NGramRange{1, 3}}, "aa bb cc",
			[]string{"aa", "bb", "cc", "aa bb", "bb cc", "aa bb cc"}},
		{"n-grams after stop words", Config{Stopwords: EnglishStopwords, WordNGrams: NGramRange{1, 2}},
			"the cat and the hat", []string{"cat", "hat", "cat hat"}},
		{"n-grams of stems", Config{Stem: true, WordNGrams: NGramRange{1, 2}}, "running dogs",
			[]string{"run", "dog", "run dog"}},
		{"n-grams longer than text", Config{WordNGrams: NGramRange{3, 4}}, "aa bb", []string{}},
		{"full width", noStem, "ＡＢＣ１２３", []string{"abc123"}},
		{"compatibility forms", noStem, "ﬁnance ①②", []string{"finance", "12"}},
		{"combining mark composes", noStem, "cafe\u0301", []string{"café"}},
		{"latin accents stem", Config{Stem: true}, "Naïve CAFÉ", []string{"naïv", "café"}},
		{"kana", noStem, "カタカナ、ひらがな。", []string{"カタカナ", "ひらがな"}},
		{"hangul", noStem, "한국어 텍스트", []string{"한국어", "텍스트"}},
		{"cyrillic lowercased, not stemmed", Config{}, "Привет, МИР! работающий", []string{"привет", "мир", "работающий"}},
		{"greek", Config{}, "ΑΘΗΝΑ", []string{"αθηνα"}},
		{"lowercase grows", noStem, "ȺȾ", []string{"ⱥⱦ"}},
		{"devanagari marks join", noStem, "हिन्दी", []string{"हिन्दी"}},
		{"invalid utf-8 separates", noStem, "abc\xffdef\xfe\xc3gh", []string{"abc", "def", "gh"}},
		{"invalid utf-8 only", Config{}, "\xff\xfe\xc3", nil},
		{"invalid utf-8 in non-normal text", noStem, "ＡＢ\xffcd", []string{"ab", "cd"}},
		{"emoji only", Config{}, "😀🎉👍🏽 !!! ... ---", nil},
		{"emoji between words", noStem, "good😀day", []string{"good", "day"}},
		{"han run is one word without segmentation", raw, "自然语言 北京大学", []string{"自然语言", "北京大学"}},
		{"han cut from latin", raw, "我爱Go语言", []string{"我爱", "go", "语言"}},
		{"han chars", Config{NoHanWords: true, HanChars: NGramRange{1, 2}}, "中文ab，汉字",
			[]string{"ab", "中", "文", "中文", "汉", "字", "汉字"}},
		{"han char bigrams", Config{NoHanWords: true, HanChars: NGramRange{2, 2}}, "一二三",
			[]string{"一二", "二三"}},
		{"han chars and word bigrams", Config{NoHanWords: true, HanChars: NGramRange{1, 1}, WordNGrams: NGramRange{1, 2}},
			"aa中bb", []string{"aa", "bb", "aa bb", "中"}},
		{"full-width punctuation separates han", raw, "中文，汉字！", []string{"中文", "汉字"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := testAnalyzer(tt.cfg, nil).Terms(nil, tt.text)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestTermsSegmenter(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		text string
		want []string
	}{
		{"words", Config{}, "自然语言处理", []string{"自然", "语言", "处理"}},
		{"han min length", Config{HanMinLen: 2}, "自然语言处", []string{"自然", "语言"}},
		{"mixed stream n-grams", Config{WordNGrams: NGramRange{1, 2}}, "用Go处理",
			[]string{"用", "go", "处理", "用 go", "go 处理"}},
		{"words and chars", Config{HanChars: NGramRange{2, 2}}, "一二三", []string{"一二", "三", "一二", "二三"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seg := &pairSegmenter{}
			got := testAnalyzer(tt.cfg, seg).Terms(nil, tt.text)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.text, got, tt.want)
			}
			if seg.Calls() == 0 {
				t.Error("segmenter not called")
			}
		})
	}
	seg := &pairSegmenter{}
	got := testAnalyzer(Config{NoHanWords: true}, seg).Terms(nil, "中文")
	if seg.Calls() != 0 || !slices.Equal(got, []string{"中文"}) {
		t.Errorf("NoHanWords: %q with %d Cut calls", got, seg.Calls())
	}
}

// TestEnglishSkipsSegmenter checks that text without Han characters never
// reaches the segmenter, whose dictionary is slow to load.
func TestEnglishSkipsSegmenter(t *testing.T) {
	seg := &pairSegmenter{}
	a := testAnalyzer(Config{WordNGrams: NGramRange{1, 2}, HanChars: NGramRange{1, 2}}, seg)
	for _, text := range []string{englishProse, "ＡＢＣ１２３ café Привет カタカナ 한국어"} {
		a.Terms(nil, text)
	}
	if seg.Calls() != 0 {
		t.Errorf("segmenter called %d times on text without Han", seg.Calls())
	}
}

func TestTermsAppends(t *testing.T) {
	a := testAnalyzer(Config{WordNGrams: NGramRange{2, 2}}, nil)
	got := a.Terms([]string{"keep"}, "aa bb cc")
	want := []string{"keep", "aa bb", "bb cc"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTermsRepeatable(t *testing.T) {
	a := testAnalyzer(Config{WordNGrams: NGramRange{1, 2}, HanChars: NGramRange{1, 2}}, &pairSegmenter{})
	first := a.Terms(nil, mixedProse)
	if len(first) == 0 {
		t.Fatal("no terms")
	}
	for range 3 { // the second pass reads the cache
		if got := a.Terms(nil, mixedProse); !slices.Equal(got, first) {
			t.Fatalf("cached terms differ:\n%q\n%q", got, first)
		}
	}
}

// tokens returns the tokens of text, in order.
func tokens(text string, join bool) []token {
	var toks []token
	for tok, ok := nextToken(text, 0, join); ok; tok, ok = nextToken(text, tok.End, join) {
		toks = append(toks, tok)
	}
	return toks
}

// detectLang returns the language of sample, as langDetector decides it.
func detectLang(sample string) Lang {
	var d langDetector
	d.Add(sample)
	return d.Lang()
}

func TestTokens(t *testing.T) {
	text := "Go语言 カナ abc-Ωmega 12\xff"
	for _, tc := range []struct {
		join bool
		want []string
	}{
		{false, []string{"Go:latin", "语言:han", "カナ:other", "abc:latin", "Ωmega:other", "12:latin"}},
		{true, []string{"Go:latin", "语言:han", "カナ:other", "abc-Ωmega:other", "12:latin"}},
	} {
		var got []string
		for _, tok := range tokens(text, tc.join) {
			got = append(got, fmt.Sprintf("%s:%s", text[tok.Start:tok.End], tok.Script))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("join %v: got %q, want %q", tc.join, got, tc.want)
		}
	}
}

func TestFilter(t *testing.T) {
	a := testAnalyzer(Config{MinLen: 3, Stopwords: EnglishStopwords, Stem: true, KeepCase: true}, nil)
	tests := []struct {
		in   string
		s    script
		want string
	}{
		{"ab", scriptLatin, ""},
		{"éèê", scriptOther, "éèê"},
		{"éè", scriptOther, ""},
		{"the", scriptLatin, ""},
		{"cat", scriptLatin, "cat"},
		{"running", scriptLatin, "run"},
		{"running", scriptOther, "running"},
		{"Running", scriptLatin, "Running"},
		{"Ölkännchen", scriptLatin, "Ölkännchen"},
	}
	for _, tt := range tests {
		if got := a.filter(tt.in, tt.s); got != tt.want {
			t.Errorf("filter(%q, %v) = %q, want %q", tt.in, tt.s, got, tt.want)
		}
	}
}

func TestEnglishStopwords(t *testing.T) {
	if len(englishStopwords) != 318 {
		t.Errorf("%d English stop words, want scikit-learn's 318", len(englishStopwords))
	}
	if !slices.IsSorted(englishStopwords[:]) {
		t.Error("stop word list not sorted")
	}
	for _, w := range []string{"a", "amoungst", "yourselves", "system"} {
		if !isEnglishStopword(w) {
			t.Errorf("%q is not a stop word", w)
		}
	}
	if isEnglishStopword("The") || isEnglishStopword("seven") {
		t.Error("unexpected stop word")
	}
}

func TestConfigDefaults(t *testing.T) {
	got := Config{}.withDefaults()
	want := Config{MinLen: 2, HanMinLen: 1, WordNGrams: DefaultWordNGrams}
	if got != want {
		t.Errorf("defaults %+v, want %+v", got, want)
	}
	if again := got.withDefaults(); again != got {
		t.Errorf("withDefaults not idempotent: %+v", again)
	}
	set := Config{MinLen: 3, HanMinLen: 2, WordNGrams: NGramRange{1, 2}}
	if got := set.withDefaults(); got != set {
		t.Errorf("withDefaults changed set fields: %+v", got)
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []Config{
		{WordNGrams: NGramRange{2, 1}},
		{WordNGrams: NGramRange{0, 2}},
		{HanChars: NGramRange{1, maxNGram + 1}},
		{Stopwords: 4},
		{Lang: 3},
	}
	for _, c := range bad {
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("Validate(%+v) = %v, want ErrConfig", c, err)
		}
		// New clamps instead of failing.
		testAnalyzer(c, nil).Terms(nil, "aa bb cc 中文")
	}
	if err := (Config{WordNGrams: NGramRange{1, 3}, HanChars: NGramRange{2, 2}, Stopwords: EnglishStopwords | ChineseStopwords, Lang: Chinese}).Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
	a := testAnalyzer(Config{WordNGrams: NGramRange{3, 1}, HanChars: NGramRange{-1, 100}}, nil)
	if c := a.Config(); c.WordNGrams != (NGramRange{3, 3}) || c.HanChars != (NGramRange{1, maxNGram}) {
		t.Errorf("clamped to %v %v", c.WordNGrams, c.HanChars)
	}
}

func TestConfigJSON(t *testing.T) {
	c := Config{MinLen: 3, Stopwords: EnglishStopwords | ChineseStopwords, WordNGrams: NGramRange{1, 2},
		HanChars: NGramRange{2, 2}, NoHanWords: true, Lang: Chinese}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"Stopwords":"en,zh"`) || !strings.Contains(s, `"Lang":"zh"`) {
		t.Errorf("JSON %s", s)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || back != c {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"Lang":"fr"}`), &back); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown language: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"Stopwords":"de"}`), &back); !errors.Is(err, ErrConfig) {
		t.Errorf("unknown stop words: %v", err)
	}
	if _, err := json.Marshal(Config{Lang: 9}); err == nil {
		t.Error("marshaled an unknown language")
	}
}

func TestParseEnums(t *testing.T) {
	for _, l := range []Lang{Auto, English, Chinese} {
		if got, err := parseLang(l.String()); err != nil || got != l {
			t.Errorf("parseLang(%q) = %v, %v", l, got, err)
		}
	}
	for _, s := range []StopwordSet{NoStopwords, EnglishStopwords, ChineseStopwords, EnglishStopwords | ChineseStopwords} {
		if got, err := parseStopwordSet(s.String()); err != nil || got != s {
			t.Errorf("parseStopwordSet(%q) = %v, %v", s, got, err)
		}
	}
	if got, err := parseStopwordSet("zh, en"); err != nil || got != EnglishStopwords|ChineseStopwords {
		t.Errorf("parseStopwordSet(zh, en) = %v, %v", got, err)
	}
}

func TestDetectLang(t *testing.T) {
	tests := []struct {
		text string
		want Lang
	}{
		{"", English},
		{englishProse, English},
		{chineseProse, Chinese},
		{"使用Python和TensorFlow进行深度学习", Chinese},
		{"The word 中文 in an English sentence", English},
		{"Привет мир", English},
		{"12345 !!!", English},
	}
	for _, tt := range tests {
		if got := detectLang(tt.text); got != tt.want {
			t.Errorf("detectLang(%.20q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	var d langDetector
	d.Add(englishProse[:200])
	d.Add(chineseProse)
	if d.Lang() != Chinese {
		t.Error("detector did not add up its samples")
	}
}

func TestCacheBounded(t *testing.T) {
	const bound = 1 << 12 // the Analyzer's is cacheEntries; a small one tests the same code
	a := testAnalyzer(Config{Stem: true}, nil)
	a.cache = newTermCache(bound)
	w := a.newWorker()
	var b strings.Builder
	for i := range bound + bound/4 {
		b.Reset()
		fmt.Fprintf(&b, "w%x", i)
		w.Terms(nil, b.String())
	}
	// A shard that reaches its share of the bound starts over.
	if n := a.cache.len(); n > bound || n < bound/4 {
		t.Errorf("cache holds %d entries, bound %d", n, bound)
	}
	long := strings.Repeat("x", maxCachedBytes+1)
	before, seen := a.cache.len(), w.st.seen.words.Len()
	for range 2 {
		if got := w.Terms(nil, long); !slices.Equal(got, []string{long}) {
			t.Errorf("long word: %q", got)
		}
	}
	if a.cache.len() != before || w.st.seen.words.Len() != seen {
		t.Error("long word cached")
	}
}

// A worker remembers at most its bound of words (maxSeen, or a pooled
// worker's maxPooledSeen), then starts over, and gives the same terms
// throughout.
func TestWorkerMemoryBounded(t *testing.T) {
	a := testAnalyzer(Config{Stem: true}, nil)
	word := func(i int) string { return fmt.Sprintf("Runs%dRunning", i) } // lowercased in scratch space
	term := func(i int) string { return fmt.Sprintf("runs%drun", i) }
	if w := a.newWorker(); w.st.seen.limit != maxSeen {
		t.Errorf("a worker remembers up to %d words, want %d", w.st.seen.limit, maxSeen)
	}
	for _, bound := range []int{maxSeen, maxPooledSeen} {
		w := a.newWorker()
		w.st.seen.limit = bound
		for i := range bound + bound/2 {
			if got := w.Terms(nil, word(i)); len(got) != 1 || got[0] != term(i) {
				t.Fatalf("word %d: %q, want %q", i, got, term(i))
			}
			if n, m := w.st.seen.words.Len(), len(w.st.seen.terms); n > bound || n != m {
				t.Fatalf("after %d words the worker remembers %d words and %d terms, bound %d", i+1, n, m, bound)
			}
		}
		if n := w.st.seen.words.Len(); n != bound/2 {
			t.Errorf("the worker remembers %d words, want the %d since it started over", n, bound/2)
		}
		for _, i := range []int{0, bound - 1, bound, bound + bound/2 - 1} { // forgotten and remembered
			if got := w.Terms(nil, word(i)+" "+word(i)); !slices.Equal(got, []string{term(i), term(i)}) {
				t.Errorf("word %d again: %q", i, got)
			}
		}
	}
	if w := a.pool.Get().(*worker); w.st.seen.limit != maxPooledSeen {
		t.Errorf("a pooled worker remembers up to %d words, want %d", w.st.seen.limit, maxPooledSeen)
	}
}

// Workers, each remembering its own words, give the terms that a fresh
// Analyzer gives, whatever they saw before and whatever scratch space the
// words were lowercased in.
func TestWorkerMatchesAnalyzer(t *testing.T) {
	texts := []string{"The Running DOGS ran", "RUNNING dogs, running Dogs", "Naïve CAFÉ naïve café",
		"generously caresses ponies happiness", "The quick brown fox, the QUICK dog.", "用Go处理自然语言 and Ünïcödé text", ""}
	for _, cfg := range []Config{{Stem: true}, {Stem: true, Stopwords: EnglishStopwords, WordNGrams: NGramRange{1, 2}},
		{Stem: true, KeepCase: true}, {WordNGrams: NGramRange{1, 3}, HanChars: NGramRange{1, 2}}} {
		a := testAnalyzer(cfg, &pairSegmenter{})
		w := a.newWorker()
		for round := range 3 {
			for _, text := range texts {
				want := testAnalyzer(cfg, &pairSegmenter{}).Terms(nil, text)
				if got := w.Terms(nil, text); !slices.Equal(got, want) {
					t.Errorf("%+v round %d %q: worker %q, want %q", cfg, round, text, got, want)
				}
				words, extra := w.Words(nil, nil, text)
				wantWords, wantExtra := testAnalyzer(cfg, &pairSegmenter{}).newWorker().Words(nil, nil, text)
				if !slices.Equal(words, wantWords) || !slices.Equal(extra, wantExtra) {
					t.Errorf("%+v round %d %q: worker's words %q %q, analyzer's %q %q", cfg, round, text, words, extra, wantWords, wantExtra)
				}
			}
		}
	}
}

func TestConcurrent(t *testing.T) {
	docs := strings.Split(englishProse+"\n"+chineseProse+"\n"+mixedProse, "\n")
	for _, stem := range []bool{false, true} {
		cfg := Config{Stopwords: EnglishStopwords, WordNGrams: NGramRange{1, 2}, HanChars: NGramRange{1, 2}, Stem: stem}
		t.Run(fmt.Sprint("pairs, stem ", stem), func(t *testing.T) {
			checkConcurrent(t, testAnalyzer(cfg, &pairSegmenter{}), testAnalyzer(cfg, &pairSegmenter{}), docs)
		})
		t.Run(fmt.Sprint("dictionary, stem ", stem), func(t *testing.T) {
			needDictionary(t)
			checkConcurrent(t, testNew(cfg), testNew(cfg), docs)
		})
	}
}

// checkConcurrent runs a on docs from 8 goroutines, half of them through
// workers of their own, and compares its terms with those of serial, run
// on one.
func checkConcurrent(t *testing.T, a, serial *Analyzer, docs []string) {
	want := make([][]string, len(docs))
	for i, d := range docs {
		want[i] = serial.Terms(nil, d)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			terms := a.Terms
			if g%2 == 1 {
				terms = a.newWorker().Terms
			}
			var buf []string
			for r := range 20 {
				i := (g*7 + r*13) % len(docs)
				buf = terms(buf[:0], docs[i])
				if !slices.Equal(buf, want[i]) {
					errs <- fmt.Sprintf("doc %d: %q, want %q", i, buf, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestNoAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	// Without stemming the document is lowercased in one allocation and
	// words are its substrings; with stemming they come from the cache.
	for _, tc := range []struct {
		cfg  Config
		want float64
	}{{Config{}, 1}, {Config{Stem: true}, 0}, {Config{Stopwords: EnglishStopwords}, 1}, {Config{Stem: true, Stopwords: EnglishStopwords}, 0}} {
		a := testAnalyzer(tc.cfg, nil)
		buf := a.Terms(nil, englishProse)
		allocs := testing.AllocsPerRun(20, func() { buf = a.Terms(buf[:0], englishProse) })
		if allocs > tc.want {
			t.Errorf("%+v: %v allocations per document, want ≤ %v", tc.cfg, allocs, tc.want)
		}
	}
}

// needDictionary skips a test when gse's dictionary cannot load (the ne
// build tag leaves it empty).
func needDictionary(t testing.TB) {
	t.Helper()
	if err := zh.Default().Load(); err != nil {
		t.Skip(err)
	}
}

func TestChinese(t *testing.T) {
	needDictionary(t)
	text := "我们的朋友在北京大学学习"
	tests := []struct {
		name string
		cfg  Config
		text string
		want []string
	}{
		{"words", Config{}, text, []string{"我们", "的", "朋友", "在", "北京大学", "学习"}},
		{"stop words", Config{Stopwords: ChineseStopwords}, text, []string{"朋友", "北京大学", "学习"}},
		{"min length", Config{HanMinLen: 2}, text, []string{"我们", "朋友", "北京大学", "学习"}},
		{"mixed bigrams", Config{WordNGrams: NGramRange{1, 2}}, "我爱Go语言",
			[]string{"我", "爱", "go", "语言", "我 爱", "爱 go", "go 语言"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testNew(tt.cfg).Terms(nil, tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
	// Chinese stop words apply to character n-grams too.
	got := testNew(Config{NoHanWords: true, HanChars: NGramRange{1, 1}, Stopwords: ChineseStopwords}).Terms(nil, text)
	var want []string
	for _, r := range text {
		if !zh.IsStopword(string(r)) {
			want = append(want, string(r))
		}
	}
	if !slices.Equal(got, want) || len(want) == utf8.RuneCountInString(text) {
		t.Errorf("char unigrams without stop words: %q, want %q", got, want)
	}
}

// longHanLine is about 1 MB of Han characters without a break.
func longHanLine() string {
	line := strings.Map(func(r rune) rune {
		if isHan(r) {
			return r
		}
		return '字'
	}, chineseProse)
	for len(line) < 1<<20 {
		line += line
	}
	return line
}

// TestLongHanLine checks the terms of a 1 MB line without a break; its speed
// is BenchmarkLongHanLine's to measure (a quadratic segmenter would show there,
// and here as a test timeout).
func TestLongHanLine(t *testing.T) {
	line := longHanLine()
	runes := utf8.RuneCountInString(line)
	terms := testNew(Config{NoHanWords: true, HanChars: NGramRange{1, 2}}).Terms(nil, line)
	if len(terms) != 2*runes-1 {
		t.Errorf("%d character n-grams for %d runes", len(terms), runes)
	}
	needDictionary(t)
	terms = testNew(Config{}).Terms(terms[:0], line)
	if len(terms) < runes/4 || len(terms) > runes {
		t.Errorf("%d words for %d runes", len(terms), runes)
	}
}

func BenchmarkLongHanLine(b *testing.B) {
	line := longHanLine()
	for _, bc := range []struct {
		name string
		cfg  Config
	}{
		{"chars", Config{NoHanWords: true, HanChars: NGramRange{1, 2}}},
		{"words", Config{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			if bc.name == "words" {
				needDictionary(b)
			}
			an := testNew(bc.cfg)
			b.SetBytes(int64(len(line)))
			var terms []string
			for b.Loop() {
				terms = an.Terms(terms[:0], line)
			}
		})
	}
}

// TestNormalizeSkip checks the skip table against NFKC itself: wherever
// normalize skips NFKC, the tokens must be those of the NFKC text.
func TestNormalizeSkip(t *testing.T) {
	tokens := func(text string) string {
		var b strings.Builder
		for _, tok := range tokens(text, true) {
			fmt.Fprintf(&b, "%s/%s ", text[tok.Start:tok.End], tok.Script)
		}
		return b.String()
	}
	skipped := 0
	for r := rune(0x80); r < 0x30000; r++ {
		if r >= 0x10000 && r < 0x1F000 || r >= 0x20100 && r < 0x2F800 { // sample the planes above the BMP
			continue
		}
		for _, text := range []string{"a" + string(r) + "b", string(r) + string(r), "中" + string(r)} {
			if normalize(text) != text {
				continue
			}
			skipped++
			if got, want := tokens(text), tokens(norm.NFKC.String(text)); got != want {
				t.Fatalf("U+%04X in %q: tokens %s, after NFKC %s", r, text, got, want)
			}
		}
	}
	if skipped < 100000 {
		t.Errorf("only %d texts skipped NFKC", skipped)
	}
	for _, text := range []string{"ＡＢ", "ﬁ", "e\u0301", "①", "\U0002F800"} { // must normalize
		if normalize(text) == text {
			t.Errorf("%q not normalized", text)
		}
	}
}

// TestWordsMakeTerms checks that Terms is the word n-grams of Words
// followed by its extra terms, for every stage that shapes the stream.
func TestWordsMakeTerms(t *testing.T) {
	texts := []string{"", "The quick brown fox, the QUICK dog.", "e-mail me@example.com at 3.14 o'clock",
		"用Go处理自然语言 and Ünïcödé text", "一二三四五 six 七八", "a b c d e f g"}
	configs := []Config{{}, {WordNGrams: NGramRange{1, 2}}, {WordNGrams: NGramRange{2, 3}},
		{WordNGrams: NGramRange{1, 2}, HanChars: NGramRange{2, 3}}, {Stem: true, Stopwords: EnglishStopwords,
			WordNGrams: NGramRange{1, 3}}, {HanChars: NGramRange{1, 2}, NoHanWords: true}}
	for _, cfg := range configs {
		a := testAnalyzer(cfg, &pairSegmenter{})
		r := a.Config().WordNGrams
		for _, text := range texts {
			words, extra := a.newWorker().Words(nil, nil, text)
			var want []string
			for n := r.Min; n <= r.Max; n++ {
				for i := 0; i+n <= len(words); i++ {
					want = append(want, strings.Join(words[i:i+n], " "))
				}
			}
			want = append(want, extra...)
			if got := a.Terms(nil, text); !slices.Equal(got, want) {
				t.Errorf("%+v %q: Terms %q, n-grams of Words %q + %q", cfg, text, got, words, extra)
			}
		}
	}
}

// A curly quote in every sentence cuts the ASCII text into stretches
// between the fast path and the slow one: their lowercased copies share
// allocations rather than taking one each.
func TestLowercasedStretchesShareAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	text := strings.Repeat("The committee said on Monday that it did not expect the Senate of the State to act "+
		"before the end of next week. Smith didn’t say. ", 20)
	w := testNew(Config{}).newWorker()
	words, extra := w.Words(nil, nil, text)
	if n := testing.AllocsPerRun(20, func() { words, extra = w.Words(words[:0], extra[:0], text) }); n > 2 {
		t.Errorf("%.0f allocations for a document of 20 stretches, want at most 2", n)
	}
}

// TestLowercasesOnlyTheASCIIPrefix checks that a capital in the ASCII start
// of a mostly non-ASCII document does not copy the whole document: only
// the part the ASCII fast path reads is lowercased.
func TestLowercasesOnlyTheASCIIPrefix(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	doc := "X " + strings.Repeat("中文文本。", 10000) // 150 KB after two ASCII bytes
	a := testAnalyzer(Config{}, nil)
	buf := a.Terms(nil, doc)
	if len(buf) != 10000 || buf[0] != "中文文本" {
		t.Fatalf("%d terms, the first %q", len(buf), buf[:min(1, len(buf))])
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		buf = a.Terms(buf[:0], doc)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > uint64(len(doc))/4 {
		t.Errorf("%d bytes allocated per %d-byte document", per, len(doc))
	}
}

// The words that skip the stemmer as their own stems are those Snowball
// leaves as they are: checked against it on generated words of letters,
// digits and connectors that end in a digit, and on the near misses that
// must still reach it.
func TestOwnStemMatchesSnowball(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const alphabet = "abcdefghijklmnopqrstuvwxyzyyy0123456789'.-@_"
	words := []string{"1993", "v1.2", "x11r5", "mac-ii2", "it's2", "y2", "ay1", "sses1", "generously1", "'s1"}
	for range 20000 {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		words = append(words, string(b)+string(rune('0'+rng.IntN(10))))
	}
	skipped := 0
	for _, w := range words {
		if !ownStem(w) {
			continue
		}
		skipped++
		if s := english.Stem(w, false); s != w {
			t.Errorf("%q skips the stemmer, which makes it %q", w, s)
		}
	}
	if skipped < len(words)*9/10 {
		t.Errorf("only %d of %d words skipped the stemmer", skipped, len(words))
	}
	for _, w := range []string{"", "'s1", " a1", "\t's1", "don’t1", "café1", "running", "1993s", "RUNNING"} {
		if ownStem(w) {
			t.Errorf("%q skips the stemmer", w)
		}
	}
}

// testNew and testAnalyzer are New and newWithSegmenter with word unigrams
// when cfg leaves WordNGrams zero: most tests here check words, not the
// default n-gram range (TestConfigDefaults checks that).
func testNew(cfg Config) *Analyzer { return New(unigrams(cfg)) }

func testAnalyzer(cfg Config, seg segmenter) *Analyzer {
	return newWithSegmenter(unigrams(cfg), seg)
}

func unigrams(cfg Config) Config {
	if cfg.WordNGrams == (NGramRange{}) {
		cfg.WordNGrams = NGramRange{Min: 1, Max: 1}
	}
	return cfg
}
