package textnb

import "github.com/textnb/textnb/internal/serve"

// The defaults of ServeOptions' zero values.
const (
	DefaultMaxBody      = serve.DefaultMaxBody
	DefaultMaxBatch     = serve.DefaultMaxBatch
	DefaultCompactEvery = serve.DefaultCompactEvery
	DefaultCompactBytes = serve.DefaultCompactBytes
)

// ParseServed reads a model to serve as textnb serve's arguments give it:
// NAME=PATH, or PATH, served under the file's name less its extension.
func ParseServed(arg string) (Served, error) {
	sp, err := serve.ParseSpec(arg)
	if err != nil {
		return Served{}, err
	}
	return Served{Name: sp.Name, Path: sp.Path}, nil
}
