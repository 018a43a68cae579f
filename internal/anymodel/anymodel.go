package anymodel

import (
	"fmt"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/textcore"
	"github.com/textnb/textnb/multilabel"
	"github.com/textnb/textnb/pipeline"
	"github.com/textnb/textnb/table"
)

var core = textcore.Get[pipeline.Config, *pipeline.Model, *pipeline.Trainer]()

// Open reads a model file of either kind, once: it returns the text model
// or the table model the file holds, and nil for the other.
func Open(path string) (*pipeline.Model, *table.Table, error) {
	a, err := open(path, false)
	return a.Text, a.Table, err
}

// Any is the model a file holds: exactly one field is set.
type Any struct {
	Text  *pipeline.Model
	Table *table.Table
	Multi *multilabel.Model
}

// OpenAny reads a model file of any kind, once: text, table or
// multi-label.
func OpenAny(path string) (Any, error) { return open(path, true) }

func open(path string, multi bool) (Any, error) {
	return modelfile.Load(path, func(data []byte) (Any, error) { return decode(data, multi) })
}

// DecodeAny decodes the bytes of a model file of any kind, as OpenAny reads
// them: for a caller that needs the bytes too.
func DecodeAny(data []byte) (Any, error) { return decode(data, true) }

func decode(data []byte, multi bool) (a Any, err error) {
	// The header names the kind; the kind's Decode checks the whole.
	_, kind, err := modelfile.ReadHeader(data)
	switch {
	case err != nil:
	case kind == modelfile.TextModel:
		a.Text, err = core.Decode(data)
	case kind == modelfile.TableModel:
		a.Table, err = table.Decode(data)
	case kind == modelfile.MultiLabelModel && multi:
		a.Multi, err = multilabel.Decode(data)
	default:
		want := "a text or table model"
		if multi {
			want = "a text, table or multi-label model"
		}
		if _, _, err = modelfile.Open(data); err == nil {
			err = fmt.Errorf("%w: the file holds a %v, not %s", modelfile.ErrKind, kind, want)
		}
	}
	return a, err
}
