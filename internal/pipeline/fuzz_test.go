package pipeline

import (
	"bytes"
	"errors"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/tokenize"
)

// FuzzDecode feeds the decoder text model files whose checksum is made to
// match whatever their bytes are, as a faulty or hostile writer could:
// decoding must return a model or an error, never panic, and a model it
// returns must predict finite probabilities (see checkModelFile). The seeds
// are model files of a few hundred bytes, so that the engine minimizes new
// inputs quickly and spends its time executing.
func FuzzDecode(f *testing.F) {
	for _, data := range seedText(f) {
		f.Add(data)
		f.Add(withVersion(data, 1))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.Clone(data) // the engine's bytes are not ours to change
		if len(data) >= headerSize+4 {
			copy(data, magic)
			hostile.Rechecksum(data)
		}
		if _, err := decode(data); err != nil {
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

// seedText returns text model files of a few hundred bytes, one per kind of
// section: a vocabulary of six words and a header without the settings
// that are zero. The fuzzing engine minimizes every new input it finds in
// time quadratic in its length.
func seedText(t testing.TB) [][]byte {
	t.Helper()
	var docs []corpus.Document
	for _, d := range [][2]string{{"a", "red red apple"}, {"a", "red pear"}, {"b", "blue sky"}, {"b", "blue sea sky"}} {
		docs = append(docs, corpus.Document{Label: d[0], Text: d[1]})
	}
	unigrams := tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 1}}
	var out [][]byte
	for _, cfg := range []Config{
		{Tokenize: unigrams},
		{Tokenize: unigrams, Classifier: Multinomial, Weighting: RawCounts},
		{Tokenize: unigrams, Classifier: Bernoulli},
		{Tokenize: unigrams, Vectorizer: Hash, HashFeatures: 8, Weighting: Rennie},
	} {
		data := hostile.EditHeader(t, testkit.Encode(t, trainDocs(t, cfg, docs)), hostile.DropZero)
		if _, err := decode(data); err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}
