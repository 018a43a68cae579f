package serve

import (
	"fmt"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/table"
	"github.com/textnb/textnb/internal/textcore"
)

// The kind dispatch lives here, not in the facade: the server decodes
// every kind itself (a reload reads the bytes once, for the journal's
// sum too), the facade imports this package for its Handler, and this
// package cannot import the facade. The facade's Open and the command
// use Open.

var core = textcore.Get[pipeline.Config, *pipeline.Model, *pipeline.Trainer]()

// Any is the model a file holds: exactly one field is set.
type Any struct {
	Text  *pipeline.Model
	Table *table.Table
	Multi *multilabel.Model
}

// Open reads a model file of any kind, once: text, table or multi-label.
// The errors are those of the kind's own Load (ErrKind for a kind this
// build does not know), naming the file.
func Open(path string) (Any, error) { return modelfile.Load(path, Decode) }

// Decode decodes the bytes of a model file of any kind, as Open reads
// them: for a caller that needs the bytes too.
func Decode(data []byte) (a Any, err error) {
	// The header names the kind; the kind's Decode checks the whole.
	_, kind, err := modelfile.ReadHeader(data)
	switch {
	case err != nil:
	case kind == modelfile.TextModel:
		a.Text, err = core.Decode(data)
	case kind == modelfile.TableModel:
		a.Table, err = table.Decode(data)
	case kind == modelfile.MultiLabelModel:
		a.Multi, err = multilabel.Decode(data)
	default:
		if _, _, err = modelfile.Open(data); err == nil {
			err = fmt.Errorf("%w: the file holds a %v, not a text, table or multi-label model", modelfile.ErrKind, kind)
		}
	}
	return a, err
}
