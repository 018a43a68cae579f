package tokencore_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/tokencore"
	"github.com/textnb/textnb/tokenize"
)

// The Core tokenize registers gives workers that analyze as their Analyzer
// does, and cuts that split a text without changing its terms.
func TestCore(t *testing.T) {
	core := tokencore.Get[*tokenize.Analyzer, tokenize.Lang]()
	a := tokenize.New(tokenize.Config{Stem: true})
	w := core.NewWorker(a)
	text := strings.Repeat("Runners were running, the runner ran. ", 40)
	for range 2 { // the second time from the worker's memory of words
		if got, want := w.Terms(nil, text), a.Terms(nil, text); !slices.Equal(got, want) {
			t.Fatalf("worker terms %q, analyzer %q", got, want)
		}
	}
	words, _ := w.Words(nil, nil, text)
	i := core.Cut(text, 100)
	if i <= 0 || i >= len(text) {
		t.Fatalf("Cut at %d of %d", i, len(text))
	}
	head, _ := w.Words(nil, nil, text[:i])
	tail, _ := w.Words(nil, nil, text[i:])
	if got := append(head, tail...); !slices.Equal(got, words) {
		t.Fatalf("words of the pieces %q, of the whole %q", got, words)
	}
}

// The detector adds up its samples.
func TestLangDetector(t *testing.T) {
	d := tokencore.Get[*tokenize.Analyzer, tokenize.Lang]().NewLangDetector()
	for _, doc := range []string{"Spam, spam, spam.", "Lovely spam!", "垃圾邮件"} {
		d.Add(doc)
	}
	if got := d.Lang(); got != tokenize.English {
		t.Errorf("mostly English: %v", got)
	}
	d.Add("朴素贝叶斯分类器是一种简单的概率分类器")
	if got := d.Lang(); got != tokenize.Chinese {
		t.Errorf("then mostly Chinese: %v", got)
	}
}
