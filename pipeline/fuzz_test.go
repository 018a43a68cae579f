package pipeline

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecode feeds the decoder text model files whose checksum is made to
// match whatever their bytes are, as a faulty or hostile writer could:
// decoding must return a model or an error, never panic, and a model it
// returns must predict finite probabilities (see checkModelFile). The seeds
// are model files of a few hundred bytes, so that the engine minimizes new
// inputs quickly and spends its time executing.
func FuzzDecode(f *testing.F) {
	for _, data := range tinyText(f) {
		f.Add(data)
		f.Add(withVersion(data, 1))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.Clone(data) // the engine's bytes are not ours to change
		if len(data) >= headerSize+4 {
			copy(data, magic)
			rechecksum(data)
		}
		if _, err := Decode(data); err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrKind) {
				t.Fatalf("error %v is not a model file error", err)
			}
			return
		}
		if _, bad := checkModelFile(data); bad != nil {
			t.Fatal(bad)
		}
	})
}

// FuzzDecodeTable is FuzzDecode for table models, whose payload is JSON:
// the fuzzer edits the JSON, which is then put in a checked container.
func FuzzDecodeTable(f *testing.F) {
	for _, data := range tinyTable(f) {
		f.Add(data[headerSize : len(data)-4])
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		var b bytes.Buffer
		cw := newContainer(&b, TableModel)
		cw.write(payload)
		if _, err := cw.close(); err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeTable(b.Bytes()); err != nil {
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("error %v is not ErrDamaged", err)
			}
			return
		}
		if _, bad := checkModelFile(b.Bytes()); bad != nil {
			t.Fatal(bad)
		}
	})
}
