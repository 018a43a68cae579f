package hostile

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
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

// DropZero deletes the members of m (at any depth) that are false, 0, "",
// "none" or objects left empty.
func DropZero(m map[string]any) {
	for k, v := range m {
		if o, ok := v.(map[string]any); ok {
			DropZero(o)
			if len(o) == 0 {
				delete(m, k)
			}
			continue
		}
		switch v {
		case false, json.Number("0"), "", "none":
			delete(m, k)
		}
	}
}

// Container returns a checked model file of kind holding payload.
func Container(t testing.TB, kind modelfile.Kind, payload string) []byte {
	t.Helper()
	var b bytes.Buffer
	cw := modelfile.NewWriter(&b, kind)
	cw.Put([]byte(payload))
	if _, err := cw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
