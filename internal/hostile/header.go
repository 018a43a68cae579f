package hostile

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/textnb/textnb/internal/modelfile"
)

// EditHeader returns the model file data with its JSON header edited by
// edit (as EditJSON edits it), checksum recomputed.
func EditHeader(t testing.TB, data []byte, edit func(h map[string]any)) []byte {
	t.Helper()
	le := binary.LittleEndian
	n := int(le.Uint32(data[modelfile.HeaderSize:]))
	js := EditJSON(t, data[modelfile.HeaderSize+4:modelfile.HeaderSize+4+n], edit)
	out := append(bytes.Clone(data[:modelfile.HeaderSize]), le.AppendUint32(nil, uint32(len(js)))...)
	out = append(append(out, js...), data[modelfile.HeaderSize+4+n:]...)
	return Rechecksum(out)
}
