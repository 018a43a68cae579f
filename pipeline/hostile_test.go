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
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
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
		out[name] = encode(t, trainDocs(t, cfg, tinyDocs))
	}
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
		if err := checkProbabilities(proba, best, len(m.Classes)); err != nil {
			return fmt.Errorf("%q: %v", doc, err)
		}
	}
	if pr := m.PosteriorPriors(); len(pr) != len(m.Classes) || slices.ContainsFunc(pr, notProbability) {
		return fmt.Errorf("posterior priors %v", pr)
	}
	return nil
}

func notProbability(v float64) bool { return !(v >= 0 && v <= 1) }

// checkProbabilities reports whether p holds k finite probabilities summing
// to 1 (within the rounding of scores up to nb's hugeScore), with best a
// class.
func checkProbabilities(p []float64, best, k int) error {
	var sum float64
	for _, v := range p {
		if notProbability(v) {
			return fmt.Errorf("probabilities %v", p)
		}
		sum += v
	}
	if len(p) != k || math.Abs(sum-1) > 1e-6 || best < 0 || best >= k {
		return fmt.Errorf("%d probabilities %v for %d classes, summing to %g, best %d", len(p), p, k, sum, best)
	}
	return nil
}

// A variant is a hostile edit of a model file.
type variant struct {
	name string
	data []byte
}

// hostileValues are what the generator sets a JSON value to.
var hostileValues = []any{
	nil, true, false, 0, 1, -1, 2, 65535, 65536, 1 << 20, 1<<31 - 1, 1 << 32, 4611686018427387903, 9223372036854775807,
	-4611686018427387903, 0.5, 1e300, -1e300, 5e-324, "", "NaN", "Inf", "-Inf", "x", "gaussian", "categorical",
	"tfidf", "hash", []any{}, []any{0}, []any{""}, map[string]any{},
	// the names of the header's enumerations
	"cnb", "mnb", "bnb", "counts", "rennie", "vocab", "l2", "l1", "none", "nsnb", "em", "chi2", "mi", "df", "odds", "complement",
	"auto", "en", "zh", "en,zh",
}

// jsonVariants returns the edits of a JSON document: every value (at any
// depth) set to each of hostileValues, every object member removed, every
// array shortened, lengthened and given a repeat of its first element.
// rebuild makes a model file of an edited document.
func jsonVariants(doc []byte, rebuild func([]byte) []byte) []variant {
	var root any
	if err := json.Unmarshal(doc, &root); err != nil {
		panic(err)
	}
	var out []variant
	emit := func(name string, edited any) {
		js, err := json.Marshal(edited)
		if err != nil {
			panic(err)
		}
		out = append(out, variant{name, rebuild(js)})
	}
	// walk visits every value; set replaces the value at the path being
	// visited in a fresh copy of root and emits it.
	var walk func(path string, v any, set func(any) any)
	walk = func(path string, v any, set func(any) any) {
		for _, h := range hostileValues {
			emit(fmt.Sprintf("%s=%v", path, h), set(h))
		}
		switch v := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(v) {
				emit(path+"."+k+" removed", set(without(v, k)))
				walk(path+"."+k, v[k], func(x any) any {
					c := cloneMap(v)
					c[k] = x
					return set(c)
				})
			}
		case []any:
			if len(v) > 0 {
				emit(path+" shortened", set(slices.Clone(v[:len(v)-1])))
				emit(path+" repeats its first", set(append(slices.Clone(v), v[0])))
				emit(path+" first twice", set(append([]any{v[0]}, v[1:]...)))
			}
			emit(path+" lengthened", set(append(slices.Clone(v), 0)))
			for i := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), v[i], func(x any) any {
					c := slices.Clone(v)
					c[i] = x
					return set(c)
				})
			}
		}
	}
	walk("$", root, func(x any) any { return x })
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func cloneMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func without(m map[string]any, k string) map[string]any {
	c := cloneMap(m)
	delete(c, k)
	return c
}

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
func wordVariants(words []word, data []byte) []variant {
	var out []variant
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
			out = append(out, variant{fmt.Sprintf("%s=%#x", w.what, v), rechecksum(d)})
		}
	}
	return out
}

