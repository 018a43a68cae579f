package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/mail"
)

const (
	spamMsg = "From spammer@cheap.biz Mon Sep  2 10:00:00 2002\nReceived: from x by y\nFrom: Deals <spammer@cheap.biz>\n" +
		"Subject: =?utf-8?B?RnJlZSBtb25leQ==?=\nMessage-ID: <s1@cheap.biz>\nContent-Type: text/html\n\n<p>Click <a href=\"http://cheap.biz/x\">here</a></p>\n"
	hamMsg = "Received: from a by b\nFrom: alice@example.org\nSubject: lunch\nDate: Mon, 2 Sep 2002\nMessage-ID: <h1@example.org>\n\nsee you at noon\n"
	// newsPost has the header fields of a 20 Newsgroups post, MIME ones
	// included: it must read as text, exactly.
	newsPost = "From: bob@uni.edu (Bob)\nSubject: Re: drives\nOrganization: U\nLines: 3\nMime-Version: 1.0\nContent-Type: text/plain\nMessage-ID: <n@u>\nDate: x\n\nmy drive\n"
	enronDoc = "Subject: dobmeos with hgh\nintroducing doctor - formulated hgh\n"
)

func TestReadMail(t *testing.T) {
	dir := t.TempDir()
	testkit.Write(t, dir, "spam/a", spamMsg)
	testkit.Write(t, dir, "spam/b.mbox", spamMsg+"\n"+strings.Replace(spamMsg, "s1@", "s2@", 1)+"\n"+
		"From x@y Tue Sep  3 2002\nSubject: no id\n\n>From quoted\n")
	testkit.Write(t, dir, "ham/maildir/cur/1.host:2,S", hamMsg)
	testkit.Write(t, dir, "ham/maildir/new/2.host", strings.Replace(hamMsg, "h1@", "h2@", 1))
	testkit.Write(t, dir, "ham/maildir/tmp/3.host", "half delivered")
	testkit.Write(t, dir, "ham/news", newsPost)
	testkit.Write(t, dir, "ham/enron.txt", enronDoc)
	testkit.Write(t, dir, "ham/x.eml", "Subject: eml\n\nby extension\n")

	var docs []Document
	st, err := Walk(dir, Options{}, func(d Document) error { docs = append(docs, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		rel, _ := filepath.Rel(dir, d.Source)
		got = append(got, fmt.Sprintf("%s %s %s %v", d.Label, rel, d.ID, d.Mail))
	}
	want := []string{
		"ham ham/enron.txt  false",
		"ham ham/maildir/cur/1.host:2,S h1@example.org true",
		"ham ham/maildir/new/2.host h2@example.org true",
		"ham ham/news  false",
		"ham ham/x.eml  true",
		"spam spam/a s1@cheap.biz true",
		"spam spam/b.mbox:1 s1@cheap.biz true",
		"spam spam/b.mbox:2 s2@cheap.biz true",
		"spam spam/b.mbox:3  true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("documents\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if st.Mail != 7 || st.Docs != 9 {
		t.Errorf("stats: %d mail of %d documents", st.Mail, st.Docs)
	}
	byName := map[string]string{}
	for _, d := range docs {
		byName[filepath.Base(d.Source)] = d.Text // b.mbox:3 for a message of an mbox
	}
	if byName["news"] != newsPost || byName["enron.txt"] != enronDoc {
		t.Errorf("plain text did not read as text: %q, %q", byName["news"], byName["enron.txt"])
	}
	if a := byName["a"]; !strings.HasPrefix(a, "Free money\nFree money\n") || !strings.Contains(a, "Click here") ||
		!strings.Contains(a, mail.Marker+"url_cheap_biz") || strings.Contains(a, "<p>") {
		t.Errorf("spam message:\n%s", a)
	}
	if m := byName["b.mbox:3"]; !strings.Contains(m, "From quoted") || strings.Contains(m, ">From") {
		t.Errorf("mbox message 3:\n%s", m)
	}

	// --input text reads every file as it is; mail as configured.
	raw := mustReadAll(t, filepath.Join(dir, "spam"), Options{Input: InputText, Unlabeled: true})
	if len(raw) != 2 || raw[0].Text != spamMsg || raw[0].Mail {
		t.Errorf("--input text: %d documents, first %q", len(raw), raw[0].Text)
	}
	none := mustReadAll(t, filepath.Join(dir, "spam"), Options{Unlabeled: true, Mail: mail.WithFeatures(0)})
	if strings.Contains(none[0].Text, mail.Marker) {
		t.Errorf("no features: %q", none[0].Text)
	}
	forced := mustReadAll(t, filepath.Join(dir, "ham"), Options{Unlabeled: true, Input: InputMail})
	for _, d := range forced {
		if !d.Mail {
			t.Errorf("--input mail: %s read as text", d.Source)
		}
	}
}

// A single mail file, as predict reads one.
func TestWalkWhole(t *testing.T) {
	dir := t.TempDir()
	path := testkit.Write(t, dir, "inbox", spamMsg+"\nFrom b@c Tue Sep  3 2002\n"+hamMsg)
	var ids []string
	if _, err := Walk(path, Options{Whole: true}, func(d Document) error { ids = append(ids, d.Source+" "+d.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := path + ":1 s1@cheap.biz," + path + ":2 h1@example.org"; strings.Join(ids, ",") != want {
		t.Errorf("got %q, want %q", ids, want)
	}
	docs := mustReadAll(t, testkit.Write(t, dir, "one.mbox", spamMsg), Options{Unlabeled: true})
	if len(docs) != 1 || !docs[0].Mail {
		t.Errorf(".mbox file: %+v", docs)
	}
	if _, err := ReadAll(filepath.Join(dir, "one.mbox"), Options{}); err == nil {
		t.Error("a labeled read of an .mbox file succeeded")
	}
}

// A 2 GB mbox (a sparse file) streams: its messages come out in order,
// the one that holds the gigabytes cut at mail.DefaultMaxMessage, in
// memory bounded by that, not by the file.
func TestHugeMbox(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 2 GB")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "spam", "huge")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	tail := "\n\n" + strings.Replace(hamMsg, "Received:", "From b@c Tue Sep  3 2002\nReceived:", 1)
	if _, err := f.WriteString(spamMsg + "zeros follow\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(tail), 2<<30-int64(len(tail))); err != nil {
		t.Skip("no sparse file:", err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var got []string
	_, err = Walk(dir, Options{Workers: 2}, func(d Document) error {
		got = append(got, filepath.Base(d.Source)+" "+d.ID)
		return nil
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "huge:1 s1@cheap.biz,huge:2 h1@example.org" {
		t.Errorf("documents %q", got)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<30 {
		t.Errorf("reading allocated %d MB", alloc>>20)
	}
}
