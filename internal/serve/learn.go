package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/textnb/textnb/internal/journal"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
)

// Defaults of Options for learning.
const (
	DefaultCompactEvery = 5 * time.Minute
	DefaultCompactBytes = 64 << 20
)

// JournalSuffix is added to a model file's path to name its journal.
const JournalSuffix = ".journal"

// ErrNoToken: learning was asked for without a token.
var ErrNoToken = errors.New("serve: learning needs a bearer token (--token-file), even on loopback")

// learnRequest is the body of POST /v1/models/{name}/learn and /unlearn:
// "label" with exactly one of "text", "texts" and "mail", or "documents".
type learnRequest struct {
	Label     *string    `json:"label"`
	Text      *string    `json:"text"`
	Texts     []string   `json:"texts"`
	Mail      *string    `json:"mail"`
	Documents []learnDoc `json:"documents"`
}

type learnDoc struct {
	Label *string `json:"label"`
	Text  *string `json:"text"`
	Mail  *string `json:"mail"`
}

// textLearner learns into a text model for a journal: the updates that
// arrive together as one batch, which refits the model once.
type textLearner struct{ m *pipeline.Model }

func (l textLearner) Learn(label, text string) error { return l.m.Learn(label, text) }

// Unlearn refuses the last document of a class, which pipeline would
// remove with it: a served model keeps its classes until it reloads.
func (l textLearner) Unlearn(label, text string) error {
	if len(l.m.Classes) > 2 { // two classes are always kept
		info, err := l.m.Inspect(0)
		if err != nil {
			return err
		}
		for _, c := range info.Classes {
			if c.Name == label && c.Documents < 1.5 {
				return fmt.Errorf("the document would be the last of class %q: a served model keeps its classes (textnb learn --unlearn removes one)", label)
			}
		}
	}
	return l.m.Unlearn(label, text)
}

// LearnBatch learns docs at once. The journal is the only writer of the
// model, so the count of documents learned tells how many went in before
// a failure.
func (l textLearner) LearnBatch(docs []journal.Doc) (int, error) {
	ex := make([]pipeline.Example, len(docs))
	for i, d := range docs {
		ex[i] = pipeline.Example{Label: d.Label, Text: d.Text}
	}
	before := l.m.Learned.Documents
	err := l.m.LearnBatch(ex)
	return l.m.Learned.Documents - before, err
}

// UnlearnBatch unlearns docs one at a time: unlearning is for mistakes,
// rare, and each document must be checked on its own.
func (l textLearner) UnlearnBatch(docs []journal.Doc) (int, error) {
	for i, d := range docs {
		if err := l.Unlearn(d.Label, d.Text); err != nil {
			return i, err
		}
	}
	return len(docs), nil
}

// learnState is what GET /v1/models shows of a model that learns.
type learnState struct {
	Journal   string `json:"journal"`
	Updates   uint64 `json:"updates"`   // acknowledged since the journal opened
	Documents uint64 `json:"documents"` // in them
	Bytes     int64  `json:"journal_bytes"`
}

func (s *Server) learn(w http.ResponseWriter, r *http.Request)   { s.update(w, r, journal.Learn) }
func (s *Server) unlearn(w http.ResponseWriter, r *http.Request) { s.update(w, r, journal.Unlearn) }

func (s *Server) update(w http.ResponseWriter, r *http.Request, op journal.Op) {
	if !s.opt.Learn {
		writeError(w, http.StatusForbidden, "learning is off: start textnb serve with --learn")
		return
	}
	m := s.served(w, r)
	if m == nil {
		return
	}
	if m.text == nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("model %q is a %s model: only text models learn", m.name, m.kind()))
		return
	}
	var req learnRequest
	if code, msg := s.decode(w, r, &req); code != 0 {
		writeError(w, code, msg)
		return
	}
	docs, code, msg := s.learnDocs(m, &req)
	if code != 0 {
		writeError(w, code, msg)
		return
	}
	sl := s.slots[m.name]
	err := sl.update(op, docs)
	var de *journal.DocError
	switch {
	case errors.As(err, &de):
		if len(docs) == 1 {
			msg = de.Err.Error()
		} else {
			msg = de.Error()
		}
		writeError(w, http.StatusBadRequest, fmt.Sprintf("model %q cannot %s it: %s (nothing was %sed)", m.name, op, msg, op))
		return
	case err != nil:
		s.opt.Log.Error("learning failed", "model", m.name, "err", err)
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("model %q cannot learn now: %v", m.name, err))
		return
	}
	s.met.updates.WithLabelValues(m.name, op.String()).Add(float64(len(docs)))
	writeJSON(w, http.StatusOK, map[string]any{"model": m.name, "generation": sl.cur.Load().generation, op.String() + "ed": len(docs)})
}

