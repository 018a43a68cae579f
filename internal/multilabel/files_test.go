package multilabel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/tokenize"
)

// FuzzDecode is pipeline's FuzzDecode for multi-label model files: whatever the
// bytes after the header, decoding must return ErrDamaged (or ErrVersion)
// or a model whose predictions are probabilities (see checkMultiModel).
func FuzzDecode(f *testing.F) {
	for _, data := range seedMulti(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.Clone(data)
		if len(data) >= modelfile.HeaderSize+4 {
			copy(data, modelfile.Magic)
			binary.LittleEndian.PutUint32(data[len(modelfile.Magic)+4:], uint32(modelfile.MultiLabelModel))
			hostile.Rechecksum(data)
		}
		if _, err := decode(data); err != nil {
			if !errors.Is(err, pipeline.ErrDamaged) && !errors.Is(err, pipeline.ErrVersion) && !errors.Is(err, pipeline.ErrNotModel) {
				t.Fatalf("error %v is not ErrDamaged", err)
			}
			return
		}
		if bad := checkFile(data); bad != nil {
			t.Fatal(bad)
		}
	})
}

// seedMulti returns multi-label model files of a few hundred bytes, one
// per score.
func seedMulti(t testing.TB) [][]byte {
	t.Helper()
	var docs []corpus.MultiDocument
	for _, d := range []struct{ labels, text string }{
		{"a", "red red apple"}, {"a b", "red sky"}, {"b", "blue sky"}, {"b", "blue sea sky"}, {"", "sea"},
	} {
		docs = append(docs, corpus.MultiDocument{Labels: strings.Fields(d.labels), Text: d.text})
	}
	unigrams := tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 1}}
	var out [][]byte
	for _, mc := range []Config{{Folds: 2}, {Score: OddsScore, Folds: 2, AllowEmpty: true}} {
		mm, _ := trainMulti(t, pipeline.Config{Tokenize: unigrams}, mc, docs)
		data := hostile.EditHeader(t, testkit.Encode(t, mm), hostile.DropZero)
		if _, err := decode(data); err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// checkFile decodes a multi-label model file and reports what is wrong
// with the model decoded (see checkMultiModel), which must also encode
// again, unless its counts (decoded only now) are damaged, to a file that
// decodes.
func checkFile(data []byte) error {
	mm, err := decode(data)
	if err != nil {
		return nil
	}
	if err := checkMultiModel(mm); err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := mm.WriteTo(&b); err == nil {
		if _, err := decode(b.Bytes()); err != nil {
			return fmt.Errorf("encoded again: %v", err)
		}
	} else if !errors.Is(err, pipeline.ErrDamaged) {
		return fmt.Errorf("WriteTo: %v", err)
	}
	return nil
}

// checkMultiModel reports a multi-label model whose thresholds are not
// probabilities, one per label, or whose predictions are not: every
// label's probability must be finite and in [0, 1] (summing to 1 under
// ComplementScore), and Decide must return distinct labels, at least one
// unless the model allows none.
func checkMultiModel(mm *Model) error {
	k := len(mm.Labels)
	if len(mm.Thresholds) != k || slices.ContainsFunc(mm.Thresholds, hostile.NotProbability) {
		return fmt.Errorf("thresholds %v for %d labels", mm.Thresholds, k)
	}
	docs := []string{"", "the team won the game", "salt salt salt pepper chip"}
	if terms := mm.m.Terms(); terms != nil {
		docs = append(docs, strings.Join(terms, " "))
	}
	p := mm.NewPredictor()
	for _, doc := range docs {
		proba := p.Proba(nil, doc)
		var sum float64
		for _, v := range proba {
			sum += v
		}
		if len(proba) != k || slices.ContainsFunc(proba, hostile.NotProbability) ||
			mm.Multi.Score == ComplementScore && math.Abs(sum-1) > 1e-6 {
			return fmt.Errorf("%q: %d probabilities %v for %d labels, summing to %g", doc, len(proba), proba, k, sum)
		}
		got := p.Decide(nil, proba)
		seen := make([]bool, k)
		for _, l := range got {
			if l < 0 || l >= k || seen[l] {
				return fmt.Errorf("%q: decided %v of %d labels", doc, got, k)
			}
			seen[l] = true
		}
		if len(got) == 0 && !mm.Multi.AllowEmpty {
			return fmt.Errorf("%q: no label decided, %v", doc, proba)
		}
	}
	return nil
}
