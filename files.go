package textnb

import (
	"io"

	"github.com/textnb/textnb/internal/modelfile"
)

// ErrOutput: a path to save a model to is neither absent nor a regular
// file (or a link to one), or its folder does not exist.
var ErrOutput = modelfile.ErrOutput

// FileKind returns the kind of model the file at path holds, from its
// header alone: enough to start work that one kind needs while Open reads
// and checks the whole file.
func FileKind(path string) (Kind, error) { return modelfile.PeekKind(path) }

// SaveFile writes m, a model or a part of one (the types of packages
// pipeline, multilabel and shard write themselves), to path as the Save
// methods do: the file is replaced at once when it is complete, keeping
// its mode, and a symbolic link's target is replaced.
func SaveFile(path string, m io.WriterTo) error { return modelfile.Save(path, m) }

// CheckOutput reports, without writing anything, why SaveFile could not
// write path (ErrOutput), for a program to call before the work whose
// result it saves.
func CheckOutput(path string) error { return modelfile.CheckOutput(path) }
