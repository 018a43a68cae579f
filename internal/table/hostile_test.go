package table

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/testkit"
)

// tinyTable returns the model files of table models trained on flowers().
func tinyTable(t testing.TB) map[string][]byte {
	t.Helper()
	return map[string][]byte{
		"gaussian":    testkit.Encode(t, trainTable(t, Config{Kind: Gaussian})),
		"categorical": testkit.Encode(t, trainTable(t, Config{Kind: Categorical})),
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
		if err := hostile.CheckProbabilities(proba, best, len(m.Classes)); err != nil {
			return fmt.Errorf("%v: %v", x, err)
		}
	}
	if pr := m.TrainingPriors(); len(pr) != len(m.Classes) || slices.ContainsFunc(pr, hostile.NotProbability) {
		return fmt.Errorf("training priors %v", pr)
	}
	return nil
}

// tableVariants returns the hostile edits of a table model file's JSON.
func tableVariants(data []byte) []hostile.Variant {
	return hostile.JSONVariants(data[modelfile.HeaderSize:len(data)-4], hostile.Values, func(edited []byte) []byte {
		d := append(slices.Clip(data[:modelfile.HeaderSize]), edited...)
		return hostile.Rechecksum(append(d, 0, 0, 0, 0))
	})
}

// TestHostileModels decodes CRC-valid hostile edits of small table model
// files, as pipeline's test of the same name does text models: every JSON value set to huge, negative, zero, NaN-ish
// strings and values of the wrong type, or removed; every binary word set
// to 0, 1, the maximum, 2^62, −1 and, for floats, NaN and ±Inf. Each must
// decode to an error or to a model whose predictions are finite
// probabilities, without panicking and without allocating more than a
// small multiple of the file's size.
func TestHostileModels(t *testing.T) {
	var all []hostile.Variant
	for name, data := range tinyTable(t) {
		for _, v := range tableVariants(data) {
			all = append(all, hostile.Variant{Name: name + ": " + v.Name, Data: v.Data})
		}
	}
	hostile.Check(t, all, testing.Short() || raceEnabled, func(data []byte) error { _, err := Decode(data); return err }, checkModelFile)
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
	out := append(bytes.Clone(data[:modelfile.HeaderSize]), hostile.EditJSON(t, data[modelfile.HeaderSize:len(data)-4], edit)...)
	return hostile.Rechecksum(append(out, 0, 0, 0, 0))
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
		hostile.WantDamaged(t, tc.name, func(path string) error { _, err := Load(path); return err }, editTable(t, tables[tc.model], tc.edit), tc.detail)
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
