package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/textnb/textnb/internal/modelfile"
)

// A Learner is the model a journal's updates apply to.
type Learner interface {
	Learn(label, text string) error
	Unlearn(label, text string) error
}

// A BatchLearner applies many documents at once, which may cost much less
// than one at a time (one refit of the classifier). When it fails it says
// how many of docs, from the first, it applied. A journal whose Learner is
// one applies the updates that arrive together, and a replay, in batches.
type BatchLearner interface {
	Learner
	LearnBatch(docs []Doc) (applied int, err error)
	UnlearnBatch(docs []Doc) (applied int, err error)
}

// DocError is a document of an update that the Learner refused; none of
// the update's documents were applied.
type DocError struct {
	Index int // from 0
	Err   error
}

func (e *DocError) Error() string { return fmt.Sprintf("document %d: %v", e.Index+1, e.Err) }
func (e *DocError) Unwrap() error { return e.Err }

// Report says what Open found.
type Report struct {
	Updates   int   // updates replayed onto the model
	Docs      int   // their documents
	TornBytes int64 // an interrupted write dropped from the end
	// Superseded is where a journal of another version of the model file
	// was moved, or "".
	Superseded string
}

// Stats count a journal's work since Open.
type Stats struct {
	Updates, Docs, Syncs, Compactions uint64
	Bytes                             int64 // the file's size now
}

// maxGroup bounds the requests written with one sync.
const maxGroup = 4096

// A Journal applies updates to its Learner in one order and records each
// in its file, synced, before it returns. Concurrent updates share syncs
// (group commit). Its methods may be called from many goroutines.
type Journal struct {
	path string
	l    Learner
	lock *os.File

	qmu    sync.RWMutex // guards sending on queue against closing it
	closed bool
	queue  chan *request
	done   chan struct{}

	mu      sync.Mutex // held while updates apply and are written, and by Compact
	f       *os.File
	size    int64
	base    Sum
	seq     uint64
	pending *Sum  // the target of a compaction under way
	markEnd int64 // the offset after its compacted record
	err     error // a failed write: sticky
	buf     []byte

	updates, docs, syncs, compactions atomic.Uint64
	bytes                             atomic.Int64
}

type request struct {
	op   Op
	docs []Doc
	done chan error
}

// Open opens the journal at path for the model file whose bytes have Sum
// model, replays onto l the updates that model lacks, and starts taking
// updates. A missing journal is created. A journal of another version of
// the model file is renamed to PATH.superseded-TIME and a new one started.
// An interrupted write at the end is dropped. Open locks PATH.lock, so one
// process at a time writes the journal (ErrLocked otherwise).
func Open(path string, model Sum, l Learner) (*Journal, Report, error) {
	var rep Report
	lock, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, rep, err
	}
	if err := modelfile.TryLock(lock); err != nil {
		lock.Close()
		return nil, rep, fmt.Errorf("%s: %w: another process learns into this model", path, err)
	}
	j := &Journal{path: path, l: l, lock: lock, base: model}
	if err := j.open(model, &rep); err != nil {
		lock.Close()
		return nil, rep, err
	}
	j.queue = make(chan *request, maxGroup)
	j.done = make(chan struct{})
	go j.run()
	return j, rep, nil
}

