package serve

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/textnb/textnb/multilabel"
	"github.com/textnb/textnb/pipeline"
)

// defaultInfoTerms is the number of terms per class that GET
// /v1/models/{name} lists unless ?top= says otherwise, as textnb inspect.
const defaultInfoTerms = 10

// inspect describes m with top terms per class.
func inspect(m *model, top int) (pipeline.Info, error) {
	switch {
	case m.table != nil:
		return m.table.Inspect(), nil
	case m.multi != nil:
		return m.multi.Inspect(top)
	}
	return m.text.Inspect(top)
}

// multiInfo is what GET /v1/models/{name} shows of a multi-label model: a
// text model's description, with the multi-label settings and each
// label's threshold in place of a prior, which labels do not have.
type multiInfo struct {
	Kind     string            `json:"kind"`
	Settings pipeline.Settings `json:"settings"`
	Multi    multilabel.Config `json:"multi"`
	Features int               `json:"features"`
	Terms    int               `json:"terms"`
	Classes  []labelInfo       `json:"classes"`
}

type labelInfo struct {
	Name       string               `json:"name"`
	Documents  float64              `json:"documents"`
	Threshold  float64              `json:"threshold"`
	TopWeights []pipeline.TermScore `json:"top_weights,omitempty"`
	TopLogOdds []pipeline.TermScore `json:"top_log_odds,omitempty"`
}

func describeMulti(mm *multilabel.Model, info pipeline.Info) multiInfo {
	out := multiInfo{Kind: info.Kind, Settings: info.Settings, Multi: mm.Multi, Features: info.Features, Terms: info.Terms}
	for l, c := range info.Classes {
		out.Classes = append(out.Classes, labelInfo{Name: c.Name, Documents: c.Documents, Threshold: mm.Thresholds[l],
			TopWeights: c.TopWeights, TopLogOdds: c.TopLogOdds})
	}
	return out
}

// servedState describes the version of a model being served.
type servedState struct {
	Name        string    `json:"name"`
	Generation  uint64    `json:"generation"`
	LoadedAt    time.Time `json:"loaded_at"`
	LoadSeconds float64   `json:"load_seconds"`
	Path        string    `json:"path,omitempty"`
	LoadError   string    `json:"load_error,omitempty"` // of the last load, if it failed
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
	var details pipeline.Info
	var err error
	if top == defaultInfoTerms {
		details, err = m.info()
	} else {
		details, err = inspect(m, top)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("model %q: %v", m.name, err))
		return
	}
	state := s.state(s.slots[m.name], m)
	if m.multi != nil {
		writeJSON(w, http.StatusOK, struct {
			servedState
			multiInfo
		}{state, describeMulti(m.multi, details)})
		return
	}
	writeJSON(w, http.StatusOK, struct {
		servedState
		pipeline.Info
	}{state, details})
}
