package mail

import (
	"strings"
	"testing"
)

// BenchmarkDetect is the cost auto input adds to every plain text file:
// Detect on a 20 Newsgroups post's first bytes.
func BenchmarkDetect(b *testing.B) {
	post := []byte("From: drice@ponder.csci.unt.edu (D. Keith Rice)\nSubject: Re: Drive/Controller Compatibility\n" +
		"Lines: 672\nOrganization: University of North Texas\n\n" + strings.Repeat("Thanks to all who responded to my post.\n", 100))
	for b.Loop() {
		Detect(post)
	}
}

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
