// Package hostile generates the hostile edits of model files that the
// tests of the packages writing them (pipeline, table, multilabel,
// internal/serve) decode, and checks what decoding them does. Only tests use
// it; it imports none of those packages, which pass it their decoders.
package hostile

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
)

// A Variant is a hostile edit of a model file.
type Variant struct {
	Name string
	Data []byte
}

// Values are what JSONVariants sets a JSON value to, whatever the model.
var Values = []any{
	nil, true, false, 0, 1, -1, 2, 65535, 65536, 1 << 20, 1<<31 - 1, 1 << 32, 4611686018427387903, 9223372036854775807,
	-4611686018427387903, 0.5, 1e300, -1e300, 5e-324, "", "NaN", "Inf", "-Inf", "x", "gaussian", "categorical",
	"tfidf", "hash", []any{}, []any{0}, []any{""}, map[string]any{},
}

// JSONVariants returns the edits of a JSON document: every value (at any
// depth) set to each of values, every object member removed, every
// array shortened, lengthened and given a repeat of its first element.
// rebuild makes a model file of an edited document.
func JSONVariants(doc []byte, values []any, rebuild func([]byte) []byte) []Variant {
	var root any
	if err := json.Unmarshal(doc, &root); err != nil {
		panic(err)
	}
	var out []Variant
	emit := func(name string, edited any) {
		js, err := json.Marshal(edited)
		if err != nil {
			panic(err)
		}
		out = append(out, Variant{name, rebuild(js)})
	}
	// walk visits every value; set replaces the value at the path being
	// visited in a fresh copy of root and emits it.
	var walk func(path string, v any, set func(any) any)
	walk = func(path string, v any, set func(any) any) {
		for _, h := range values {
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

// EditJSON returns the JSON object js edited by edit; numbers reach edit
// as json.Number, exactly as written.
func EditJSON(t testing.TB, js []byte, edit func(m map[string]any)) []byte {
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

// Rechecksum recomputes the checksum at the end of a model file.
func Rechecksum(data []byte) []byte {
	binary.LittleEndian.PutUint32(data[len(data)-4:], modelfile.Checksum(data[:len(data)-4]))
	return data
}

// WantDamaged asserts that loading data from a file with load fails with
// modelfile.ErrDamaged, naming the file and the detail given.
func WantDamaged(t *testing.T, name string, load func(path string) error, data []byte, detail string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hostile.model")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	err := load(path)
	if !errors.Is(err, modelfile.ErrDamaged) || errors.Is(err, modelfile.ErrNotModel) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), detail) {
		t.Errorf("%s: Load: %v; want ErrDamaged naming the file and %q", name, err, detail)
	}
}

// Catch returns f's error, or its panic as an error.
func Catch(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// NotProbability reports whether v is not a probability.
func NotProbability(v float64) bool { return !(v >= 0 && v <= 1) }

// CheckProbabilities reports whether p holds k finite probabilities summing
// to 1 (within the rounding of scores up to nb's hugeScore), with best a
// class.
func CheckProbabilities(p []float64, best, k int) error {
	var sum float64
	for _, v := range p {
		if NotProbability(v) {
			return fmt.Errorf("probabilities %v", p)
		}
		sum += v
	}
	if len(p) != k || math.Abs(sum-1) > 1e-6 || best < 0 || best >= k {
		return fmt.Errorf("%d probabilities %v for %d classes, summing to %g, best %d", len(p), p, k, sum, best)
	}
	return nil
}

// Check decodes every variant of all with decode, and a variant decoded
// with check, which reports what is wrong with the model: each must be
// refused with modelfile.ErrDamaged or pass check, without panicking and
// without allocating more than a small multiple of the file's size. With
// sample (-short, or the race detector, ten times slower on a sequential
// test) it takes every seventh variant: each kind of edit still comes up.
func Check(t *testing.T, all []Variant, sample bool, decode, check func(data []byte) error) {
	t.Helper()
	if sample {
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
		err := Catch(func() error { return decode(v.Data) })
		runtime.ReadMemStats(&ms)
		// Decoding a genuine tiny model allocates tens of kilobytes,
		// whatever its size; the bound is that plus a multiple of the
		// file's size.
		alloc := ms.TotalAlloc - before
		if alloc > 256<<10+64*uint64(len(v.Data)) {
			t.Errorf("%s: decoding %d bytes allocated %d", v.Name, len(v.Data), alloc)
		}
		maxRatio = max(maxRatio, float64(alloc)/float64(len(v.Data)))
		maxAlloc = max(maxAlloc, alloc)
		if err == nil {
			var bad error
			if err = Catch(func() error { bad = check(v.Data); return nil }); err == nil {
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
			t.Errorf("%s: %v", v.Name, err)
		}
	}
	t.Logf("%d hostile model files: %d refused as damaged, %d decoded and predicted finite probabilities, %d failed; decoding allocated at most %.1f times a file's size, %d bytes",
		len(all), refused, accepted, failed, maxRatio, maxAlloc)
	if refused == 0 || accepted == 0 {
		t.Errorf("%d refused, %d accepted: the generator should make both", refused, accepted)
	}
}
