package textfile

import (
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
)

func TestDecode(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want string
		enc  Encoding
	}{
		{"ascii", []byte("hello"), "hello", UTF8},
		{"utf8", []byte("naïve 中文"), "naïve 中文", UTF8},
		{"bom", []byte("\xef\xbb\xbfhello"), "hello", UTF8},
		{"empty", nil, "", UTF8},
		{"gbk", testkit.GBK(t, "机器学习是人工智能的一个分支。"), "机器学习是人工智能的一个分支。", GB18030},
		{"gbk mixed", testkit.GBK(t, "朴素贝叶斯 naive Bayes 分类器"), "朴素贝叶斯 naive Bayes 分类器", GB18030},
		{"latin1", []byte("caf\xe9 cr\xe8me br\xfbl\xe9e"), "café crème brûlée", Latin1},
		// Valid GB18030 (é é → one Han) but mostly Latin letters: Latin-1.
		{"latin1 not han", []byte("abcdefghij\xe9\xe9"), "abcdefghijéé", Latin1},
		// Truncated GBK: the decoder would write U+FFFD, so it is not clean.
		{"gbk truncated", append(testkit.GBK(t, "中文"), 0xd6), "ÖÐÎÄÖ", Latin1},
		// U+FFFD encoded in GB18030 is not a decoding failure.
		{"gb18030 fffd", append(testkit.GBK(t, "中文字"), 0x84, 0x31, 0xa4, 0x37), "中文字\ufffd", GB18030},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, enc := Decode(c.in)
			if got != c.want || enc != c.enc {
				t.Errorf("Decode(%q) = %q, %v; want %q, %v", c.in, got, enc, c.want, c.enc)
			}
			got, enc = DecodeString(string(c.in))
			if got != c.want || enc != c.enc {
				t.Errorf("DecodeString(%q) = %q, %v; want %q, %v", c.in, got, enc, c.want, c.enc)
			}
		})
	}
}

func TestDecodeDoesNotAlias(t *testing.T) {
	b := []byte("hello")
	s, _ := Decode(b)
	b[0] = 'j'
	if s != "hello" {
		t.Errorf("Decode result changed with its input: %q", s)
	}
}

func TestEncodingString(t *testing.T) {
	for e, want := range map[Encoding]string{UTF8: "UTF-8", GB18030: "GB18030", Latin1: "ISO-8859-1", 7: "Encoding(7)"} {
		if got := e.String(); got != want {
			t.Errorf("Encoding(%d).String() = %q, want %q", e, got, want)
		}
	}
}

// DecodeString decodes in place: no copy for UTF-8 (a file's buffer
// viewed as a string becomes the text), and no more allocations than
// Decode for other encodings (its []byte(s) conversion once added a copy
// of every Latin-1 file and line).
func TestDecodeStringDoesNotCopy(t *testing.T) {
	utf := "\xef\xbb\xbfcafé au lait"
	if n := testing.AllocsPerRun(10, func() { DecodeString(utf) }); n != 0 {
		t.Errorf("UTF-8: %v allocations, want 0", n)
	}
	if s, enc := DecodeString(utf); s != "café au lait" || enc != UTF8 {
		t.Errorf("UTF-8: %q, %v", s, enc)
	}
	latin := strings.Repeat("caf\xe9 au lait ", 100)
	owned := testing.AllocsPerRun(10, func() { DecodeString(latin) })
	latinBytes := []byte(latin)
	if plain := testing.AllocsPerRun(10, func() { Decode(latinBytes) }); owned > plain {
		t.Errorf("Latin-1: %v allocations, Decode makes %v", owned, plain)
	}
	if s, enc := DecodeString(latin); enc != Latin1 || !strings.HasPrefix(s, "café au lait") {
		t.Errorf("Latin-1: %.20q, %v", s, enc)
	}
}
