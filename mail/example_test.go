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

func ExampleMbox() {
	file := "From a@example.org Mon Sep  2 10:00:00 2002\nSubject: one\n\n>From the start\n\n" +
		"From b@example.org Tue Sep  3 10:00:00 2002\nSubject: two\n\nbye\n"
	mb := mail.NewMbox(strings.NewReader(file), mail.Config{})
	for {
		msg, err := mb.Next()
		if err != nil {
			break // io.EOF after the last message
		}
		fmt.Printf("%d: %q\n", mb.Num(), msg)
	}
	// Output:
	// 1: "Subject: one\n\nFrom the start\n\n"
	// 2: "Subject: two\n\nbye\n"
}
