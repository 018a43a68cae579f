package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
)

// mailCorpus writes class folders of raw messages: spam as one mbox file,
// ham as single messages in a Maildir.
func mailCorpus(t *testing.T) string {
	dir := t.TempDir()
	var mbox strings.Builder
	for i := range 12 {
		fmt.Fprintf(&mbox, "From deals%d@cheap.biz Mon Sep  2 10:00:00 2002\nReceived: from x\nFrom: deals%d@cheap.biz\n"+
			"Subject: =?utf-8?B?RnJlZSBtb25leQ==?= %d\nMessage-ID: <s%d@cheap.biz>\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n%s\n\n",
			i, i, i, i, "PHA+V2luIGEgcHJpemUsIGNsaWNrIDxhIGhyZWY9Imh0dHA6Ly9jaGVhcC5iaXoveCI+aGVyZTwvYT48L3A+")
	}
	testkit.Write(t, dir, "spam/inbox.mbox", mbox.String())
	for i := range 12 {
		testkit.Write(t, dir, fmt.Sprintf("ham/Maildir/cur/%d.host:2,S", i), fmt.Sprintf(
			"Received: from a\nFrom: alice@example.org\nSubject: meeting %d\nDate: Mon, 2 Sep 2002\nMessage-ID: <h%d@example.org>\n\n"+
				"the project meeting moved to room %d, agenda attached\n", i, i, i))
	}
	return dir
}

func TestTrainPredictMail(t *testing.T) {
	dir := mailCorpus(t)
	model := filepath.Join(t.TempDir(), "m.model")
	if out := mustRun(t, "", "train", dir, "-o", model, "--quiet"); !strings.Contains(out, "read 24 of the documents as mail (--input auto, --mail-features all)") {
		t.Errorf("train:\n%s", out)
	}
	m, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.MailInput != "auto" || m.MailFeatures != "all" {
		t.Errorf("model records mail %q, features %q", m.MailInput, m.MailFeatures)
	}
	// predict names a message by its Message-ID, else FILE:N.
	in := testkit.Write(t, t.TempDir(), "new.mbox",
		"From x@y Tue Sep  3 2002\nSubject: Free money\nContent-Type: text/html\n\n<p>Win a prize, click here http://cheap.biz/y</p>\n\n"+
			"From a@b Tue Sep  3 2002\nMessage-ID: <q1@example.org>\nSubject: meeting\n\nthe project meeting agenda\n")
	out := mustRun(t, "", "predict", "-m", model, in)
	if want := in + ":1\tspam\t"; !strings.HasPrefix(out, want) || !strings.Contains(out, "\nq1@example.org\tham\t") {
		t.Errorf("predict:\n%s", out)
	}
	// --input text reads the raw file as one document.
	if out := mustRun(t, "", "predict", "-m", model, "--input", "text", in); strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, in+"\t") {
		t.Errorf("predict --input text:\n%s", out)
	}
	// A Maildir is predict's input as well as a class folder's content.
	if out := mustRun(t, "", "predict", "-m", model, filepath.Join(dir, "ham", "Maildir")); strings.Count(out, "\tham\t") != 12 || !strings.HasPrefix(out, "h0@example.org\t") {
		t.Errorf("predict a Maildir:\n%s", out)
	}
	if out := mustRun(t, "", "eval", "-m", model, dir); !strings.Contains(out, "accuracy") {
		t.Errorf("eval:\n%s", out)
	}
	if out := mustRun(t, "", "cv", dir, "--folds", "3", "--mail-features", "none"); !strings.Contains(out, "24 documents") {
		t.Errorf("cv:\n%s", out)
	}
	mustFail(t, 2, []string{"--mail-features", "bogus"}, "train", dir, "-o", model, "--mail-features", "subject,bogus")
	mustFail(t, 2, []string{"--input"}, "train", dir, "-o", model, "--input", "maybe")

	// A model trained with --input text records nothing, and predict then
	// reads mail as text, as its training did.
	textModel := filepath.Join(t.TempDir(), "t.model")
	mustRun(t, "", "train", dir, "-o", textModel, "--input", "text", "--quiet")
	if m, err := loadPipeline(textModel); err != nil || m.MailInput != "" || m.MailFeatures != "" {
		t.Fatalf("text model: %v, mail %q %q", err, m.MailInput, m.MailFeatures)
	}
	if out := mustRun(t, "", "predict", "-m", textModel, in); strings.Count(out, "\n") != 1 {
		t.Errorf("predict with a text model:\n%s", out)
	}
}

// train --tune fits its best setting on the corpus as it read it: the model
// still records the mail input it read, and says so.
func TestTuneMail(t *testing.T) {
	dir := mailCorpus(t)
	model := filepath.Join(t.TempDir(), "m.model")
	out := mustRun(t, "", "train", dir, "-o", model, "--quiet", "--tune", "--grid", "alpha=0.1,1", "--folds", "2")
	if !strings.Contains(out, "read 24 of the documents as mail (--input auto, --mail-features all)") || !strings.Contains(out, "on 24 documents") {
		t.Errorf("train --tune:\n%s", out)
	}
	m, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.MailInput != "auto" || m.MailFeatures != "all" || m.Calibration() == nil {
		t.Errorf("model records mail %q, features %q, calibration %v", m.MailInput, m.MailFeatures, m.Calibration())
	}
}
