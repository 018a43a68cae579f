package table

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

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/pipeline"
)

// tinyTable returns the model files of table models trained on flowers().
func tinyTable(t testing.TB) map[string][]byte {
	t.Helper()
	return map[string][]byte{
		"gaussian":    encode(t, trainTable(t, Config{Kind: Gaussian})),
		"categorical": encode(t, trainTable(t, Config{Kind: Categorical})),
	}
}

func checkTableModel(m *Table) error {
	rows := [][]float64{make([]float64, len(m.Features)), make([]float64, len(m.Features))}
	for j := range rows[1] {
		rows[1][j] = float64(j + 1)
	}
	for _, x := range rows {
		proba, best, err := m.Proba(nil, x)
		if errors.Is(err, ErrOverflow) {
			continue
		}
		if err != nil {
			return fmt.Errorf("Proba(%v): %v", x, err)
		}
		if err := checkProbabilities(proba, best, len(m.Classes)); err != nil {
			return fmt.Errorf("%v: %v", x, err)
		}
	}
	if pr := m.TrainingPriors(); len(pr) != len(m.Classes) || slices.ContainsFunc(pr, notProbability) {
		return fmt.Errorf("training priors %v", pr)
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

// tableVariants returns the hostile edits of a table model file's JSON.
func tableVariants(data []byte) []variant {
	return jsonVariants(data[modelfile.HeaderSize:len(data)-4], func(edited []byte) []byte {
		d := append(slices.Clip(data[:modelfile.HeaderSize]), edited...)
		return rechecksum(append(d, 0, 0, 0, 0))
	})
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

// TestHostileModels decodes CRC-valid hostile edits of small table model
// files, as pipeline's test of the same name does text models: every JSON value set to huge, negative, zero, NaN-ish
// strings and values of the wrong type, or removed; every binary word set
// to 0, 1, the maximum, 2^62, −1 and, for floats, NaN and ±Inf. Each must
// decode to an error or to a model whose predictions are finite
// probabilities, without panicking and without allocating more than a
// small multiple of the file's size.
func TestHostileModels(t *testing.T) {
	var all []variant
	for name, data := range tinyTable(t) {
		for _, v := range tableVariants(data) {
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
		err := catch(func() error { return func() error { _, err := Decode(v.data); return err }() })
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
			if err = catch(func() error { bad = checkModelFile(v.data); return nil }); err == nil {
				err = bad
			}
			if err == nil {
				accepted++
				continue
			}
		} else if errors.Is(err, modelfile.ErrDamaged) {
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

// checkModelFile decodes a table model file and reports what is wrong
// with the model decoded: predictions must be finite probabilities, one
// per class, summing to 1, unless a row far from the training data is
// refused with ErrOverflow.
func checkModelFile(data []byte) error {
	m, err := Decode(data)
	if err != nil {
		return err
	}
	return checkTableModel(m)
}

// editTable returns the table model file data with its JSON edited by
// edit, checksum recomputed.
func editTable(t testing.TB, data []byte, edit func(m map[string]any)) []byte {
	t.Helper()
	out := append(bytes.Clone(data[:modelfile.HeaderSize]), editJSON(t, data[modelfile.HeaderSize:len(data)-4], edit)...)
	return rechecksum(append(out, 0, 0, 0, 0))
}

// editJSON returns the JSON object js edited by edit; numbers reach edit
// as json.Number, exactly as written.
func editJSON(t testing.TB, js []byte, edit func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wantDamaged asserts that decoding data fails with modelfile.ErrDamaged, and with
// the file named and the detail given when loaded from a file.
func wantDamaged(t *testing.T, name string, data []byte, detail string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hostile.model")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if !errors.Is(err, modelfile.ErrDamaged) || errors.Is(err, modelfile.ErrNotModel) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), detail) {
		t.Errorf("%s: Load: %v; want modelfile.ErrDamaged naming the file and %q", name, err, detail)
	}
}

func TestHostileTables(t *testing.T) {
	tables := tinyTable(t)
	cat := func(m map[string]any) map[string]any { return m["categorical"].(map[string]any) }
	for _, tc := range []struct {
		name, model string
		edit        func(m map[string]any)
		detail      string
	}{
		// Issue 21.4: k·n wrapped and the scoring table was indexed out of
		// range while loading.
		{"2^62 categories, no counts", "categorical", func(m map[string]any) {
			c := cat(m)
			c["NCategories"].([]any)[0] = 1 << 62
			c["CategoryCount"].([]any)[0] = []any{}
			c["FeatureLogProb"].([]any)[0] = []any{}
		}, "Categorical"},
		{"2^62 categories, 4 classes", "categorical", func(m map[string]any) {
			// 4·2^62 wraps to 0, the length of the empty tables.
			c := cat(m)
			m["classes"] = []any{"a", "b", "c", "d"}
			c["ClassCount"] = []any{1, 1, 1, 1}
			c["ClassLogPrior"] = []any{math.Log(0.25), math.Log(0.25), math.Log(0.25), math.Log(0.25)}
			c["NCategories"].([]any)[0] = 1 << 62
			c["CategoryCount"].([]any)[0] = []any{}
			c["FeatureLogProb"].([]any)[0] = []any{}
			for i := 1; i < len(c["NCategories"].([]any)); i++ {
				n, err := c["NCategories"].([]any)[i].(json.Number).Int64()
				if err != nil {
					t.Fatal(err)
				}
				cnt, flp := make([]any, 4*n), make([]any, 4*n)
				for j := range cnt {
					cnt[j], flp[j] = 1, -math.Log(float64(n))
				}
				c["CategoryCount"].([]any)[i], c["FeatureLogProb"].([]any)[i] = cnt, flp
			}
		}, "Categorical"},
		// Issue 21.4: loaded, then panicked on the first row.
		{"no class counts or log probabilities", "categorical", func(m map[string]any) {
			delete(cat(m), "ClassCount")
			delete(cat(m), "FeatureLogProb")
		}, "Categorical"},
		{"no class counts", "categorical", func(m map[string]any) { delete(cat(m), "ClassCount") }, "Categorical"},
		{"no bin edges", "categorical", func(m map[string]any) {
			m["discretizer"].(map[string]any)["Edges"].([]any)[0] = []any{}
		}, "bin edges"},
		{"decreasing bin edges", "categorical", func(m map[string]any) {
			e := m["discretizer"].(map[string]any)["Edges"].([]any)[0].([]any)
			e[0], e[len(e)-1] = e[len(e)-1], e[0]
		}, "bin edge"},
		{"log prior above 0", "categorical", func(m map[string]any) { cat(m)["ClassLogPrior"].([]any)[0] = 1 }, "prior"},
		{"huge alpha", "categorical", func(m map[string]any) { cat(m)["Alpha"] = 1e308 }, "log probability"},
		{"repeated class", "gaussian", func(m map[string]any) { m["classes"] = []any{"a", "a"} }, "appears twice"},
		{"empty class", "categorical", func(m map[string]any) { m["classes"] = []any{"a", ""} }, "empty name"},
		{"negative variance", "gaussian", func(m map[string]any) {
			m["gaussian"].(map[string]any)["Var"].([]any)[1] = -1
		}, "variance"},
		{"subnormal variance", "gaussian", func(m map[string]any) {
			m["gaussian"].(map[string]any)["Var"].([]any)[1] = 5e-324
		}, "variance"},
		{"prior above 1", "gaussian", func(m map[string]any) { m["gaussian"].(map[string]any)["ClassPrior"].([]any)[0] = 2 }, "prior"},
		{"both models", "gaussian", func(m map[string]any) {
			cm := editTable(t, tables["categorical"], func(map[string]any) {})
			var c map[string]any
			if err := json.Unmarshal(cm[modelfile.HeaderSize:len(cm)-4], &c); err != nil {
				t.Fatal(err)
			}
			m["categorical"] = c["categorical"]
		}, "Gaussian"},
	} {
		wantDamaged(t, tc.name, editTable(t, tables[tc.model], tc.edit), tc.detail)
	}
}

// FuzzDecode is pipeline's FuzzDecode for table models, whose payload is JSON:
// the fuzzer edits the JSON, which is then put in a checked container.
func FuzzDecode(f *testing.F) {
	for _, data := range tinyTable(f) {
		f.Add(data[modelfile.HeaderSize : len(data)-4])
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		var b bytes.Buffer
		cw := modelfile.NewWriter(&b, modelfile.TableModel)
		cw.Put(payload)
		if _, err := cw.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(b.Bytes()); err != nil {
			if !errors.Is(err, modelfile.ErrDamaged) {
				t.Fatalf("error %v is not modelfile.ErrDamaged", err)
			}
			return
		}
		if bad := checkModelFile(b.Bytes()); bad != nil {
			t.Fatal(bad)
		}
	})
}

func TestInspect(t *testing.T) {
	for _, kind := range []Kind{Gaussian, Categorical} {
		m := trainTable(t, Config{Kind: kind})
		info := m.Inspect()
		if info.Kind != "table" || info.Settings.Classifier != kind.String() || !slices.Equal(info.Columns, m.Features) {
			t.Fatalf("%v: info %+v", kind, info)
		}
		var docs float64
		for k, ci := range info.Classes {
			docs += ci.Documents
			if ci.Name != m.Classes[k] || len(ci.Columns) != len(m.Features) {
				t.Fatalf("%v: class %+v", kind, ci)
			}
			for j, col := range ci.Columns {
				switch kind {
				case Gaussian:
					f := len(m.Features)
					if col.Mean == nil || *col.Mean != m.Gaussian.Theta[k*f+j] || *col.Std != math.Sqrt(m.Gaussian.Var[k*f+j]) {
						t.Fatalf("%v: column %+v", kind, col)
					}
				case Categorical:
					if col.Category == nil || *col.Prob <= 0 || *col.Prob > 1 || (col.Low == nil) != m.Direct[j] || (col.High == nil) != m.Direct[j] {
						t.Fatalf("%v: column %+v", kind, col)
					}
					n := m.Categorical.NCategories[j]
					lp := m.Categorical.FeatureLogProb[j][k*n : (k+1)*n]
					if math.Log(*col.Prob) < slices.Max(lp)-1e-12 {
						t.Fatalf("%v: column %q category %d is not the most probable of %v", kind, col.Name, *col.Category, lp)
					}
				}
			}
		}
		if docs != float64(len(flowers().Labels)) {
			t.Fatalf("%v: %g training rows, want %d", kind, docs, len(flowers().Labels))
		}
		if _, err := json.Marshal(info); err != nil {
			t.Fatal(err)
		}
	}
}

// A Categorical alpha whose weights overflow is refused.
func TestAlphaLimits(t *testing.T) {
	if _, err := Train(flowers(), Config{Kind: Categorical, Alpha: 1e308}); !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("categorical with alpha 1e308: %v, want pipeline.ErrConfig", err)
	}
}

// The label column's name survives a model file.
func TestFieldNamesRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.model")
	tab := trainTable(t, Config{Kind: Gaussian})
	tab.LabelField = "species"
	if err := modelfile.Save(path, tab); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(path); err != nil || got.LabelField != "species" {
		t.Errorf("loaded table label field %q (%v)", got.LabelField, err)
	}
}

// rechecksum recomputes the checksum at the end of a model file.
func rechecksum(data []byte) []byte {
	binary.LittleEndian.PutUint32(data[len(data)-4:], modelfile.Checksum(data[:len(data)-4]))
	return data
}
