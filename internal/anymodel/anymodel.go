package anymodel

import (
	"fmt"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/textcore"
	"github.com/textnb/textnb/pipeline"
	"github.com/textnb/textnb/table"
)

var core = textcore.Get[pipeline.Config, *pipeline.Model, *pipeline.Trainer]()

// Open reads a model file of either kind, once: it returns the text model
// or the table model the file holds, and nil for the other.
func Open(path string) (*pipeline.Model, *table.Table, error) {
	type either struct {
		m *pipeline.Model
		t *table.Table
	}
	e, err := modelfile.Load(path, func(data []byte) (e either, err error) {
		// The header names the kind; the kind's Decode checks the whole.
		_, kind, err := modelfile.ReadHeader(data)
		switch {
		case err != nil:
		case kind == modelfile.TextModel:
			e.m, err = core.Decode(data)
		case kind == modelfile.TableModel:
			e.t, err = table.Decode(data)
		default:
			if _, _, err = modelfile.Open(data); err == nil {
				err = fmt.Errorf("%w: the file holds a %v, not a text or table model", modelfile.ErrKind, kind)
			}
		}
		return e, err
	})
	if err != nil {
		return nil, nil, err
	}
	return e.m, e.t, nil
}
