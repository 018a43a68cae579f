package zh

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/go-ego/gse"
)

// loaded returns Default with its dictionary, shared by all tests because
// loading takes over a second.
func loaded(t testing.TB) *Segmenter {
	t.Helper()
	s := Default()
	if err := s.Load(); err != nil {
		t.Fatalf("Load: %v", err)
	}
	if !s.Loaded() {
		t.Fatal("Loaded() = false after a successful Load")
	}
	return s
}

// Expected words were checked against gse v0.80.3 with the zh_s dictionary.
var cutCases = []struct {
	in   string
	want []string
}{
	{"我爱北京天安门", []string{"我", "爱", "北京", "天安门"}},
	{"北京大学的学生正在研究自然语言处理", []string{"北京大学", "的", "学生", "正在", "研究", "自然语言", "处理"}},
	{"中华人民共和国成立了", []string{"中华人民共和国", "成立", "了"}},
	{"这家餐厅的服务态度非常好", []string{"这家", "餐厅", "的", "服务态度", "非常", "好"}},
	{"我们今天去看电影了", []string{"我们", "今天", "去", "看", "电影", "了"}},
	{"南京市长江大桥", []string{"南京市", "长江大桥"}},
	{"研究生命起源", []string{"研究", "生命", "起源"}},
	// Not a Han run: case is kept, white space dropped.
	{"ABC公司 发布了\tiPhone15", []string{"ABC", "公司", "发布", "了", "iPhone15"}},
	{"  \n", nil},
	{"", nil},
}

// TestCutConcurrent runs first in this file so that, in a full run, its
// goroutines race to trigger the lazy load of Default.
func TestCutConcurrent(t *testing.T) {
	s := Default()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Go(func() {
			var dst []string
			for _, c := range cutCases {
				dst = s.Cut(dst[:0], c.in)
				if !slices.Equal(dst, c.want) {
					t.Errorf("concurrent Cut(%q) = %q, want %q", c.in, dst, c.want)
				}
			}
		})
	}
	wg.Wait()
	if err := s.Load(); err != nil || !s.Loaded() {
		t.Errorf("after concurrent Cut: Load = %v, Loaded = %v", err, s.Loaded())
	}
}

