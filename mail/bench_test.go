package mail

import (
	"strings"
	"testing"
)

// BenchmarkDecode decodes a multipart message with text, HTML and an
// attachment.
func BenchmarkDecode(b *testing.B) {
	msg := []byte("Received: from x by y\nFrom: Deals <a@cheap.biz>\nSubject: Free money\nMessage-ID: <m@x>\nDate: x\n" +
		"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n" + strings.Repeat("Win a prize today at http://cheap.biz/x now.\n", 40) +
		"--b\nContent-Type: text/html\n\n" + strings.Repeat("<p>Win a <b>prize</b> <a href='http://cheap.biz/'>here</a></p>\n", 40) +
		"--b\nContent-Type: application/pdf; name=a.pdf\nContent-Transfer-Encoding: base64\n\n" + strings.Repeat("JVBERi0xLjQK\n", 100) + "--b--\n")
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		Decode(msg, Config{})
	}
}
