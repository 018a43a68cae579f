package mail

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/textnb/textnb/internal/mailfile"
)

// FuzzMail checks that any bytes are detected and decode, as a message and as an mbox,
// without a panic, into valid UTF-8 in which Marker starts feature tokens
// only, and that an mbox never returns more than the limit per message.
func FuzzMail(f *testing.F) {
	for _, s := range []string{
		"",
		"Subject: hi\n\nbody",
		"From a@b Mon Jan 1 00:00:00 2002\nReceived: x\nSubject: s\n\nbody\n\nFrom b@c Tue\nSubject: t\n\n>From quoted\n",
		"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\n<p>hi <a href=http://x.com/>x</a><script>no</script>\n--b\nContent-Type: application/pdf; name=a.pdf\nContent-Transfer-Encoding: base64\n\nJVBERi0=\n--b--\n",
		"Content-Type: multipart/alternative; boundary=\"q\"\n\n--q\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\ncaf=E9=\n ok\n--q\nContent-Type: text/html\n\n<b>x</b>\n",
		"Subject: =?utf-8?B?w6k=?= =?koi8-r?Q?=F0?= =?x-unknown?Q?a?=\nFrom: \"ǂx\" <a@b.c>\n\nǂfrom_a@b.c",
		"Content-Type: message/rfc822\n\nSubject: inner\nContent-Type: text/plain; charset=x-nope\n\ntext",
		"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n!!!@@@aGVsbG8=",
	} {
		f.Add([]byte(s))
	}
	c := Config{MaxMessage: 1 << 16, MaxHeader: 1 << 12, MaxDepth: 8, MaxParts: 64}
	f.Fuzz(func(t *testing.T, b []byte) {
		if k := mailfile.Detect(b); k > mailfile.MboxFile {
			t.Fatalf("Detect(%q) = %v", b, k)
		}
		m := Decode(b, c)
		if !utf8.ValidString(m.Text) || !utf8.ValidString(m.ID) {
			t.Fatalf("Decode(%q): not UTF-8: %q", b, m.Text)
		}
		checkMarkers(t, m.Text)
		mb := mailfile.NewMbox(bytes.NewReader(b), c.MaxMessage)
		total := 0
		for {
			msg, err := mb.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(msg) > c.MaxMessage {
				t.Fatalf("message %d: %d bytes, more than %d", mb.Num(), len(msg), c.MaxMessage)
			}
			total += len(msg)
			if total > len(b) {
				t.Fatalf("messages hold %d bytes, the input %d", total, len(b))
			}
			Decode(msg, c)
		}
	})
}

// checkMarkers fails unless Marker occurs in text only at the start of the
// words of its last line, the feature tokens.
func checkMarkers(t *testing.T, text string) {
	t.Helper()
	body, last := "", text
	if i := strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n"); i >= 0 {
		body, last = text[:i], text[i+1:]
	}
	if strings.Contains(body, Marker) {
		t.Fatalf("Marker outside the feature tokens: %q", text)
	}
	for _, w := range strings.Fields(last) {
		if strings.Contains(w[min(len(w), len(Marker)):], Marker) {
			t.Fatalf("Marker inside a word: %q", w)
		}
	}
}
