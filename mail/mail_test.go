package mail

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/mailfile"

	"github.com/textnb/textnb/tokenize"
)

const plainMsg = "From bob@example.com Mon Sep  2 10:00:00 2002\n" +
	"Return-Path: <bounce@lists.example.org>\n" +
	"Received: from mx.example.com by example.org\n" +
	"From: Bob Smith <Bob@Example.com>\n" +
	"Reply-To: offers@deals.example.net\n" +
	"To: \"ǂx\" <alice@example.org>\n" +
	"Subject: =?iso-8859-1?Q?Caf=E9?= meeting\n" +
	"Date: Mon, 2 Sep 2002 10:00:00 +0000\n" +
	"Message-ID: <abc123@example.com>\n" +
	"Content-Type: text/plain; charset=iso-8859-1\n" +
	"Content-Transfer-Encoding: quoted-printable\n" +
	"\n" +
	"Cr=E8me br=FBl=E9e at noon, see http://www.Example.com/menu?x=1 and www.other.org.=\n" +
	"\nbye ǂfrom_bob_example_com\n"

func TestDecodePlain(t *testing.T) {
	m := Decode([]byte(plainMsg), Config{})
	if m.ID != "abc123@example.com" || m.Damaged {
		t.Errorf("ID %q, damaged %v", m.ID, m.Damaged)
	}
	checkMarkers(t, m.Text)
	lines := strings.Split(m.Text, "\n")
	if lines[0] != "Café meeting" || lines[1] != "Café meeting" {
		t.Errorf("subject lines %q", lines[:2])
	}
	for _, want := range []string{"Bob Smith <Bob@Example.com>", "\" x\" <alice@example.org>", "Crème brûlée at noon", "www.other.org.\nbye"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	tokens := strings.Fields(lines[len(lines)-2])
	want := []string{"ǂcharset_iso_8859_1", "ǂurl_www_example_com", "ǂurl_www_other_org",
		"ǂfrom_bob_example_com", "ǂfromdom_example_com", "ǂreplyto_offers_deals_example_net", "ǂreplytodom_deals_example_net",
		"ǂreturnpath_bounce_lists_example_org", "ǂreturnpathdom_lists_example_org",
		"ǂhdr_return_path", "ǂhdr_received", "ǂhdr_from", "ǂhdr_reply_to", "ǂhdr_to", "ǂhdr_subject", "ǂhdr_date",
		"ǂhdr_message_id", "ǂhdr_content_type", "ǂhdr_content_transfer_encoding", "ǂrcvd_example_com", "ǂrcvd_example_org"}
	if !slices.Equal(tokens, want) {
		t.Errorf("feature tokens\n%q, want\n%q", tokens, want)
	}
	// The tokenizer keeps every feature token whole, with any settings,
	// and no body word starts with the marker.
	for _, cfg := range []tokenize.Config{{}, {SplitCompounds: true}, {Stem: true}} {
		terms := tokenize.New(cfg).Terms(nil, m.Text)
		var marked []string
		for _, term := range terms {
			if strings.HasPrefix(term, Marker) && !strings.Contains(term, " ") {
				marked = append(marked, term)
			}
		}
		if cfg.Stem {
			continue // stemming may cut a token's end, the same at training and prediction
		}
		if !slices.Equal(marked, want) {
			t.Errorf("%+v: marked terms %q", cfg, marked)
		}
	}
}

func TestFeatureGroups(t *testing.T) {
	none := Decode([]byte(plainMsg), WithFeatures(0)).Text
	if strings.Contains(none, Marker) || strings.Count(none, "Café meeting") != 1 {
		t.Errorf("no features:\n%s", none)
	}
	urls := Decode([]byte(plainMsg), WithFeatures(URLs)).Text
	if !strings.Contains(urls, "ǂurl_www_example_com") || strings.Contains(urls, "ǂfrom") || strings.Contains(urls, "ǂcharset") {
		t.Errorf("URLs only:\n%s", urls)
	}
	for _, s := range []string{"all", "none", "subject,url", "addr,struct", "subject,addr,url,struct"} {
		f, err := parseFeatures(s)
		if err != nil || f.String() != s {
			t.Errorf("parseFeatures(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := parseFeatures("subject,bogus"); err == nil {
		t.Error("parseFeatures accepted an unknown group")
	}
	if (Config{}).features() != AllFeatures {
		t.Error("the zero Config does not render every group")
	}
}

func TestDecodeMultipart(t *testing.T) {
	msg := "Content-Type: multipart/mixed; boundary=\"outer\"\nDate: x\nMessage-ID: <m>\n\npreamble\n" +
		"--outer\nContent-Type: multipart/alternative; boundary=inner\n\n" +
		"--inner\nContent-Type: text/plain\n\nplain words\n" +
		"--inner\nContent-Type: text/html\n\n<p>html words</p>\n--inner--\n" +
		"--outer\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: base64\n\n" +
		"PHA+VmlzaWJsZSAmYW1wOyBib2xkPC9wPjxzY3JpcHQ+aGlkZGVuKCk8L3NjcmlwdD48YSBocmVmPSJodHRwczovL0Jhbmsu\nZXhhbXBsZS5jb206ODAvbG9naW4iPmNsaWNrPC9hPg==\n" +
		"--outer\nContent-Type: application/pdf; name=\"report.PDF\"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n" +
		"--outer--\nepilogue\n"
	m := Decode([]byte(msg), Config{})
	for _, want := range []string{"plain words", "Visible & bold", "click", "ǂurl_bank_example_com", "ǂattach_application_pdf", "ǂattachext_pdf", "ǂcharset_utf_8"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	for _, absent := range []string{"html words", "hidden", "JVBERi", "preamble", "epilogue", "ǂhtmlonly", "ǂdamaged"} {
		if strings.Contains(m.Text, absent) {
			t.Errorf("text holds %q:\n%s", absent, m.Text)
		}
	}
	htmlOnly := Decode([]byte("Content-Type: text/html\n\n<b>Buy</b> now"), Config{})
	if !strings.Contains(htmlOnly.Text, "Buy now") || !strings.Contains(htmlOnly.Text, "ǂhtmlonly") ||
		!strings.Contains(htmlOnly.Text, "ǂnodate") || !strings.Contains(htmlOnly.Text, "ǂnomsgid") {
		t.Errorf("HTML only:\n%s", htmlOnly.Text)
	}
}

// Hostile messages decode, best effort, flagged as damaged, never panic.
func TestDecodeHostile(t *testing.T) {
	var nested strings.Builder
	nested.WriteString("Content-Type: multipart/mixed; boundary=b0\n\ntop text\n")
	for i := range 10000 {
		fmt.Fprintf(&nested, "--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n", i, i+1)
	}
	nested.WriteString("--b10000\nContent-Type: text/plain\n\ndeepest\n")
	var siblings strings.Builder
	siblings.WriteString("Content-Type: multipart/mixed; boundary=s\n\n")
	for i := range 10000 {
		fmt.Fprintf(&siblings, "--s\nContent-Type: text/plain\n\npart%d\n", i)
	}
	cases := []struct {
		name, msg string
		want      []string // in the text
		damaged   bool
	}{
		{"missing boundary parameter", "Content-Type: multipart/mixed\n\n--x\nContent-Type: text/plain\n\nhello\n", []string{"hello"}, true},
		{"wrong boundary", "Content-Type: multipart/mixed; boundary=nope\n\n--x\n\nhello\n--x--\n", []string{"hello"}, true},
		{"no close delimiter", "Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n\nhello\n--x\n\nworld", []string{"hello", "world"}, false},
		{"invalid base64", "Content-Transfer-Encoding: base64\n\naGVs!!bG8g*d29y\nbGQ", []string{"hello world"}, true},
		{"truncated base64", "Content-Transfer-Encoding: base64\n\naGVsbG8gd29ybGQh4", []string{"hello world!"}, true},
		{"bad quoted-printable", "Content-Transfer-Encoding: quoted-printable\n\na=ZZb=4", []string{"a=ZZb=4"}, false},
		{"unknown charset", "Content-Type: text/plain; charset=x-klingon\n\ncaf\xe9", []string{"café", "ǂcharset_x_klingon"}, false},
		{"unknown word charset", "Subject: =?x-klingon?Q?caf=E9?=\n\nbody", []string{"café"}, false},
		{"header line that is not a field", "Subject: a\nthis is no header\n\nbody", []string{"this is no header", "body", "ǂdamaged"}, true},
		{"10000 nested parts", nested.String(), []string{"ǂdamaged"}, true},
		{"10000 sibling parts", siblings.String(), []string{"part0", "part998"}, true},
		{"malformed content type", "Content-Type: text/html; charset=\"utf-8; boundary=\n\n<i>x y</i>", []string{"x y"}, false},
		{"empty", "", nil, false},
		{"NUL bytes", "Subject: \x00\x00\n\n\x00\xff\xfe", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := Decode([]byte(c.msg), Config{})
			for _, w := range c.want {
				if !strings.Contains(m.Text, w) {
					t.Errorf("text lacks %q:\n%.2000s", w, m.Text)
				}
			}
			if m.Damaged != c.damaged {
				t.Errorf("damaged %v, want %v", m.Damaged, c.damaged)
			}
			checkMarkers(t, m.Text)
		})
	}
	if m := Decode([]byte(nested.String()), Config{}); strings.Contains(m.Text, "deepest") {
		t.Error("a part nested beyond MaxDepth was read")
	}
	if m := Decode([]byte(siblings.String()), Config{}); strings.Contains(m.Text, "part1000\n") {
		t.Error("parts beyond MaxParts were read")
	}
}

// repeatReader yields n bytes: head, then fill bytes, then tail.
type repeatReader struct {
	head, tail []byte
	fill       byte
	n, off     int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.off < r.n {
		switch {
		case r.off < int64(len(r.head)):
			p[k] = r.head[r.off]
		case r.off >= r.n-int64(len(r.tail)):
			p[k] = r.tail[r.off-(r.n-int64(len(r.tail)))]
		default:
			p[k] = r.fill
		}
		k++
		r.off++
	}
	return k, nil
}

// A 100 MB header line, streamed: the message is cut at MaxMessage, its
// header block at MaxHeader, and the next message is read whole.
func TestHugeHeaderLine(t *testing.T) {
	head := []byte("From a@b Mon Sep  2 2002\nReceived: x\nSubject: long\nX-Junk: ")
	tail := []byte("\n\nbody one\n\nFrom c@d Mon Sep  2 2002\nSubject: two\n\nbody two\n")
	r := &repeatReader{head: head, tail: tail, fill: 'a', n: 100 << 20}
	mb := mailfile.NewMbox(r, 0)
	first, err := mb.Next()
	if err != nil || len(first) != DefaultMaxMessage || !mb.Truncated() {
		t.Fatalf("first message: %d bytes, truncated %v, %v", len(first), mb.Truncated(), err)
	}
	m := Decode(first, Config{})
	if !m.Damaged || !strings.HasPrefix(m.Text, "long\n") || len(m.Text) > 1<<10 {
		t.Errorf("first message: damaged %v, %d bytes of text: %.100q", m.Damaged, len(m.Text), m.Text)
	}
	second, err := mb.Next()
	if err != nil || mb.Num() != 2 || !strings.Contains(Decode(second, Config{}).Text, "body two") {
		t.Fatalf("second message %d: %q, %v", mb.Num(), second, err)
	}
	if _, err := mb.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last message: %v", err)
	}
	// In memory: a 100 MB header line keeps MaxHeader of it.
	big := append(append([]byte("Subject: s\nX-Junk: "), bytes.Repeat([]byte("a"), 100<<20)...), "\n\nbody"...)
	if m := Decode(big, Config{}); !m.Damaged || len(m.Text) > 1<<10 {
		t.Errorf("in memory: damaged %v, %d bytes of text", m.Damaged, len(m.Text))
	}
}

func TestURLHosts(t *testing.T) {
	var got []string
	textHosts("see HTTP://User:pw@Evil.example.com:8080/x, www.a-b.org/y and ftp://f.net and mailto:x@y http:// nowww.z.com", func(h string) { got = append(got, h) })
	want := []string{"evil.example.com", "www.a-b.org", "f.net"}
	if !slices.Equal(got, want) {
		t.Errorf("hosts %q, want %q", got, want)
	}
}
