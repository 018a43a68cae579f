package pipeline

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/testkit"
)

// tinyDocs is a corpus small enough for model files of a few kilobytes,
// the hostile-model generator's starting points.
var tinyDocs = []corpus.Document{
	{Label: "sport", Text: "the team won the game in overtime"},
	{Label: "sport", Text: "a late goal won the match for the team"},
	{Label: "sport", Text: "the coach praised the players after the game"},
	{Label: "tech", Text: "the new chip runs the program faster"},
	{Label: "tech", Text: "install the update to fix the software bug"},
	{Label: "tech", Text: "the computer needs more memory for the program"},
	{Label: "food", Text: "bake the bread with butter and salt"},
	{Label: "food", Text: "the soup needs more salt and pepper"},
}

// tinyText returns the model files of text models trained on tinyDocs,
// one per kind of section a file can hold: IDF or none, vocabulary or
// hashing, base weights or none, binarized or not.
func tinyText(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, cfg := range map[string]Config{
		"cnb":       {},
		"mnb-count": {Classifier: Multinomial, Weighting: RawCounts},
		"bnb":       {Classifier: Bernoulli},
		"hash":      {Vectorizer: Hash, HashFeatures: 16, Weighting: Rennie, Norm: true},
	} {
		out[name] = testkit.Encode(t, trainDocs(t, cfg, tinyDocs))
	}
	cal := trainDocs(t, Config{}, tinyDocs)
	if err := cal.Calibrate(crossValidate(t, Config{}, tinyDocs, CVOptions{Folds: 2, KeepScores: true})); err != nil {
		t.Fatal(err)
	}
	out["cnb-calibrated"] = testkit.Encode(t, cal)
	return out
}

// tinyMulti returns the model files of multi-label models trained on
// tinyDocs with a second label on some documents, one per score.
func tinyMulti(t testing.TB) map[string][]byte {
	t.Helper()
	var docs []corpus.MultiDocument
	for i, d := range tinyDocs {
		labels := []string{d.Label}
		if i%3 == 0 {
			labels = append(labels, "news")
		}
		docs = append(docs, corpus.MultiDocument{Labels: labels, Text: d.Text})
	}
	docs = append(docs, corpus.MultiDocument{Text: "nothing to see here"})
	return MultiLabel.Files(t, docs)
}

// MultiLabel is what the tests of model files need of package multilabel,
// which imports this package: multilabel_test.go, of package
// pipeline_test, fills it in.
var MultiLabel struct {
	// Files returns the model files of models trained on docs, one per
	// score, by name.
	Files func(t testing.TB, docs []corpus.MultiDocument) map[string][]byte
	// Decode decodes a multi-label model file.
	Decode func(data []byte) error
	// Check decodes a multi-label model file and reports what is wrong
	// with the model: predictions must be probabilities, one per label,
	// and Decide must return distinct labels, at least one unless the
	// model allows none; the model must encode again to a file that
	// decodes.
	Check func(data []byte) (decodeErr, bad error)
}

// checkModelFile decodes data as a model file of any kind. It returns
// the decoding error, if any, and what is wrong with a model decoded:
// predictions must be finite probabilities, one per class, summing to 1,
// and a text model must encode again and merge with itself
// if its settings allow; a multi-label model must encode again.
func checkModelFile(data []byte) (decodeErr, bad error) {
	kind, payload, err := openContainer(data)
	if err != nil {
		return err, nil
	}
	switch kind {
	case TextModel:
		m, err := decodeModel(payload, fileVersion(data))
		if err != nil {
			return err, nil
		}
		if err := checkTextModel(m); err != nil {
			return nil, err
		}
		if _, err := m.WriteTo(&bytes.Buffer{}); err != nil && !errors.Is(err, ErrDamaged) {
			return nil, fmt.Errorf("WriteTo: %v", err)
		}
		if mergeable(m) == nil {
			if merged, err := Merge(m, m); err == nil {
				if err := checkTextModel(merged); err != nil {
					return nil, fmt.Errorf("merged with itself: %v", err)
				}
			}
		}
	case MultiLabelModel:
		return MultiLabel.Check(data)
	default:
		return fmt.Errorf("%w: kind %v", ErrKind, kind), nil
	}
	return nil, nil
}

func checkTextModel(m *Model) error {
	docs := []string{"", "the team won the game", "salt salt salt pepper chip"}
	if m.vocab != nil {
		docs = append(docs, strings.Join(m.vocab.Terms(), " "))
	}
	p := m.NewPredictor()
	for _, doc := range docs {
		proba, best := p.Proba(nil, doc)
		if err := hostile.CheckProbabilities(proba, best, len(m.Classes)); err != nil {
			return fmt.Errorf("%q: %v", doc, err)
		}
	}
	if pr := m.PosteriorPriors(); len(pr) != len(m.Classes) || slices.ContainsFunc(pr, hostile.NotProbability) {
		return fmt.Errorf("posterior priors %v", pr)
	}
	return nil
}

// hostileValues are what the generator sets a JSON value to: the common
// ones and the names of the header's enumerations.
var hostileValues = append(slices.Clip(hostile.Values),
	"cnb", "mnb", "bnb", "counts", "rennie", "vocab", "l2", "l1", "none", "nsnb", "em", "chi2", "mi", "df", "odds", "complement",
	"auto", "en", "zh", "en,zh",
)

// A word is a number of a text model file's binary sections.
type word struct {
	what  string
	off   int
	size  int // 2, 4 or 8
	float bool
}

