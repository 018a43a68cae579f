package corpus_test

import (
	"testing"

	"github.com/textnb/textnb/corpus"
)

func TestDecode(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":             "plain text",
		"\xef\xbb\xbfwith a BOM": "with a BOM",
		"\xff\xfeh\x00i\x00":     "hi",   // UTF-16LE by its byte order mark
		"caf\xe9":                "café", // Latin-1
		"\xc4\xe3\xba\xc3\xa3\xac\xca\xc0\xbd\xe7": "你好，世界", // GB18030, mostly Han
	} {
		if got := corpus.Decode([]byte(in)); got != want {
			t.Errorf("Decode(%q) = %q, want %q", in, got, want)
		}
	}
}
