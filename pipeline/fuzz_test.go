package pipeline

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"testing"

	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// FuzzDecode feeds the decoder model files whose checksum is made to match
// whatever their bytes are, as a faulty or hostile writer could: decoding
// must return a model or an error, never panic, and a model it returns
// must predict without panicking.
func FuzzDecode(f *testing.F) {
	cfg := Config{Vocab: vectorize.VocabConfig{MaxFeatures: 50}}
	cfg.Tokenize.WordNGrams = tokenize.NGramRange{Min: 1, Max: 2}
	m, _ := train(f, cfg, newsTrain)
	f.Add(encode(f, m))
	if old, err := os.ReadFile("../testdata/models/news-v1.model"); err == nil {
		f.Add(old)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= len(magic)+12 {
			copy(data, magic)
			body := data[:len(data)-4]
			binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(body, castagnoli))
		}
		m, err := Decode(data)
		if err != nil {
			return
		}
		p := m.NewPredictor()
		p.Proba(nil, "stocks fell as the team won the match")
	})
}
