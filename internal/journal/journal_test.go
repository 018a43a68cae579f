package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/textnb/textnb/internal/modelfile"
)

// counts is a Learner that counts documents; it refuses the label "bad"
// and unlearning what it does not hold. Its file is its counts as text.
type counts struct {
	mu sync.Mutex
	n  map[Doc]int
}

func newCounts() *counts { return &counts{n: map[Doc]int{}} }

func (c *counts) Learn(label, text string) error {
	if label == "bad" {
		return errors.New("no class bad")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n[Doc{label, text}]++
	return nil
}

func (c *counts) Unlearn(label, text string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := Doc{label, text}
	if c.n[d] == 0 {
		return errors.New("not learned")
	}
	if c.n[d]--; c.n[d] == 0 {
		delete(c.n, d)
	}
	return nil
}

// file is the model file of c's counts.
func (c *counts) file() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	var lines []string
	for d, k := range c.n {
		lines = append(lines, fmt.Sprintf("%q %q %d\n", d.Label, d.Text, k))
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, ""))
}

func (c *counts) equal(t *testing.T, want *counts, what string) {
	t.Helper()
	if got, w := c.file(), want.file(); !bytes.Equal(got, w) {
		t.Fatalf("%s: counts\n%s\nwant\n%s", what, got, w)
	}
}

func open(t *testing.T, path string, model Sum, l Learner) (*Journal, Report) {
	t.Helper()
	j, rep, err := Open(path, model, l)
	if err != nil {
		t.Fatal(err)
	}
	return j, rep
}

func doc(i int) Doc {
	return Doc{Label: []string{"ham", "spam"}[i%2], Text: fmt.Sprintf("message %d ✓", i)}
}

func TestReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.model.journal")
	var base Sum
	live, want := newCounts(), newCounts()
	j, rep := open(t, path, base, live)
	if rep != (Report{}) {
		t.Fatalf("a new journal reports %+v", rep)
	}
	for i := range 10 {
		if err := j.Learn(doc(i), doc(i+100)); err != nil {
			t.Fatal(err)
		}
		want.Learn(doc(i).Label, doc(i).Text)
		want.Learn(doc(i+100).Label, doc(i+100).Text)
	}
	if err := j.Unlearn(doc(3)); err != nil {
		t.Fatal(err)
	}
	want.Unlearn(doc(3).Label, doc(3).Text)
	live.equal(t, want, "live")
	if st := j.Stats(); st.Updates != 11 || st.Docs != 21 || st.Syncs == 0 || st.Syncs > 11 {
		t.Fatalf("stats %+v", st)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Learn(doc(1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Learn after Close: %v", err)
	}
	again := newCounts()
	j, rep = open(t, path, base, again)
	defer j.Close()
	if rep.Updates != 11 || rep.Docs != 21 || rep.TornBytes != 0 {
		t.Fatalf("replay reports %+v", rep)
	}
	again.equal(t, want, "replayed")
}

// TestRefused: a document the Learner refuses fails its whole update,
// which is not recorded, and the others go on.
func TestRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	live := newCounts()
	j, _ := open(t, path, Sum{}, live)
	err := j.Learn(doc(0), Doc{"bad", "x"})
	var de *DocError
	if !errors.As(err, &de) || de.Index != 1 {
		t.Fatalf("Learn with a refused document: %v", err)
	}
	if err := j.Unlearn(doc(5)); !errors.As(err, &de) || de.Index != 0 {
		t.Fatalf("Unlearn of a document never learned: %v", err)
	}
	if err := j.Learn(doc(2)); err != nil {
		t.Fatal(err)
	}
	want := newCounts()
	want.Learn(doc(2).Label, doc(2).Text)
	live.equal(t, want, "live")
	j.Close()
	again := newCounts()
	j, rep := open(t, path, Sum{}, again)
	defer j.Close()
	if rep.Updates != 1 {
		t.Fatalf("replayed %d updates, want 1", rep.Updates)
	}
	again.equal(t, want, "replayed")
}

