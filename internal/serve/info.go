package serve

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
)

// defaultInfoTerms is the number of terms per class that GET
// /v1/models/{name} lists unless ?top= says otherwise, as textnb inspect.
const defaultInfoTerms = 10

// inspect describes m with top terms per class: a pipeline.Info, or a
// multilabel.Info for a multi-label model.
func inspect(m *model, top int) (any, error) {
	switch {
	case m.table != nil:
		return m.table.Inspect(), nil
	case m.multi != nil:
		return m.multi.Inspect(top)
	}
	return m.text.Inspect(top)
}

// servedState describes the version of a model being served.
type servedState struct {
	Name        string    `json:"name"`
	Generation  uint64    `json:"generation"`
	LoadedAt    time.Time `json:"loaded_at"`
	LoadSeconds float64   `json:"load_seconds"`
	Path        string    `json:"path,omitempty"`
	LoadError   string    `json:"load_error,omitempty"` // of the last load, if it failed
	// Learning is the journal of a model that learns.
	Learning *learnState `json:"learning,omitempty"`
}

// modelSummary is a model as GET /v1/models lists it.
type modelSummary struct {
	servedState
	Kind    string   `json:"kind"`    // "text", "table" or "multi-label"
	Classes []string `json:"classes"` // a multi-label model's labels
	// Thresholds are a multi-label model's, by label.
	Thresholds map[string]float64 `json:"thresholds,omitempty"`
}

func (s *Server) state(sl *slot, m *model) servedState {
	out := servedState{Name: sl.name, Path: sl.path, Generation: m.generation,
		LoadedAt: m.loadedAt.UTC(), LoadSeconds: m.loadTime.Seconds()}
	if f := sl.failure.Load(); f != nil {
		out.LoadError = f.err
	}
	if m.jnl != nil {
		st := m.jnl.Stats()
		out.Learning = &learnState{Journal: m.jnl.Path(), Updates: st.Updates, Documents: st.Docs, Bytes: st.Bytes}
	}
	return out
}

func (s *Server) summary(sl *slot, m *model) modelSummary {
	out := modelSummary{servedState: s.state(sl, m), Classes: m.classes, Kind: m.kind()}
	if m.multi != nil {
		out.Thresholds = map[string]float64{}
		for l, t := range m.multi.Thresholds {
			out.Thresholds[m.classes[l]] = t
		}
	}
	return out
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	list := []modelSummary{}
	for _, name := range s.names {
		sl := s.slots[name]
		if m := sl.cur.Load(); m != nil {
			list = append(list, s.summary(sl, m))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": list})
}

func (s *Server) modelInfo(w http.ResponseWriter, r *http.Request) {
	m := s.served(w, r)
	if m == nil {
		return
	}
	top := defaultInfoTerms
	if q := r.URL.Query().Get("top"); q != "" {
		k, err := strconv.Atoi(q)
		if err != nil || k < 0 || k > MaxExplainTerms {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("top=%.40s: want a number of terms from 0 to %d", q, MaxExplainTerms))
			return
		}
		top = k
	}
	var details any
	var err error
	if top == defaultInfoTerms && m.jnl == nil { // a model that learns changes
		details, err = m.info()
	} else {
		details, err = inspect(m, top)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("model %q: %v", m.name, err))
		return
	}
	state := s.state(s.slots[m.name], m)
	if d, ok := details.(multilabel.Info); ok {
		writeJSON(w, http.StatusOK, struct {
			servedState
			multilabel.Info
		}{state, d})
		return
	}
	writeJSON(w, http.StatusOK, struct {
		servedState
		pipeline.Info
	}{state, details.(pipeline.Info)})
}