// learnDocs checks req and returns its documents.
func (s *Server) learnDocs(m *model, req *learnRequest) ([]journal.Doc, int, string) {
	docs, code, msg := s.requestDocs(m, req)
	for i, d := range docs {
		if !slices.Contains(m.classes, d.Label) {
			at := ""
			if len(docs) > 1 {
				at = fmt.Sprintf("document %d: ", i+1)
			}
			return nil, http.StatusBadRequest, fmt.Sprintf("%slabel %q is not a class of model %q %q (serve does not add classes: textnb learn does)", at, d.Label, m.name, m.classes)
		}
	}
	return docs, code, msg
}

func (s *Server) requestDocs(m *model, req *learnRequest) ([]journal.Doc, int, string) {
	n := 0
	for _, given := range []bool{req.Text != nil, req.Texts != nil, req.Mail != nil, req.Documents != nil} {
		if given {
			n++
		}
	}
	if n != 1 {
		return nil, http.StatusBadRequest, `give exactly one of "text", "texts", "mail" and "documents"`
	}
	if batch := max(len(req.Texts), len(req.Documents)); batch > s.opt.MaxBatch {
		return nil, http.StatusRequestEntityTooLarge, fmt.Sprintf("a batch of %d exceeds the limit of %d documents per request (--max-batch)", batch, s.opt.MaxBatch)
	}
	if req.Documents != nil {
		if req.Label != nil {
			return nil, http.StatusBadRequest, `with "documents", each document has its "label"`
		}
		docs := make([]journal.Doc, len(req.Documents))
		for i, d := range req.Documents {
			switch {
			case d.Label == nil:
				return nil, http.StatusBadRequest, fmt.Sprintf(`document %d has no "label"`, i+1)
			case (d.Text == nil) == (d.Mail == nil):
				return nil, http.StatusBadRequest, fmt.Sprintf(`document %d: give one of "text" and "mail"`, i+1)
			case d.Mail != nil:
				docs[i] = journal.Doc{Label: *d.Label, Text: decodeMail(m, *d.Mail)}
			default:
				docs[i] = journal.Doc{Label: *d.Label, Text: *d.Text}
			}
		}
		return docs, 0, ""
	}
	if req.Label == nil {
		return nil, http.StatusBadRequest, `give the documents' "label"`
	}
	switch {
	case req.Text != nil:
		return []journal.Doc{{Label: *req.Label, Text: *req.Text}}, 0, ""
	case req.Mail != nil:
		return []journal.Doc{{Label: *req.Label, Text: decodeMail(m, *req.Mail)}}, 0, ""
	}
	docs := make([]journal.Doc, len(req.Texts))
	for i, t := range req.Texts {
		docs[i] = journal.Doc{Label: *req.Label, Text: t}
	}
	return docs, 0, ""
}

// update applies docs to the slot's model through its journal. The read
// lock keeps a reload from swapping the journal under way.
func (sl *slot) update(op journal.Op, docs []journal.Doc) error {
	sl.learnMu.RLock()
	defer sl.learnMu.RUnlock()
	m := sl.cur.Load()
	if m.jnl == nil {
		if sl.jnlErr != nil {
			return sl.jnlErr
		}
		return errors.New("this build's text models cannot learn")
	}
	var err error
	if op == journal.Learn {
		err = m.jnl.Learn(docs...)
	} else {
		err = m.jnl.Unlearn(docs...)
	}
	if errors.Is(err, journal.ErrClosed) && sl.jnlErr != nil {
		err = sl.jnlErr // a reload closed it and could not open the next
	}
	return err
}