// write makes a journal of n updates of one document each and returns its
// bytes and the offset after each record.
func write(t *testing.T, path string, n int) ([]byte, []int) {
	t.Helper()
	j, _ := open(t, path, Sum{}, newCounts())
	var ends []int
	for i := range n {
		if err := j.Learn(doc(i)); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, int(j.Stats().Bytes))
	}
	j.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, ends
}

// TestTornTail cuts the journal at every byte: the records whole before
// the cut replay, the rest is dropped, and the journal goes on from there.
func TestTornTail(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j")
	data, ends := write(t, path, 4)
	for cut := headerSize; cut <= len(data); cut++ {
		if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		whole := 0
		for whole < len(ends) && ends[whole] <= cut {
			whole++
		}
		got := newCounts()
		j, rep := open(t, path, Sum{}, got)
		want := newCounts()
		for i := range whole {
			want.Learn(doc(i).Label, doc(i).Text)
		}
		got.equal(t, want, fmt.Sprintf("cut at %d", cut))
		wantTorn := int64(cut - headerSize)
		if whole > 0 {
			wantTorn = int64(cut - ends[whole-1])
		}
		if rep.Updates != whole || rep.TornBytes != wantTorn {
			t.Fatalf("cut at %d: report %+v, want %d updates and %d torn bytes", cut, rep, whole, wantTorn)
		}
		if err := j.Learn(doc(99)); err != nil {
			t.Fatal(err)
		}
		j.Close()
		after := newCounts()
		j, rep = open(t, path, Sum{}, after)
		j.Close()
		want.Learn(doc(99).Label, doc(99).Text)
		after.equal(t, want, fmt.Sprintf("cut at %d, then an update", cut))
		if rep.TornBytes != 0 {
			t.Fatalf("cut at %d: the torn tail is still there: %+v", cut, rep)
		}
	}
}

// TestDamage: a bad checksum in the last record is a torn write; one with
// records after it is damage, reported and left alone.
func TestDamage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j")
	data, ends := write(t, path, 3)
	last := slices.Clone(data)
	last[len(last)-2] ^= 1
	os.WriteFile(path, last, 0o644)
	got := newCounts()
	j, rep := open(t, path, Sum{}, got)
	j.Close()
	if rep.Updates != 2 || rep.TornBytes != int64(len(data)-ends[1]) {
		t.Fatalf("a bad last record: %+v", rep)
	}

	for _, at := range []int{ends[0] + 3, ends[0] + 9} { // a length, a payload
		mid := slices.Clone(data)
		mid[at] ^= 0x10
		os.WriteFile(path, mid, 0o644)
		_, _, err := Open(path, Sum{}, newCounts())
		if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprint("byte ", ends[0])) {
			t.Fatalf("damage at byte %d: %v", at, err)
		}
		if b, _ := os.ReadFile(path); !bytes.Equal(b, mid) {
			t.Fatal("Open changed a damaged journal")
		}
	}

	zeros := append(slices.Clone(data[:ends[1]]), make([]byte, 4096)...)
	os.WriteFile(path, zeros, 0o644)
	j, rep = open(t, path, Sum{}, newCounts())
	j.Close()
	if rep.Updates != 2 || rep.TornBytes != 4096 {
		t.Fatalf("zeros after the last record: %+v", rep)
	}

	hdr := slices.Clone(data)
	hdr[10] ^= 1
	os.WriteFile(path, hdr, 0o644)
	if _, _, err := Open(path, Sum{}, newCounts()); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a damaged header: %v", err)
	}
	os.WriteFile(path, []byte("a file of someone else's\n"), 0o644)
	if _, _, err := Open(path, Sum{}, newCounts()); !errors.Is(err, ErrNotJournal) {
		t.Fatalf("another file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "a file of someone else's\n" {
		t.Fatal("Open changed a file that is not a journal")
	}
}

// saver writes a counts model file the way serve does: atomically.
func saver(t *testing.T, path string) func([]byte) error {
	return func(data []byte) error {
		if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
			return err
		}
		return os.Rename(path+".tmp", path)
	}
}

