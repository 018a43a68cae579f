package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeCorpus writes files (path relative to dir → content) and sets the
// modification times given.
func writeCorpus(t *testing.T, dir string, files map[string]string, mtimes map[string]time.Time) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, mt := range mtimes {
		if err := os.Chtimes(filepath.Join(dir, name), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
}

// bases returns the documents' Sources relative to dir.
func bases(t *testing.T, dir string, docs []Document) string {
	t.Helper()
	var s []string
	for _, d := range docs {
		r, err := filepath.Rel(dir, d.Source)
		if err != nil {
			t.Fatal(err)
		}
		s = append(s, filepath.ToSlash(r))
	}
	return strings.Join(s, " ")
}

func checkOrder(t *testing.T, dir, by, wantBy, want string) {
	t.Helper()
	docs, got, err := ReadOrdered(dir, Options{}, by)
	if err != nil {
		t.Fatal(err)
	}
	if got != wantBy {
		t.Errorf("order %v: used %v, want %v", by, got, wantBy)
	}
	if s := bases(t, dir, docs); s != want {
		t.Errorf("order %v:\n got %s\nwant %s", by, s, want)
	}
}

func TestReadOrderedEnronNames(t *testing.T) {
	dir := t.TempDir()
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	// Enron-Spam: ham of 1999–2000, spam of 2003–2004, numbered in the
	// order the corpus's authors had them arrive; mtimes say otherwise.
	writeCorpus(t, dir, map[string]string{
		"ham/0001.1999-12-10.farmer.ham.txt": "Subject: meeting\r\nsee you",
		"ham/0002.1999-12-13.farmer.ham.txt": "Subject: gas\r\nnominations",
		"ham/0004.2000-01-02.farmer.ham.txt": "Subject: re\r\nok",
		"spam/0003.2003-12-18.GP.spam.txt":   "Subject: cheap\r\nbuy now",
		"spam/0005.2004-01-01.GP.spam.txt":   "Subject: win\r\nprize",
	}, map[string]time.Time{
		"ham/0001.1999-12-10.farmer.ham.txt": old.Add(5 * time.Hour),
		"ham/0002.1999-12-13.farmer.ham.txt": old.Add(time.Hour),
		"ham/0004.2000-01-02.farmer.ham.txt": old.Add(time.Hour),
		"spam/0003.2003-12-18.GP.spam.txt":   old.Add(time.Hour),
		"spam/0005.2004-01-01.GP.spam.txt":   old,
	})
	want := "ham/0001.1999-12-10.farmer.ham.txt ham/0002.1999-12-13.farmer.ham.txt spam/0003.2003-12-18.GP.spam.txt " +
		"ham/0004.2000-01-02.farmer.ham.txt spam/0005.2004-01-01.GP.spam.txt"
	checkOrder(t, dir, "auto", "name", want)
	checkOrder(t, dir, "name", "name", want)
	docs, _, err := readOrdered(dir, Options{}, orderMtime, "")
	if err != nil {
		t.Fatal(err)
	}
	if first := filepath.Base(docs[0].Source); first != "0005.2004-01-01.GP.spam.txt" {
		t.Errorf("orderMtime: first %s, want the oldest file", first)
	}
	if last := filepath.Base(docs[len(docs)-1].Source); last != "0001.1999-12-10.farmer.ham.txt" {
		t.Errorf("orderMtime: last %s, want the newest file", last)
	}
}

func TestReadOrderedDatedNames(t *testing.T) {
	dir := t.TempDir()
	// Dates but no sequence numbers of their own (1 twice): the dates order.
	writeCorpus(t, dir, map[string]string{
		"a/1.2002-03-01.txt":    "x",
		"a/b-2002-01-15.txt":    "y",
		"b/1.2002-02-01.txt":    "z",
		"b/note_2001-12-31.txt": "w",
	}, nil)
	checkOrder(t, dir, "auto", "name", "b/note_2001-12-31.txt a/b-2002-01-15.txt b/1.2002-02-01.txt a/1.2002-03-01.txt")
}

func TestReadOrderedMailDates(t *testing.T) {
	dir := t.TempDir()
	msg := func(date, subject string) string {
		h := "From: a@example.com\nMessage-ID: <" + subject + "@example.com>\n"
		if date != "" {
			h += "Date: " + date + "\n"
		}
		return h + "Subject: " + subject + "\n\nbody of " + subject + "\n"
	}
	writeCorpus(t, dir, map[string]string{
		"ham/00001.aaa":  msg("Thu, 22 Aug 2002 18:26:25 +0700", "third"), // 11:26 UTC
		"ham/00002.bbb":  msg("Thu, 22 Aug 2002 09:00:00 +0000", "second"),
		"spam/00001.ccc": msg("Wed, 21 Aug 2002 20:31:57 -1600", "fourth"), // 12:31 UTC on the 22nd
		"spam/00002.ddd": msg("", "first"),                                 // no date: its mtime, 2002-08-20
	}, map[string]time.Time{
		"spam/00002.ddd": time.Date(2002, 8, 20, 0, 0, 0, 0, time.UTC),
		"ham/00001.aaa":  time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
	})
	want := "spam/00002.ddd ham/00002.bbb ham/00001.aaa spam/00001.ccc"
	checkOrder(t, dir, "auto", "date", want)
	// by name: the numbers repeat across folders, so the names as they sort
	checkOrder(t, dir, "name", "name", "ham/00001.aaa spam/00001.ccc ham/00002.bbb spam/00002.ddd")
}

func TestReadOrderedMtime(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	writeCorpus(t, dir, map[string]string{
		"pos/a.txt": "good", "pos/b.txt": "fine", "neg/c.txt": "bad", "neg/d.txt": "awful",
	}, map[string]time.Time{
		"pos/a.txt": base.Add(3 * time.Minute), "pos/b.txt": base,
		"neg/c.txt": base.Add(time.Minute), "neg/d.txt": base.Add(3 * time.Minute), // ties a.txt: reading order
	})
	checkOrder(t, dir, "auto", "mtime", "pos/b.txt neg/c.txt neg/d.txt pos/a.txt")
}

func TestReadOrderedLineFile(t *testing.T) {
	dir := t.TempDir()
	writeCorpus(t, dir, map[string]string{"c.tsv": "label\ttext\nb\tsecond? no, first row\na\tthen this\nb\tlast\n"}, nil)
	docs, by, err := readOrdered(filepath.Join(dir, "c.tsv"), Options{}, orderAuto, "")
	if err != nil {
		t.Fatal(err)
	}
	if by != orderMtime || len(docs) != 3 || docs[0].Text != "second? no, first row" || docs[2].Text != "last" {
		t.Errorf("line file: order %v, %+v; want its rows in order", by, docs)
	}
}

func TestReadOrderedList(t *testing.T) {
	dir := t.TempDir()
	writeCorpus(t, dir, map[string]string{
		"c/ham/1":  "Date: Thu, 22 Aug 2002 09:00:00 +0000\nMessage-ID: <m1@x>\nSubject: a\n\nhello\n",
		"c/ham/2":  "plain text",
		"c/spam/3": "buy",
	}, nil)
	corpusDir := filepath.Join(dir, "c")
	list := filepath.Join(dir, "index")
	write := func(s string) {
		if err := os.WriteFile(list, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// the TREC index form (label, path relative to the list), a path
	// relative to the corpus, a Message-ID, a comment and a blank line
	write("# order\nspam c/spam/3\n\nham/2\n<m1@x>\n")
	checkOrder(t, corpusDir, list, "list", "spam/3 ham/2 ham/1")
	for _, c := range []struct{ list, want string }{
		{"spam c/spam/3\nham/2\nham/9\n", "index:3"},
		{"spam/3\nham/2\nham/1\nspam/3\n", "index:4: corpus: bad order list: " + filepath.Join(corpusDir, "spam", "3") + " named again (first on line 1)"},
		{"ham c/spam/3\nham/2\nham/1\n", `labeled "ham" here`},
		{"spam/3\nham/1\n", "names 2 of the 3"},
	} {
		write(c.list)
		_, _, err := readOrdered(corpusDir, Options{}, orderList, list)
		if !errors.Is(err, ErrOrderList) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("list %q: error %v; want ErrOrderList with %q", c.list, err, c.want)
		}
	}
	if _, _, err := readOrdered(corpusDir, Options{}, orderList, filepath.Join(dir, "missing")); err == nil {
		t.Error("missing list: no error")
	}
}

func TestNaturalCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"9.txt", "10.txt", -1}, {"010", "9", 1}, {"a2b", "a10b", -1}, {"abc", "abd", -1}, {"ab", "abc", -1}, {"007", "7", 0},
	} {
		if got := naturalCompare(c.a, c.b); got != c.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
