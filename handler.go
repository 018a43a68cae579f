package textnb

import (
	"fmt"
	"net/http"

	"github.com/textnb/textnb/internal/serve"
)

// Served is a model and the name the HTTP API serves it under: the {name}
// of POST /v1/models/{name}/predict. Names are letters, digits, '.', '-'
// and '_'.
type Served struct {
	Name  string
	Model Classifier // a *Model or a *Table
}

// Handler returns the HTTP JSON API of textnb serve for models, to mount
// in a Go program's own server: predict, the model list and descriptions,
// health checks, Prometheus metrics and the web page (see docs/serve.md).
// The models do not reload, and the handler checks no token: wrap it for
// that. Like http.ServeMux.Handle, it panics on a name that is invalid or
// given twice, or on a Classifier that is neither a *Model nor a *Table.
func Handler(models ...Served) http.Handler {
	named := make([]serve.Named, len(models))
	for i, s := range models {
		named[i].Name = s.Name
		switch m := s.Model.(type) {
		case *Model:
			named[i].Text = m.Pipeline()
		case *Table:
			named[i].Table = m.Pipeline()
		default:
			panic(fmt.Sprintf("textnb: Handler: model %q is a %T, not a *Model or *Table", s.Name, s.Model))
		}
	}
	h, err := serve.Static(serve.Options{}, named...)
	if err != nil {
		panic("textnb: Handler: " + err.Error())
	}
	return h
}