func TestCompact(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	path := model + ".journal"
	live, want := newCounts(), newCounts()
	os.WriteFile(model, live.file(), 0o644)
	j, _ := open(t, path, SumOf(live.file()), live)
	learn := func(i int) {
		t.Helper()
		if err := j.Learn(doc(i)); err != nil {
			t.Fatal(err)
		}
		want.Learn(doc(i).Label, doc(i).Text)
	}
	for i := range 5 {
		learn(i)
	}
	sum, err := j.Compact(func(w io.Writer) error { _, err := w.Write(live.file()); return err },
		func(data []byte) error {
			learn(50) // updates go on while the file is written
			return saver(t, model)(data)
		})
	if err != nil {
		t.Fatal(err)
	}
	learn(6)
	file, _ := os.ReadFile(model)
	if sum != SumOf(file) || !j.Owns(sum) {
		t.Fatalf("Compact returned %v, the file is %v", sum, SumOf(file))
	}
	j.Close()
	fromFile := fileCounts(t, file)
	if fromFile.n[doc(0)] != 1 || fromFile.n[doc(6)] != 0 {
		t.Fatalf("the compacted file holds %s", file)
	}
	again := fromFile
	j, rep := open(t, path, sum, again)
	j.Close()
	again.equal(t, want, "compacted file + journal")
	if rep.Updates != 2 {
		t.Fatalf("replayed %d updates onto the compacted file, want 2 (the ones after its snapshot)", rep.Updates)
	}
	if n := j.Stats().Compactions; n != 0 {
		t.Fatalf("a journal just opened counts %d compactions", n)
	}
}

// TestCompactCrash replays what a crash at each step of a compaction leaves.
func TestCompactCrash(t *testing.T) {
	for _, step := range []string{"before the model file", "after the model file"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			model := filepath.Join(dir, "m.model")
			path := model + ".journal"
			live, want := newCounts(), newCounts()
			os.WriteFile(model, live.file(), 0o644)
			base := SumOf(live.file())
			j, _ := open(t, path, base, live)
			for i := range 4 {
				j.Learn(doc(i))
				want.Learn(doc(i).Label, doc(i).Text)
			}
			crash := errors.New("crash")
			_, err := j.Compact(func(w io.Writer) error { _, err := w.Write(live.file()); return err },
				func(data []byte) error {
					if step == "after the model file" {
						saver(t, model)(data)
					}
					j.Learn(doc(9))
					want.Learn(doc(9).Label, doc(9).Text)
					return crash
				})
			if !errors.Is(err, crash) {
				t.Fatalf("Compact: %v", err)
			}
			j.Close()
			file, _ := os.ReadFile(model)
			got := fileCounts(t, file)
			j, rep := open(t, path, SumOf(file), got)
			j.Close()
			got.equal(t, want, "after the crash")
			if rep.Superseded != "" {
				t.Fatalf("the journal was set aside: %+v", rep)
			}
		})
	}
}

// TestSuperseded: a model file the journal does not know (trained anew)
// keeps none of its updates, and the journal is kept aside.
func TestSuperseded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.model.journal")
	j, _ := open(t, path, SumOf([]byte("v1")), newCounts())
	j.Learn(doc(1))
	j.Close()
	old, _ := os.ReadFile(path)
	got := newCounts()
	j, rep := open(t, path, SumOf([]byte("v2")), got)
	defer j.Close()
	if rep.Superseded == "" || rep.Updates != 0 || len(got.n) != 0 {
		t.Fatalf("a journal of another model file: %+v, counts %v", rep, got.n)
	}
	if b, err := os.ReadFile(rep.Superseded); err != nil || !bytes.Equal(b, old) {
		t.Fatalf("the superseded journal: %v", err)
	}
	if !j.Owns(SumOf([]byte("v2"))) || j.Owns(SumOf([]byte("v1"))) {
		t.Fatal("the new journal does not belong to the new model file")
	}
}

func TestLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, _ := open(t, path, Sum{}, newCounts())
	defer j.Close()
	if _, _, err := Open(path, Sum{}, newCounts()); !errors.Is(err, modelfile.ErrLocked) {
		t.Fatalf("a second Open: %v", err)
	}
}

