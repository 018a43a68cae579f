package mail_test

import (
	"fmt"
	"strings"

	"github.com/textnb/textnb/mail"
)

func ExampleDecode() {
	raw := "Received: from mx.cheap.biz by mail.example.org\n" +
		"From: Deals <win@cheap.biz>\n" +
		"Subject: =?utf-8?Q?You_won_=E2=82=AC1000?=\n" +
		"Content-Type: text/html; charset=utf-8\n" +
		"\n" +
		"<p>Claim it <a href=\"http://cheap.biz/claim\">here</a></p><script>track()</script>\n"
	m := mail.Decode([]byte(raw), mail.WithFeatures(mail.Title|mail.URLs|mail.Structure))
	for _, line := range strings.Split(m.Text, "\n") {
		if strings.TrimSpace(line) != "" { // HTML leaves blank lines
			fmt.Println(line)
		}
	}
	// Output:
	// You won €1000
	// You won €1000
	// Deals <win@cheap.biz>
	// Claim it here
	// ǂcharset_utf_8 ǂurl_cheap_biz ǂhtmlonly ǂnodate ǂnomsgid
}