// openJournal opens the journal of m, a new version of the slot's file
// whose bytes have Sum sum, in place of the journal of the version being
// served, and replays it onto m. The caller holds learnMu.
func (sl *slot) openJournal(s *Server, m *model, sum journal.Sum) error {
	if cur := sl.cur.Load(); cur != nil && cur.jnl != nil {
		if err := cur.jnl.Close(); err != nil {
			s.opt.Log.Warn("closing a journal", "model", sl.name, "err", err)
		}
		sl.retire(cur.jnl.Stats())
	}
	jnl, rep, err := journal.Open(sl.path+JournalSuffix, sum, textLearner{m.text})
	if err != nil {
		sl.jnlErr = err
		return err
	}
	sl.jnlErr = nil
	m.jnl = jnl
	if rep.Superseded != "" {
		s.met.superseded.WithLabelValues(sl.name).Inc()
		s.opt.Log.Warn("the model file was replaced: its journal's updates are not applied to the new file; the journal was kept aside",
			"model", sl.name, "journal", rep.Superseded)
	}
	if rep.Updates > 0 || rep.TornBytes > 0 {
		s.opt.Log.Info("journal replayed", "model", sl.name, "updates", rep.Updates, "documents", rep.Docs,
			"torn_bytes", rep.TornBytes)
	}
	s.met.replayed.WithLabelValues(sl.name).Add(float64(rep.Docs))
	return nil
}

// retire adds a closed journal's counts to the slot's.
func (sl *slot) retire(st journal.Stats) {
	sl.statMu.Lock()
	defer sl.statMu.Unlock()
	sl.retired.Syncs += st.Syncs
	sl.retired.Compactions += st.Compactions
}

// stats returns the slot's journal counts, over every journal it had.
func (sl *slot) stats() (journal.Stats, bool) {
	sl.statMu.Lock()
	st := sl.retired
	sl.statMu.Unlock()
	m := sl.cur.Load()
	if m == nil || m.jnl == nil {
		return st, false
	}
	cur := m.jnl.Stats()
	st.Syncs += cur.Syncs
	st.Compactions += cur.Compactions
	st.Bytes = cur.Bytes
	return st, true
}

// compact writes the served model with its updates into its file, unless
// the file is no longer the one the journal belongs to (a new training
// replaced it: the watch reloads it instead).
func (sl *slot) compact(s *Server) error {
	sl.loadMu.Lock() // no reload meanwhile
	defer sl.loadMu.Unlock()
	m := sl.cur.Load()
	if m == nil || m.jnl == nil {
		return nil
	}
	_, err := m.jnl.Compact(func(w io.Writer) error {
		_, err := m.text.WriteTo(w)
		return err
	}, func(data []byte) error {
		cur, err := os.ReadFile(sl.path)
		if err != nil {
			return err
		}
		if !m.jnl.Owns(journal.SumOf(cur)) {
			return fmt.Errorf("%s was replaced: not compacting into it", sl.path)
		}
		if err := modelfile.Save(sl.path, bytesTo(data)); err != nil {
			return err
		}
		target, err := filepath.EvalSymlinks(sl.path)
		if err != nil {
			return err
		}
		return modelfile.SyncDir(filepath.Dir(target))
	})
	if err != nil {
		s.met.compactFailures.WithLabelValues(sl.name).Inc()
		s.opt.Log.Error("compacting the journal into the model file failed; the journal keeps the updates", "model", sl.name, "err", err)
		return err
	}
	return nil
}

// bytesTo writes a byte slice as an io.WriterTo.
type bytesTo []byte

func (b bytesTo) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(b)
	return int64(n), err
}

// compactor compacts every learning model's journal when it has grown past
// CompactBytes or CompactEvery has passed, until stop closes.
func (s *Server) compactor(stop <-chan struct{}) {
	tick := time.NewTicker(min(time.Second, s.opt.CompactEvery))
	defer tick.Stop()
	last := time.Now()
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			due := now.Sub(last) >= s.opt.CompactEvery
			if due {
				last = now
			}
			for _, name := range s.names {
				sl := s.slots[name]
				if st, ok := sl.stats(); ok && (due || st.Bytes >= s.opt.CompactBytes) {
					sl.compact(s)
				}
			}
		}
	}
}

// Close compacts every learning model's journal into its model file and
// closes the journals; a learn request after it fails, and the models no
// longer reload. Call it once the HTTP server has drained.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.closed.Store(true)
		if s.stopCompactor != nil {
			close(s.stopCompactor)
		}
		var errs []error
		for _, name := range s.names {
			sl := s.slots[name]
			if err := sl.compact(s); err != nil {
				errs = append(errs, err)
			}
			sl.learnMu.Lock()
			if m := sl.cur.Load(); m != nil && m.jnl != nil {
				errs = append(errs, m.jnl.Close())
			}
			sl.learnMu.Unlock()
		}
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}