// TestWriteFails: an update that cannot be synced is undone in the model,
// and the journal takes no more.
func TestWriteFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	live := newCounts()
	j, _ := open(t, path, Sum{}, live)
	j.Learn(doc(1))
	j.f.Close() // every write fails from now on
	if err := j.Learn(doc(2)); !errors.Is(err, ErrWrite) {
		t.Fatalf("Learn into a closed file: %v", err)
	}
	if err := j.Learn(doc(3)); !errors.Is(err, ErrWrite) {
		t.Fatalf("Learn after a failed write: %v", err)
	}
	want := newCounts()
	want.Learn(doc(1).Label, doc(1).Text)
	live.equal(t, want, "after failed writes")
}

// TestConcurrent: updates from many goroutines all replay.
func TestConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	live := newCounts()
	j, _ := open(t, path, Sum{}, live)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 50 {
				if err := j.Learn(doc(g*1000 + i)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	j.Close()
	if st := j.Stats(); st.Updates != 800 || st.Syncs > 800 {
		t.Fatalf("stats %+v", st)
	}
	again := newCounts()
	j, _ = open(t, path, Sum{}, again)
	j.Close()
	again.equal(t, live, "replayed")
}

func fileCounts(t *testing.T, file []byte) *counts {
	t.Helper()
	c := newCounts()
	for line := range strings.Lines(string(file)) {
		var d Doc
		var k int
		if _, err := fmt.Sscanf(line, "%q %q %d", &d.Label, &d.Text, &k); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		c.n[d] = k
	}
	return c
}

// batches is counts taking batches, which it counts.
type batches struct {
	*counts
	calls atomic.Int64
}

func (b *batches) LearnBatch(docs []Doc) (int, error) { return b.each(docs, b.Learn) }

func (b *batches) UnlearnBatch(docs []Doc) (int, error) { return b.each(docs, b.Unlearn) }

func (b *batches) each(docs []Doc, f func(label, text string) error) (int, error) {
	b.calls.Add(1)
	for i, d := range docs {
		if err := f(d.Label, d.Text); err != nil {
			return i, err
		}
	}
	return len(docs), nil
}

// TestBatches: with a BatchLearner, concurrent updates apply together, a
// refused one fails alone and applies nothing, and a replay batches too.
func TestBatches(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	live := &batches{counts: newCounts()}
	j, _ := open(t, path, Sum{}, live)
	var wg sync.WaitGroup
	var refused atomic.Int64
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				docs := []Doc{doc(g*1000 + i), doc(g*1000 + i + 500)}
				if i%10 == 3 {
					docs[1].Label = "bad"
				}
				var de *DocError
				if err := j.Learn(docs...); errors.As(err, &de) && de.Index == 1 {
					refused.Add(1)
				} else if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if err := j.Unlearn(doc(1), doc(99999)); err == nil {
		t.Error("unlearning a document never learned succeeded")
	}
	j.Close()
	if refused.Load() != 32 || len(live.n) != 2*(320-32) {
		t.Fatalf("%d refused, %d documents learned", refused.Load(), len(live.n))
	}
	again := &batches{counts: newCounts()}
	j, rep := open(t, path, Sum{}, again)
	j.Close()
	again.equal(t, live.counts, "replayed")
	// The batches that applied whole, and one per update that did not.
	if rep.Updates != 320-32 || again.calls.Load() > live.calls.Load() {
		t.Errorf("replayed %d updates in %d batches, want %d in at most %d", rep.Updates, again.calls.Load(), 320-32, live.calls.Load())
	}
}

// FuzzOpen: whatever follows a journal's header, Open replays whole
// records or reports damage; it never panics.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	j, _, err := Open(filepath.Join(dir, "seed"), Sum{}, newCounts())
	if err != nil {
		f.Fatal(err)
	}
	j.Learn(doc(1), doc(2))
	j.Unlearn(doc(1))
	j.Close()
	seed, _ := os.ReadFile(filepath.Join(dir, "seed"))
	f.Add(seed[headerSize:])
	f.Add(appendCompacted(nil, 7, Sum{1}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, records []byte) {
		path := filepath.Join(t.TempDir(), "j")
		os.WriteFile(path, append(appendHeader(nil, Sum{}), records...), 0o644)
		j, _, err := Open(path, Sum{}, newCounts())
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Open: %v, not ErrCorrupt", err)
			}
			return
		}
		if err := j.Learn(doc(3)); err != nil {
			t.Fatal(err)
		}
		j.Close()
	})
}