func (j *Journal) open(model Sum, rep *Report) error {
	j.removeTemporaries()
	data, err := readJournal(j.path)
	if errors.Is(err, fs.ErrNotExist) {
		return j.replace(model, nil)
	}
	if err != nil {
		return err
	}
	base, err := readHeader(data)
	if err != nil {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	recs, good, err := scan(data[headerSize:])
	if err != nil {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	rep.TornBytes = int64(len(data) - headerSize - good)
	for _, r := range recs {
		j.seq = max(j.seq, r.seq)
	}
	from := -1 // the first record model lacks
	if base == model {
		from = 0
	} else {
		for i := len(recs) - 1; i >= 0; i-- {
			if recs[i].op == compacted && recs[i].target == model {
				from = i + 1
				break
			}
		}
	}
	if from < 0 {
		aside := j.path + ".superseded-" + time.Now().UTC().Format("20060102T150405.000000000Z")
		if err := os.Rename(j.path, aside); err != nil {
			return err
		}
		rep.Superseded = aside
		j.seq = 0
		return j.replace(model, nil)
	}
	if err := j.replay(recs[from:], rep); err != nil {
		return err
	}
	start := 0
	if from > 0 {
		start = recs[from-1].end
	}
	if from > 0 || rep.TornBytes > 0 {
		// Rebase on model, keeping what it lacks; this drops a torn tail too.
		return j.replace(model, data[headerSize+start:headerSize+good])
	}
	f, err := os.OpenFile(j.path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	j.f, j.size = f, int64(len(data))
	j.bytes.Store(j.size)
	return nil
}

// replay applies recs in the batches they were applied in.
func (j *Journal) replay(recs []record, rep *Report) error {
	var run [][]Doc
	var seqs []uint64
	op := Learn
	flush := func() error {
		errs, _ := j.applyRun(op, run)
		for i, err := range errs {
			if err != nil {
				return fmt.Errorf("%s: replaying update %d: %w", j.path, seqs[i], err)
			}
			rep.Updates++
			rep.Docs += len(run[i])
		}
		run, seqs = run[:0], seqs[:0]
		return nil
	}
	for _, r := range recs {
		if r.op == compacted {
			continue
		}
		if r.op != op {
			if err := flush(); err != nil {
				return err
			}
			op = r.op
		}
		run, seqs = append(run, r.docs), append(seqs, r.seq)
		if r.ends {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// readJournal reads the file at path, refusing what is not a regular file.
func readJournal(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w: not a regular file", path, ErrNotJournal)
	}
	return os.ReadFile(path)
}

// replace makes the journal file one based on base holding records, by a
// synced temporary file renamed into place, and writes to it from then on.
func (j *Journal) replace(base Sum, records []byte) error {
	dir := filepath.Dir(j.path)
	f, err := os.CreateTemp(dir, j.tempPrefix()+"*")
	if err != nil {
		return err
	}
	data := append(appendHeader(nil, base), records...)
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(f.Name(), j.path)
	}
	if err == nil {
		err = modelfile.SyncDir(dir)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", j.path, err)
	}
	if j.f != nil {
		j.f.Close()
	}
	j.f, j.size, j.base = f, int64(len(data)), base
	j.bytes.Store(j.size)
	return nil
}

func (j *Journal) tempPrefix() string { return "." + filepath.Base(j.path) + ".tmp" }

// removeTemporaries removes what a replace that was killed left: under
// the lock no other writer can own one.
func (j *Journal) removeTemporaries() {
	dir := filepath.Dir(j.path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := j.tempPrefix()
	for _, e := range entries {
		if rest, ok := strings.CutPrefix(e.Name(), prefix); ok && rest != "" && strings.Trim(rest, "0123456789") == "" && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// apply applies every document of an update to the Learner, or none.
func (j *Journal) apply(op Op, docs []Doc) error {
	if bl, ok := j.l.(BatchLearner); ok {
		n, err := batch(bl, op, docs)
		if err != nil {
			batch(bl, op.inverse(), docs[:n])
			return &DocError{Index: min(n, len(docs)-1), Err: err}
		}
		return nil
	}
	for i, d := range docs {
		if err := do(j.l, op, d); err != nil {
			for k := i - 1; k >= 0; k-- {
				do(j.l, op.inverse(), docs[k])
			}
			return &DocError{Index: i, Err: err}
		}
	}
	return nil
}

// applyRun applies updates of one op, all at once if the Learner takes
// batches; if that fails, it undoes it and applies them one by one. It
// returns each update's error, and whether they went in together.
func (j *Journal) applyRun(op Op, updates [][]Doc) ([]error, bool) {
	errs := make([]error, len(updates))
	if bl, ok := j.l.(BatchLearner); ok && len(updates) > 1 {
		var all []Doc
		for _, u := range updates {
			all = append(all, u...)
		}
		n, err := batch(bl, op, all)
		if err == nil {
			return errs, true
		}
		batch(bl, op.inverse(), all[:n])
	}
	for i, u := range updates {
		errs[i] = j.apply(op, u)
	}
	return errs, false
}

func batch(bl BatchLearner, op Op, docs []Doc) (int, error) {
	if len(docs) == 0 {
		return 0, nil
	}
	if op == Learn {
		return bl.LearnBatch(docs)
	}
	return bl.UnlearnBatch(docs)
}

func do(l Learner, op Op, d Doc) error {
	if op == Learn {
		return l.Learn(d.Label, d.Text)
	}
	return l.Unlearn(d.Label, d.Text)
}

// Learn applies docs to the Learner and records them; when it returns nil
// the update is on disk. A document the Learner refuses is a *DocError
// and applies none of them.
func (j *Journal) Learn(docs ...Doc) error { return j.submit(Learn, docs) }

// Unlearn is Learn for documents to remove.
func (j *Journal) Unlearn(docs ...Doc) error { return j.submit(Unlearn, docs) }

func (j *Journal) submit(op Op, docs []Doc) error {
	if len(docs) == 0 {
		return nil
	}
	r := &request{op: op, docs: docs, done: make(chan error, 1)}
	j.qmu.RLock()
	if j.closed {
		j.qmu.RUnlock()
		return ErrClosed
	}
	j.queue <- r
	j.qmu.RUnlock()
	return <-r.done
}

// run commits the queued requests, as many at a time as have queued while
// the last sync ran.
func (j *Journal) run() {
	defer close(j.done)
	batch := make([]*request, 0, maxGroup)
	var linger time.Duration
	for r := range j.queue {
		batch = append(batch[:0], r)
		var wait <-chan time.Time
		var timer *time.Timer
		if linger > 0 {
			timer = time.NewTimer(linger)
			wait = timer.C
		}
	more:
		for len(batch) < maxGroup {
			select {
			case r, ok := <-j.queue:
				if !ok {
					break more
				}
				batch = append(batch, r)
				continue
			default:
			}
			if wait == nil {
				break more
			}
			select {
			case r, ok := <-j.queue:
				if !ok {
					break more
				}
				batch = append(batch, r)
			case <-wait:
				break more
			}
		}
		if timer != nil {
			timer.Stop()
		}
		start := time.Now()
		j.commit(batch)
		linger = lingerFor(time.Since(start))
	}
}

// lingerFor is how long to wait for more requests before a commit, after
// one that took took. Clients answered by a commit send their next
// requests while the next one runs, so without waiting the batches hold
// half of them; where a commit costs much more than waiting (a refit of a
// TF-IDF model), waiting a moment lets the next batch hold them all, one
// refit where there were two.
func lingerFor(took time.Duration) time.Duration {
	if took < 2*time.Millisecond {
		return 0
	}
	return min(took/8, 2*time.Millisecond)
}

func (j *Journal) commit(batch []*request) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		for _, r := range batch {
			r.done <- j.err
		}
		return
	}
	b := j.buf[:0]
	var applied []*request
	for i := 0; i < len(batch); {
		k := i + 1
		for k < len(batch) && batch[k].op == batch[i].op {
			k++
		}
		run := make([][]Doc, k-i)
		for n, r := range batch[i:k] {
			run[n] = r.docs
		}
		errs, together := j.applyRun(batch[i].op, run)
		for n, err := range errs {
			r := batch[i+n]
			if err != nil {
				r.done <- err
				continue
			}
			j.seq++
			// A replay applies the same batches, so that it gives the same
			// model where a batch differs from its updates one by one.
			b = appendUpdate(b, r.op, j.seq, r.docs, !together || n == len(errs)-1)
			applied = append(applied, r)
		}
		i = k
	}
	if cap(b) <= 16<<20 {
		j.buf = b
	}
	if len(applied) == 0 {
		return
	}
	if err := j.write(b); err != nil {
		for i := len(applied) - 1; i >= 0; i-- {
			j.apply(applied[i].op.inverse(), applied[i].docs)
		}
		j.seq -= uint64(len(applied))
		for _, r := range applied {
			r.done <- j.err
		}
		return
	}
	docs := 0
	for _, r := range applied {
		docs += len(r.docs)
	}
	// Counted before the acknowledgements, so that Stats covers every
	// update a caller has seen succeed.
	j.updates.Add(uint64(len(applied)))
	j.docs.Add(uint64(docs))
	for _, r := range applied {
		r.done <- nil
	}
}

// write appends b and syncs. On failure it cuts the file back to what it
// held, and the journal takes no more updates (j.err).
func (j *Journal) write(b []byte) error {
	_, err := j.f.WriteAt(b, j.size)
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		j.f.Truncate(j.size)
		j.f.Sync()
		j.err = fmt.Errorf("%w: %s: %v", ErrWrite, j.path, err)
		return j.err
	}
	j.syncs.Add(1)
	j.size += int64(len(b))
	j.bytes.Store(j.size)
	return nil
}

// Compact writes the model with every update so far into its file.
// Snapshot writes the model file's bytes to w; it runs while no update
// applies. Save replaces the model file with data atomically and durably
// (synced, and its folder synced). Updates go on while save runs. Compact
// returns the new model file's Sum; with no update since the last, it
// writes nothing and returns the current one.
func (j *Journal) Compact(snapshot func(w io.Writer) error, save func(data []byte) error) (Sum, error) {
	j.mu.Lock()
	if j.err != nil {
		defer j.mu.Unlock()
		return j.base, j.err
	}
	if j.size == int64(headerSize) && j.pending == nil {
		defer j.mu.Unlock()
		return j.base, nil
	}
	var buf bytes.Buffer
	if err := snapshot(&buf); err != nil {
		j.mu.Unlock()
		return j.base, err
	}
	target := SumOf(buf.Bytes())
	j.seq++
	if err := j.write(appendCompacted(nil, j.seq, target)); err != nil {
		j.mu.Unlock()
		return j.base, err
	}
	j.pending, j.markEnd = &target, j.size
	j.mu.Unlock()

	if err := save(buf.Bytes()); err != nil {
		j.mu.Lock()
		j.pending = nil // the model file is the base still
		j.mu.Unlock()
		return j.base, err
	}

	j.mu.Lock()
	defer j.mu.Unlock()
	tail := make([]byte, j.size-j.markEnd)
	if _, err := j.f.ReadAt(tail, j.markEnd); err != nil {
		return j.base, fmt.Errorf("read %s: %w", j.path, err)
	}
	// If this fails, the journal on disk still holds the compacted record,
	// which Open matches with the new model file; pending stays for Owns.
	if err := j.replace(target, tail); err != nil {
		return j.base, err
	}
	j.pending = nil
	j.compactions.Add(1)
	return target, nil
}

// Owns reports whether a model file of Sum s is the journal's own: its
// base, or the file a compaction under way writes. A reload of such a file
// changes nothing.
func (j *Journal) Owns(s Sum) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return s == j.base || j.pending != nil && *j.pending == s
}

// Stats returns the journal's counts.
func (j *Journal) Stats() Stats {
	return Stats{Updates: j.updates.Load(), Docs: j.docs.Load(), Syncs: j.syncs.Load(),
		Compactions: j.compactions.Load(), Bytes: j.bytes.Load()}
}

// Path returns the journal file's path.
func (j *Journal) Path() string { return j.path }

// Close waits for the updates under way, then closes the files; updates
// after it are ErrClosed.
func (j *Journal) Close() error {
	j.qmu.Lock()
	if j.closed {
		j.qmu.Unlock()
		return nil
	}
	j.closed = true
	close(j.queue)
	j.qmu.Unlock()
	<-j.done
	j.mu.Lock()
	defer j.mu.Unlock()
	err := j.f.Close()
	j.lock.Close()
	return err
}
