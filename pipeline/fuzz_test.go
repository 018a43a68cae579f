package pipeline

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

// FuzzDecode feeds the decoder model files whose checksum is made to match
// whatever their bytes are, as a faulty or hostile writer could: decoding
// must return a model or an error, never panic, and a model it returns
// must score a document of its own terms, one score per class.
func FuzzDecode(f *testing.F) {
	cfg := Config{Vocab: vectorize.VocabConfig{MaxFeatures: 50}}
	cfg.Tokenize.WordNGrams = tokenize.NGramRange{Min: 1, Max: 2}
	m, _ := train(f, cfg, newsTrain)
	f.Add(encode(f, m))
	old, err := os.ReadFile("../testdata/models/news-v1.model")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(old)
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.Clone(data) // the engine's bytes are not ours to change
		if len(data) >= len(magic)+12 {
			copy(data, magic)
			rechecksum(data)
		}
		m, err := Decode(data)
		if err != nil {
			return
		}
		var doc string
		if m.vocab != nil {
			doc = strings.Join(m.vocab.Terms(), " ")
		}
		if jll := m.NewPredictor().JointLogLikelihood(nil, doc); len(jll) != len(m.Classes) {
			t.Fatalf("%d scores for %d classes", len(jll), len(m.Classes))
		}
	})
}
