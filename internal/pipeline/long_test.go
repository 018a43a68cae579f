package pipeline

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/tokenize"
)

// longDocs returns the documents at path joined, class by class, into
// documents of about size bytes, and the labels.
func longDocs(t *testing.T, path string, size int, opt corpus.Options) (labels, texts []string) {
	docs, err := corpus.ReadAll(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	cur := map[string]*strings.Builder{}
	flush := func(label string) {
		labels, texts = append(labels, label), append(texts, cur[label].String())
		cur[label] = nil
	}
	for _, d := range docs {
		if cur[d.Label] == nil {
			cur[d.Label] = new(strings.Builder)
		}
		b := cur[d.Label]
		b.WriteString(d.Text)
		b.WriteString("\n")
		if b.Len() >= size {
			flush(d.Label)
		}
	}
	for _, d := range docs {
		if cur[d.Label] != nil {
			flush(d.Label)
		}
	}
	return labels, texts
}

// inPieces sets the length from which documents are cut into pieces of
// piece bytes, for the rest of the test.
func inPieces(t *testing.T, long, piece int) {
	oldLong, oldPiece := longText, pieceBytes
	longText, pieceBytes = long, piece
	t.Cleanup(func() { longText, pieceBytes = oldLong, oldPiece })
}

// TestLongDocumentsInPieces trains and predicts on long documents cut into
// pieces and whole: the model files are byte for byte the same, and so is
// every document's row.
func TestLongDocumentsInPieces(t *testing.T) {
	en, enTexts := longDocs(t, newsTrain, 30000, corpus.Options{})
	zh, zhTexts := longDocs(t, "../../testdata/zh/train.tsv", 6000, corpus.Options{TextField: "text_a"})
	for _, c := range []struct {
		name          string
		cfg           Config
		labels, texts []string
	}{
		{"default", Config{}, en, enTexts},
		{"trigrams stem", Config{Tokenize: tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 3}, Stem: true}}, en, enTexts},
		{"bigrams only", Config{Tokenize: tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 2, Max: 2}}}, en, enTexts},
		{"hash", Config{Vectorizer: Hash, Weighting: RawCounts}, en, enTexts},
		{"zh", Config{Tokenize: tokenize.Config{Lang: tokenize.Chinese}}, zh, zhTexts},
		{"zh hash", Config{Vectorizer: Hash, Tokenize: tokenize.Config{Lang: tokenize.Chinese}}, zh, zhTexts},
	} {
		t.Run(c.name, func(t *testing.T) {
			fit := func() (*Model, []byte) {
				tr, err := NewTrainer(c.cfg)
				if err != nil {
					t.Fatal(err)
				}
				for i, s := range c.texts {
					tr.Add(c.labels[i], s)
				}
				m, _, err := tr.Finish()
				if err != nil {
					t.Fatal(err)
				}
				return m, testkit.Encode(t, m)
			}
			rows := func(m *Model) (idx [][]int32, val [][]float64) {
				p := m.NewPredictor()
				for _, s := range c.texts {
					i, v := p.row(s)
					idx, val = append(idx, slices.Clone(i)), append(val, slices.Clone(v))
				}
				return idx, val
			}
			whole, wholeBytes := fit()
			wholeIdx, wholeVal := rows(whole)
			inPieces(t, 4000, 1000)
			cut, cutBytes := fit()
			if !bytes.Equal(cutBytes, wholeBytes) {
				t.Fatal("the model trained on documents in pieces differs from the one trained on them whole")
			}
			cutIdx, cutVal := rows(cut)
			for i := range c.texts {
				if !slices.Equal(cutIdx[i], wholeIdx[i]) || !sameFloats(cutVal[i], wholeVal[i]) {
					t.Fatalf("document %d (%d bytes): row in pieces differs from the whole's", i, len(c.texts[i]))
				}
			}
		})
	}
}

// sameFloats compares bit for bit.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