func TestCut(t *testing.T) {
	s := loaded(t)
	for _, c := range cutCases {
		if got := s.Cut(nil, c.in); !slices.Equal(got, c.want) {
			t.Errorf("Cut(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCutAppends(t *testing.T) {
	s := loaded(t)
	dst := make([]string, 1, 8)
	dst[0] = "x"
	got := s.Cut(dst, "我爱北京天安门")
	want := []string{"x", "我", "爱", "北京", "天安门"}
	if !slices.Equal(got, want) {
		t.Errorf("Cut = %q, want %q", got, want)
	}
	if &got[0] != &dst[0] {
		t.Error("Cut did not reuse dst's backing array")
	}
	if got := s.Cut(dst, ""); !slices.Equal(got, dst) {
		t.Errorf("Cut(dst, \"\") = %q, want %q", got, dst)
	}
}

func TestCutInvalidUTF8(t *testing.T) {
	s := loaded(t)
	cases := []struct {
		in   string
		want []string
	}{
		{"北京\xff大学", []string{"北京", "大学"}},
		{"\xff北京大学\xfe", []string{"北京大学"}},
		{"我爱\xe5\x8c北京天安门", []string{"我", "爱", "北京", "天安门"}}, // truncated 3-byte sequence
		{"北京\xed\xa0\x80大学", []string{"北京", "大学"}},           // UTF-16 surrogate
		{"\xc0\x80\xff\xfe\xfd", nil},
		{"天安门\xe5", []string{"天安门"}},
	}
	for _, c := range cases {
		got := s.Cut(nil, c.in)
		if !slices.Equal(got, c.want) {
			t.Errorf("Cut(%q) = %q, want %q", c.in, got, c.want)
		}
		for _, w := range got {
			if !utf8.ValidString(w) {
				t.Errorf("Cut(%q) returned invalid word %q", c.in, w)
			}
		}
	}
}

// TestCutLongLine feeds 1 MB of Han text with no break, which spans many
// chunks; the words must still cover the input exactly.
func TestCutLongLine(t *testing.T) {
	s := loaded(t)
	const sentence = "我们今天去看电影了北京大学的学生正在研究自然语言处理"
	line := strings.Repeat(sentence, (1<<20)/len(sentence)+1)
	words := s.Cut(nil, line)
	if got := strings.Join(words, ""); got != line {
		t.Fatalf("words of a %d-byte line join to %d bytes", len(line), len(got))
	}
	if len(words) < len(line)/(3*8) {
		t.Errorf("%d words for %d bytes: not segmented", len(words), len(line))
	}
	if !slices.Contains(words, "北京大学") {
		t.Error("北京大学 not found in long line")
	}
	for _, w := range words {
		if !utf8.ValidString(w) {
			t.Fatalf("chunking split a character: word %q", w)
		}
	}
}

// TestOneCharNeedsNoDictionary checks that a run of one character is cut
// without loading the dictionary, into the word the dictionary gives.
func TestOneCharNeedsNoDictionary(t *testing.T) {
	var s Segmenter
	chars := []string{"鈥", "的", "中", "龘", "㐀", "𠀀", "豈", "a", "。"}
	for _, c := range chars {
		if got := s.Cut(nil, c); !slices.Equal(got, []string{c}) {
			t.Errorf("Cut(%q) = %q", c, got)
		}
	}
	if s.Loaded() {
		t.Fatal("cutting single characters loaded the dictionary")
	}
	d := loaded(t)
	for _, c := range chars {
		if got := d.cutValid(nil, c); !slices.Equal(got, []string{c}) {
			t.Errorf("with the dictionary, %q is cut into %q", c, got)
		}
	}
}

// TestLazyLoad checks that a zero Segmenter loads nothing before use.
func TestLazyLoad(t *testing.T) {
	var s Segmenter
	if s.Loaded() {
		t.Fatal("zero Segmenter reports Loaded")
	}
	if s.seg.Dict != nil {
		t.Fatal("zero Segmenter holds a dictionary")
	}
}

// TestFallback checks that a failed load makes every character a word and
// that Load keeps returning the error.
func TestFallback(t *testing.T) {
	var s Segmenter
	s.once.Do(func() { s.err = ErrEmptyDictionary })
	if err := s.Load(); !errors.Is(err, ErrEmptyDictionary) {
		t.Fatalf("Load = %v, want ErrEmptyDictionary", err)
	}
	if s.Loaded() {
		t.Error("Loaded after a failed load")
	}
	got := s.Cut(nil, "北京 大\xff学")
	want := []string{"北", "京", "大", "学"}
	if !slices.Equal(got, want) {
		t.Errorf("fallback Cut = %q, want %q", got, want)
	}
}

// TestCheckDict covers the guard against the `ne` build tag, which makes
// gse load an empty dictionary without error.
func TestCheckDict(t *testing.T) {
	if err := checkDict(nil); !errors.Is(err, ErrEmptyDictionary) {
		t.Errorf("checkDict(nil) = %v", err)
	}
	var seg gse.Segmenter
	seg.SkipLog, seg.NotLoadHMM = true, true
	if err := seg.LoadDictStr(""); err != nil {
		t.Fatal(err)
	}
	if err := checkDict(seg.Dictionary()); !errors.Is(err, ErrEmptyDictionary) {
		t.Errorf("checkDict(empty) = %v", err)
	}
	if err := checkDict(loaded(t).seg.Dictionary()); err != nil {
		t.Errorf("checkDict(zh_s) = %v", err)
	}
}

func TestIsStopword(t *testing.T) {
	for _, w := range []string{"的", "了", "是", "在", "和", "就", "都", "而", "及", "与", "着", "或",
		"一个", "没有", "我们", "你们", "他们", "因为", "所以", "但是", "，", "。"} {
		if !IsStopword(w) {
			t.Errorf("IsStopword(%q) = false", w)
		}
	}
	for _, w := range []string{"", " ", "北京", "电影", "好", "不", "没", "非常", "喜欢", "the", ","} {
		if IsStopword(w) {
			t.Errorf("IsStopword(%q) = true", w)
		}
	}
	if n := len(stopwords); n < 600 || n > 800 {
		t.Errorf("%d stopwords, want about 700", n)
	}
	for w := range stopwords {
		if !utf8.ValidString(w) || strings.TrimSpace(w) != w || w == "" {
			t.Errorf("malformed stopword %q", w)
		}
	}
}
