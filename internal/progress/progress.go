// Package progress shows how far long work has come — documents, bytes,
// throughput and, when the total is known, the time left — on one line of
// a terminal, redrawn a few times a second. On anything but a terminal it
// shows nothing, so logs and pipes stay clean.
package progress

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Interval is how often a Meter redraws its line.
const Interval = 250 * time.Millisecond

// A Meter counts documents and bytes from any goroutine and shows them.
// A nil *Meter counts nothing and shows nothing, so callers need not check.
type Meter struct {
	w       io.Writer
	label   string
	docs    atomic.Int64
	bytes   atomic.Int64
	total   atomic.Int64 // bytes; 0 while unknown
	start   time.Time
	now     func() time.Time
	stop    chan struct{}
	done    chan struct{}
	mu      sync.Mutex // guards drawing
	stopped bool
	width   int // of the line last drawn
}

// New returns a Meter labelled label drawing on w if w is a terminal, or
// nil otherwise. totalBytes is the size of the input, 0 if unknown.
func New(w io.Writer, label string, totalBytes int64) *Meter {
	f, ok := w.(*os.File)
	if !ok || !IsTerminal(f) {
		return nil
	}
	m := newMeter(w, label, time.Now)
	m.SetTotal(totalBytes)
	go m.loop()
	return m
}

func newMeter(w io.Writer, label string, now func() time.Time) *Meter {
	return &Meter{w: w, label: label, start: now(), now: now, stop: make(chan struct{}), done: make(chan struct{})}
}

// SetTotal sets the size of the input in bytes, once known.
func (m *Meter) SetTotal(bytes int64) {
	if m != nil {
		m.total.Store(bytes)
	}
}

// Add counts docs more documents of n bytes.
func (m *Meter) Add(docs int, n int64) {
	if m != nil {
		m.docs.Add(int64(docs))
		m.bytes.Add(n)
	}
}

// Stop erases the line and stops drawing. It may be called more than once.
func (m *Meter) Stop() {
	if m == nil {
		return
	}
	m.mu.Lock()
	if m.stopped {
		m.mu.Unlock()
		return
	}
	m.stopped = true
	m.mu.Unlock()
	close(m.stop)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.width > 0 {
		fmt.Fprintf(m.w, "\r%s\r", strings.Repeat(" ", m.width))
	}
}

func (m *Meter) loop() {
	defer close(m.done)
	t := time.NewTicker(Interval)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.draw()
		}
	}
}

func (m *Meter) draw() {
	m.mu.Lock()
	defer m.mu.Unlock()
	line := m.Line()
	pad := max(0, m.width-len(line))
	fmt.Fprintf(m.w, "\r%s%s", line, strings.Repeat(" ", pad))
	m.width = len(line)
}

// Line returns the text the Meter shows now, as
// "train: 1,234 documents, 5.6 MB, 7.8 MB/s, 42%, 0:03 left", or, while
// nothing is counted, as "train: fitting, 0:07" (the time so far): a
// phase whose work is not counted still shows it is alive.
func (m *Meter) Line() string {
	docs, n, total := m.docs.Load(), m.bytes.Load(), m.total.Load()
	secs := m.now().Sub(m.start).Seconds()
	if docs == 0 && n == 0 {
		return m.label + ", " + clock(secs)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s documents, %s", m.label, thousands(docs), megabytes(n))
	if secs > 0 {
		fmt.Fprintf(&b, ", %.1f MB/s", float64(n)/1e6/secs)
	}
	if total > 0 && n > 0 {
		done := min(float64(n)/float64(total), 1)
		fmt.Fprintf(&b, ", %.0f%%", 100*done)
		if secs > 0 && done < 1 {
			fmt.Fprintf(&b, ", %s left", clock(secs/done-secs))
		}
	}
	return b.String()
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// thousands formats n with commas between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// clock formats seconds as M:SS, or H:MM:SS from an hour.
func clock(secs float64) string {
	s := int64(secs + 0.5)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Size returns the bytes of the regular files at path, a file or a folder
// (recursively), or 0 if it cannot tell.
func Size(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	if fi.Mode().IsRegular() {
		return fi.Size()
	}
	if !fi.IsDir() {
		return 0
	}
	var total int64
	_ = filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}
