package pipeline

import "testing"

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"plain name":  "plain name",
		"中文 ok":       "中文 ok",
		"tab\there":   `"tab\there"`,
		"nl\n":        `"nl\n"`,
		"\"quoted\"":  `"\"quoted\""`,
		"in\"side":    "in\"side",
		"esc\x1b[31m": `"esc\x1b[31m"`,
		"bad\xffutf8": `"bad\xffutf8"`,
		"ls\u2028x":   `"ls\u2028x"`,
		"del\x7f":     `"del\x7f"`,
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %s, want %s", in, got, want)
		}
	}
}