// textVariants returns the hostile edits of a text model file: its JSON
// header edited (sections kept), its words edited, and the file cut at
// every word.
func textVariants(t testing.TB, data []byte) []variant {
	out := headerVariants(data)
	words := textWords(t, data)
	out = append(out, wordVariants(words, data)...)
	for _, w := range words {
		cut := append(bytes.Clone(data[:w.off]), 0, 0, 0, 0)
		out = append(out, variant{"cut at " + w.what, rechecksum(cut)})
	}
	return out
}

// headerVariants returns the hostile edits of a text model file's JSON
// header.
func headerVariants(data []byte) []variant {
	le := binary.LittleEndian
	jsLen := int(le.Uint32(data[headerSize:]))
	js, rest := data[headerSize+4:headerSize+4+jsLen], data[headerSize+4+jsLen:]
	return jsonVariants(js, func(edited []byte) []byte {
		d := append(slices.Clip(data[:headerSize]), le.AppendUint32(nil, uint32(len(edited)))...)
		d = append(append(d, edited...), rest...)
		return rechecksum(d)
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
	var all []variant
	for name, data := range tinyText(t) {
		for _, v := range textVariants(t, data) {
			all = append(all, variant{name + ": " + v.name, v.data})
		}
	}
	for name, data := range tinyMulti(t) {
		for _, v := range textVariants(t, data) {
			all = append(all, variant{name + ": " + v.name, v.data})
		}
	}
	// The headers of formats 1 and 2, read apart (legacyConfig).
	for _, name := range []string{"news-v1", "multilabel-v2"} {
		data, err := os.ReadFile(filepath.Join("../testdata/models", name+".model"))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range headerVariants(data) {
			all = append(all, variant{name + ": " + v.name, v.data})
		}
	}
	// With -short or the race detector (ten times slower, and this test is
	// sequential), every seventh edit: each kind of edit still comes up.
	if testing.Short() || raceEnabled {
		for i := range (len(all) + 6) / 7 {
			all[i] = all[7*i]
		}
		all = all[:(len(all)+6)/7]
	}
	var refused, accepted, failed int
	var ms runtime.MemStats
	var maxAlloc uint64
	var maxRatio float64
	for _, v := range all {
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		err := catch(func() error { return decodeOnly(v.data) })
		runtime.ReadMemStats(&ms)
		// Decoding a genuine tiny model allocates tens of kilobytes,
		// whatever its size; the bound is that plus a multiple of the
		// file's size.
		alloc := ms.TotalAlloc - before
		if alloc > 256<<10+64*uint64(len(v.data)) {
			t.Errorf("%s: decoding %d bytes allocated %d", v.name, len(v.data), alloc)
		}
		maxRatio = max(maxRatio, float64(alloc)/float64(len(v.data)))
		maxAlloc = max(maxAlloc, alloc)
		if err == nil {
			var bad error
			if err = catch(func() error { _, bad = checkModelFile(v.data); return nil }); err == nil {
				err = bad
			}
			if err == nil {
				accepted++
				continue
			}
		} else if errors.Is(err, ErrDamaged) {
			refused++
			continue
		}
		if failed++; failed <= 20 {
			t.Errorf("%s: %v", v.name, err)
		}
	}
	t.Logf("%d hostile model files: %d refused as damaged, %d decoded and predicted finite probabilities, %d failed; decoding allocated at most %.1f times a file's size, %d bytes",
		len(all), refused, accepted, failed, maxRatio, maxAlloc)
	if refused == 0 || accepted == 0 {
		t.Errorf("%d refused, %d accepted: the generator should make both", refused, accepted)
	}
}

// catch returns f's error, or its panic as an error.
func catch(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
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
