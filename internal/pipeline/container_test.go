package pipeline

import "github.com/textnb/textnb/internal/modelfile"

// Short names for the container the tests of model files take apart.
const (
	magic           = modelfile.Magic
	headerSize      = modelfile.HeaderSize
	TextModel       = modelfile.TextModel
	MultiLabelModel = modelfile.MultiLabelModel
)

var openContainer = modelfile.Open
