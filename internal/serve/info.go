package serve

import (
	"net/http"
	"time"
)

// modelSummary is a model as GET /v1/models lists it.
type modelSummary struct {
	Name        string    `json:"name"`
	Kind        string    `json:"kind"` // "text" or "table"
	Classes     []string  `json:"classes"`
	Generation  uint64    `json:"generation"`
	LoadedAt    time.Time `json:"loaded_at"`
	LoadSeconds float64   `json:"load_seconds"`
	Path        string    `json:"path,omitempty"`
	LoadError   string    `json:"load_error,omitempty"`
}

func (s *Server) summary(sl *slot, m *model) modelSummary {
	out := modelSummary{Name: sl.name, Path: sl.path, Classes: m.classes, Generation: m.generation,
		LoadedAt: m.loadedAt.UTC(), LoadSeconds: m.loadTime.Seconds(), Kind: "text"}
	if m.table != nil {
		out.Kind = "table"
	}
	if f := sl.failure.Load(); f != nil {
		out.LoadError = f.err
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
	info := struct {
		modelSummary
		Details any `json:"details"`
	}{modelSummary: s.summary(s.slots[m.name], m)}
	if m.text != nil {
		info.Details = map[string]any{"config": m.text.Config, "language": m.text.Lang().String(),
			"features": m.text.NumFeatures(), "priors": m.assumed}
	} else {
		info.Details = map[string]any{"table_kind": m.table.Kind.String(), "features": m.table.Features, "priors": m.assumed}
	}
	writeJSON(w, http.StatusOK, info)
}
