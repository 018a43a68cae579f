package mailfile

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestMbox(t *testing.T) {
	in := "From a@b Mon Sep  2 2002\nSubject: one\n\nFrom here on, no split\n>From quoted\n>>From twice\n\n" +
		"From c@d Tue Sep  3 2002\r\nSubject: two\r\n\r\nsecond\r\n\r\nFrom e@f Wed Sep  4 2002\nSubject: three\n\nthird"
	mb := NewMbox(strings.NewReader(in), 0)
	var got []string
	for {
		msg, err := mb.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(msg))
	}
	want := []string{
		"Subject: one\n\nFrom here on, no split\nFrom quoted\n>From twice\n\n",
		"Subject: two\r\n\r\nsecond\r\n\r\n",
		"Subject: three\n\nthird",
	}
	if !slices.Equal(got, want) {
		t.Errorf("messages\n%q, want\n%q", got, want)
	}
	// A file without a From line is one message.
	mb = NewMbox(strings.NewReader("Subject: x\n\nbody"), 0)
	if msg, err := mb.Next(); err != nil || string(msg) != "Subject: x\n\nbody" {
		t.Errorf("no From line: %q, %v", msg, err)
	}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name, head string
		want       Kind
	}{
		{"mbox", "From a@b Mon Sep  2 2002\nReturn-Path: <a@b>\nSubject: x\n\nbody", MboxFile},
		{"received", "Received: from x\nFrom: a@b\nSubject: x\n\nbody", OneMessage},
		{"message-id and date", "Return-Path: a@b\nFrom: a@b\nDate: Thu, 5 Sep 2002\nMessage-ID: <x@y>\n\nbody", OneMessage},
		{"cut header", "Received: from x\nX-Long: aaaaaa", OneMessage},
		{"news post", "From: a@b (A)\nSubject: Re: x\nOrganization: U\nLines: 5\n\nbody", NotMail},
		{"news post with MIME", "From: a@b\nSubject: x\nLines: 5\nMime-Version: 1.0\nContent-Type: text/plain\n\nbody", NotMail},
		{"news post with ids", "From: a@b\nNewsgroups: comp.x\nDate: x\nMessage-ID: <x>\n\nbody", NotMail},
		{"enron", "Subject: hello\nhow are you\n", NotMail},
		{"text", "Dear friend,\nFrom: me\n", NotMail},
		{"From in prose", "From here on\nwe go\n", NotMail},
		{"empty", "", NotMail},
	}
	for _, c := range cases {
		if got := Detect([]byte(c.head)); got != c.want {
			t.Errorf("%s: Detect = %v, want %v", c.name, got, c.want)
		}
	}
}

// BenchmarkDetect is the cost auto input adds to every plain text file:
// Detect on a 20 Newsgroups post's first bytes.
func BenchmarkDetect(b *testing.B) {
	post := []byte("From: drice@ponder.csci.unt.edu (D. Keith Rice)\nSubject: Re: Drive/Controller Compatibility\n" +
		"Lines: 672\nOrganization: University of North Texas\n\n" + strings.Repeat("Thanks to all who responded to my post.\n", 100))
	for b.Loop() {
		Detect(post)
	}
}