// textWords returns every number of a text model file's binary sections,
// found by walking the layout that WriteTo writes.
func textWords(t testing.TB, data []byte) []word {
	le := binary.LittleEndian
	p := headerSize
	var out []word
	add := func(what string, n, size int, float bool) {
		for i := range n {
			out = append(out, word{fmt.Sprintf("%s[%d]", what, i), p, size, float})
			p += size
		}
	}
	jsLen := int(le.Uint32(data[p:]))
	add("header length", 1, 4, false)
	var h header
	if err := json.Unmarshal(data[p:p+jsLen], &h); err != nil {
		t.Fatal(err)
	}
	p += jsLen
	k, f := len(h.Classes), h.Features
	if h.Terms > 0 {
		blob := int(le.Uint32(data[p+4*h.Terms:]))
		add("term end", h.Terms+1, 4, false)
		p += blob
	}
	if h.IDF {
		add("idf", f, 8, true)
	}
	nnz, nbase := int(le.Uint32(data[p:])), int(le.Uint32(data[p+4:]))
	add("cells", 1, 4, false)
	add("base weights", 1, 4, false)
	add("binary", 1, 4, false)
	add("threshold", 1, 8, true)
	add("bias", k, 8, true)
	add("P", k, 8, true)
	add("Q", k, 8, true)
	add("base", nbase, 8, true)
	add("ptr", f+1, 4, false)
	add("class", nnz, 2, false)
	add("delta", nnz, 8, true)
	nnz = int(le.Uint32(data[p:]))
	add("count cells", 1, 4, false)
	add("class count", k, 8, true)
	add("count ptr", f+1, 4, false)
	add("count class", nnz, 2, false)
	add("count", nnz, 8, true)
	if p != len(data)-4 {
		t.Fatalf("the layout walked ends at %d of %d bytes", p, len(data)-4)
	}
	return out
}

// wordVariants returns every word of data set to each hostile value for
// its size: 0, 1, −1 (all bits), the largest signed value and 2^62 as
// integers; NaN, ±Inf, ±MaxFloat64, 1e300 and the smallest subnormal as
// floats.
func wordVariants(words []word, data []byte) []hostile.Variant {
	var out []hostile.Variant
	for _, w := range words {
		vals := []uint64{0, 1, math.MaxUint64, 1<<(8*w.size-1) - 1}
		if w.size == 8 {
			vals = append(vals, 1<<62)
		}
		if w.float {
			for _, f := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 1e300, 5e-324} {
				vals = append(vals, math.Float64bits(f))
			}
		}
		for _, v := range vals {
			d := bytes.Clone(data)
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], v)
			copy(d[w.off:w.off+w.size], b[:w.size])
			out = append(out, hostile.Variant{Name: fmt.Sprintf("%s=%#x", w.what, v), Data: hostile.Rechecksum(d)})
		}
	}
	return out
}

// textVariants returns the hostile edits of a text model file: its JSON
// header edited (sections kept), its words edited, and the file cut at
// every word.
func textVariants(t testing.TB, data []byte) []hostile.Variant {
	out := headerVariants(data)
	words := textWords(t, data)
	out = append(out, wordVariants(words, data)...)
	for _, w := range words {
		cut := append(bytes.Clone(data[:w.off]), 0, 0, 0, 0)
		out = append(out, hostile.Variant{Name: "cut at " + w.what, Data: hostile.Rechecksum(cut)})
	}
	return out
}

// headerVariants returns the hostile edits of a text model file's JSON
// header.
func headerVariants(data []byte) []hostile.Variant {
	le := binary.LittleEndian
	jsLen := int(le.Uint32(data[headerSize:]))
	js, rest := data[headerSize+4:headerSize+4+jsLen], data[headerSize+4+jsLen:]
	return hostile.JSONVariants(js, hostileValues, func(edited []byte) []byte {
		d := append(slices.Clip(data[:headerSize]), le.AppendUint32(nil, uint32(len(edited)))...)
		d = append(append(d, edited...), rest...)
		return hostile.Rechecksum(d)
	})
}

// TestHostileModels decodes CRC-valid hostile edits of small text and
// multi-label model files (package table tests table models alike): every JSON value set to huge, negative, zero, NaN-ish
// strings and values of the wrong type, or removed; every binary word set
// to 0, 1, the maximum, 2^62, −1 and, for floats, NaN and ±Inf. Each must
// decode to an error or to a model whose predictions are finite
// probabilities, without panicking and without allocating more than a
// small multiple of the file's size.
func TestHostileModels(t *testing.T) {
	var all []hostile.Variant
	for name, data := range tinyText(t) {
		for _, v := range textVariants(t, data) {
			all = append(all, hostile.Variant{Name: name + ": " + v.Name, Data: v.Data})
		}
	}
	for name, data := range tinyMulti(t) {
		for _, v := range textVariants(t, data) {
			all = append(all, hostile.Variant{Name: name + ": " + v.Name, Data: v.Data})
		}
	}
	// The headers of formats 1 and 2, read apart (legacyConfig).
	for _, name := range []string{"news-v1", "multilabel-v2"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/models", name+".model"))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range headerVariants(data) {
			all = append(all, hostile.Variant{Name: name + ": " + v.Name, Data: v.Data})
		}
	}
	hostile.Check(t, all, testing.Short() || raceEnabled, decodeOnly, func(data []byte) error {
		_, bad := checkModelFile(data)
		return bad
	})
}

// decodeOnly decodes a model file of any kind.
func decodeOnly(data []byte) error {
	kind, payload, err := openContainer(data)
	if err != nil {
		return err
	}
	switch kind {
	case MultiLabelModel:
		err = MultiLabel.Decode(data)
	default:
		_, err = decodeModel(payload, fileVersion(data))
	}
	return err
}
