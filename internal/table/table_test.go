package table

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/testkit"
)

// flowers is an iris-like table: two measurements, a constant column and a
// coded colour (0, 1, 2) that Categorical uses as it is.
func flowers() Data {
	t := Data{Header: []string{"length", "width", "const", "colour"}}
	rows := []struct {
		label string
		x     []float64
	}{
		{"setosa", []float64{5.1, 3.5, 7, 0}}, {"setosa", []float64{4.9, 3.0, 7, 0}},
		{"setosa", []float64{4.7, 3.2, 7, 0}}, {"setosa", []float64{5.0, 3.6, 7, 1}},
		{"setosa", []float64{5.4, 3.9, 7, 0}}, {"setosa", []float64{4.6, 3.4, 7, 0}},
		{"versicolor", []float64{7.0, 2.2, 7, 1}}, {"versicolor", []float64{6.4, 2.3, 7, 2}},
		{"versicolor", []float64{6.9, 2.1, 7, 1}}, {"versicolor", []float64{6.5, 2.8, 7, 1}},
		{"versicolor", []float64{6.3, 2.5, 7, 2}}, {"versicolor", []float64{6.6, 2.0, 7, 1}},
	}
	for _, r := range rows {
		t.Labels = append(t.Labels, r.label)
		t.Features = append(t.Features, r.x)
	}
	return t
}

func trainTable(t testing.TB, cfg Config) *Table {
	t.Helper()
	m, err := Train(flowers(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkProba asserts a finite probability row summing to 1 whose argmax is
// best.
func checkProba(t *testing.T, p []float64, best int) {
	t.Helper()
	var sum float64
	for _, v := range p {
		if math.IsNaN(v) || v < 0 || v > 1 {
			t.Fatalf("probabilities %v", p)
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("probabilities %v sum to %g", p, sum)
	}
	for c, v := range p {
		if v > p[best] || (v == p[best] && c < best) {
			t.Fatalf("best %d, but %v", best, p)
		}
	}
}

func TestTableTrainsAndPredicts(t *testing.T) {
	tab := flowers()
	for _, kind := range []Kind{Gaussian, Categorical} {
		t.Run(kind.String(), func(t *testing.T) {
			m := trainTable(t, Config{Kind: kind, Bins: 3})
			if want := []string{"setosa", "versicolor"}; fmt.Sprint(m.Classes) != fmt.Sprint(want) {
				t.Fatalf("classes %v, want %v", m.Classes, want)
			}
			for i, x := range tab.Features {
				p, best, err := m.Proba(nil, x)
				if err != nil {
					t.Fatal(err)
				}
				checkProba(t, p, best)
				if m.Classes[best] != tab.Labels[i] {
					t.Errorf("row %d: predicted %s, want %s (%v)", i, m.Classes[best], tab.Labels[i], p)
				}
			}
			// Far outside the training range, in an unseen colour and off
			// the constant: still a probability, no NaN.
			for _, x := range [][]float64{{100, -50, 8, 7}, {5, 3, 7, -1}, {5, 3, 7, 1.5}, {-1e100, 1e100, 0, 1e9}} {
				p, best, err := m.Proba(nil, x)
				if err != nil {
					t.Fatal(err)
				}
				checkProba(t, p, best)
			}
			// Beyond 1e154 squares overflow: an error, not NaN.
			if p, _, err := m.Proba(nil, []float64{-1e300, 1e300, 0, 1}); kind == Gaussian && !errors.Is(err, ErrOverflow) {
				t.Errorf("overflowing row: %v, %v; want ErrOverflow", p, err)
			}
			if p := m.TrainingPriors(); math.Abs(p[0]-0.5) > 1e-12 || math.Abs(p[1]-0.5) > 1e-12 {
				t.Errorf("training priors %v, want 0.5 each", p)
			}
		})
	}
}

func TestTableCategoricalColumns(t *testing.T) {
	m := trainTable(t, Config{Kind: Categorical, Bins: 3})
	if want := []bool{false, false, true, true}; fmt.Sprint(m.Direct) != fmt.Sprint(want) {
		t.Fatalf("direct columns %v, want %v", m.Direct, want)
	}
	if n := m.Categorical.NCategories; n[0] != 3 || n[2] != 8 || n[3] != 3 {
		t.Fatalf("categories per column %v, want 3 bins, 8 (0..7), 3 colours", n)
	}
	// Every value that is not a known colour scores as the same unseen one.
	unseen, _, _ := m.Proba(nil, []float64{5, 3, 7, 3})
	for _, v := range []float64{-1, 1.5, 99, 1e9} {
		p, _, _ := m.Proba(nil, []float64{5, 3, 7, v})
		if math.Abs(p[0]-unseen[0]) > 1e-12 {
			t.Errorf("colour %g: %v, want %v as for any unseen colour", v, p, unseen)
		}
	}
	// Too many distinct values for the bins: binned instead.
	m = trainTable(t, Config{Kind: Categorical, Bins: 2})
	if m.Direct[3] {
		t.Error("colour has 3 values but only 2 bins: want it binned")
	}
}

func TestTableGaussianConstantColumn(t *testing.T) {
	m := trainTable(t, Config{})
	for _, v := range m.Gaussian.Var {
		if !(v > 0) {
			t.Fatalf("variances %v: want all positive", m.Gaussian.Var)
		}
	}
}

func TestTableFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.model")
	for _, kind := range []Kind{Gaussian, Categorical} {
		m := trainTable(t, Config{Kind: kind})
		if err := modelfile.Save(path, m); err != nil {
			t.Fatal(err)
		}
		if k, err := modelfile.FileKind(path); err != nil || k != modelfile.TableModel {
			t.Fatalf("FileKind = %v, %v; want table model", k, err)
		}
		got, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range append(flowers().Features, []float64{9, 9, 1, 5}) {
			a, ba, _ := m.Proba(nil, x)
			b, bb, _ := got.Proba(nil, x)
			if ba != bb || fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("%v: loaded model gives %v (%d), trained %v (%d)", kind, b, bb, a, ba)
			}
		}
	}
}

func TestTableFileErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.model")
	if err := os.WriteFile(path, testkit.Encode(t, trainTable(t, Config{})), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Load(path); !errors.Is(err, modelfile.ErrKind) || !strings.Contains(err.Error(), "table model") {
		t.Errorf("pipeline.Load of a table model: %v, want ErrKind naming the table model", err)
	}
	if _, err := Decode(testkit.Encode(t, trainText(t))); !errors.Is(err, modelfile.ErrKind) || !strings.Contains(err.Error(), "text model") {
		t.Errorf("Decode of a text model: %v, want ErrKind naming the text model", err)
	}
	for name, payload := range map[string]string{
		"not JSON":     "{",
		"no model":     `{"kind":"gaussian","features":["a"],"classes":["x","y"]}`,
		"one class":    `{"kind":"gaussian","features":["a"],"classes":["x"]}`,
		"unknown kind": `{"kind":"poisson","features":["a"],"classes":["x","y"]}`,
	} {
		if _, err := Decode(hostile.Container(t, modelfile.TableModel, payload)); !errors.Is(err, modelfile.ErrFormat) {
			t.Errorf("%s: error %v, want modelfile.ErrFormat", name, err)
		}
	}
	if _, err := Decode([]byte("label,a\nx,1\n")); !errors.Is(err, modelfile.ErrFormat) {
		t.Errorf("a CSV file: %v, want modelfile.ErrFormat", err)
	}
}

func TestTrainTableErrors(t *testing.T) {
	one := flowers()
	for i := range one.Labels {
		one.Labels[i] = "setosa"
	}
	noCols := Data{Labels: []string{"a", "b"}, Features: [][]float64{{}, {}}}
	for _, tc := range []struct {
		name string
		t    Data
		cfg  Config
		want error
	}{
		{"empty", Data{Header: []string{"a"}}, Config{}, pipeline.ErrNoDocuments},
		{"one class", one, Config{}, pipeline.ErrOneClass},
		{"no feature columns", noCols, Config{}, pipeline.ErrConfig},
		{"unknown kind", flowers(), Config{Kind: 9}, pipeline.ErrConfig},
	} {
		if _, err := Train(tc.t, tc.cfg); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := Train(flowers(), Config{Kind: Categorical, Bins: 1}); err == nil {
		t.Error("1 bin: trained without error")
	}
	m := trainTable(t, Config{})
	if _, _, err := m.Proba(nil, []float64{1, 2}); err == nil {
		t.Error("Proba of a short row: no error")
	}
}

func TestTableColumns(t *testing.T) {
	m := trainTable(t, Config{})
	cols, err := m.Columns(nil, []string{"id", "colour", "label", "const", "width", "length"})
	if err != nil || fmt.Sprint(cols) != "[5 4 3 1]" {
		t.Fatalf("Columns = %v, %v; want [5 4 3 1]", cols, err)
	}
	_, err = m.Columns(nil, []string{"length", "label", "width"})
	if !errors.Is(err, ErrColumns) || !strings.Contains(err.Error(), `"const" and "colour"`) {
		t.Fatalf("missing columns: %v, want ErrColumns naming const and colour", err)
	}
}

func TestKindUnmarshalText(t *testing.T) {
	for _, k := range []Kind{Gaussian, Categorical} {
		var got Kind
		if err := got.UnmarshalText([]byte(strings.ToUpper(k.String()))); err != nil || got != k {
			t.Errorf("UnmarshalText(%q) = %v, %v", k, got, err)
		}
	}
	var k Kind
	if err := k.UnmarshalText([]byte("cnb")); !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("UnmarshalText(cnb): %v, want pipeline.ErrConfig", err)
	}
}

func ExampleTable() {
	t := Data{
		Header:   []string{"height", "weight"},
		Features: [][]float64{{180, 80}, {175, 75}, {185, 90}, {160, 55}, {155, 50}, {165, 60}},
		Labels:   []string{"tall", "tall", "tall", "short", "short", "short"},
	}
	m, err := Train(t, Config{Kind: Gaussian})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, best, _ := m.Proba(nil, []float64{178, 70})
	fmt.Printf("%s %.3f\n", m.Classes[best], p[best])
	// Output: tall 1.000
}

func ExampleKind_UnmarshalText() {
	var k Kind
	err := k.UnmarshalText([]byte("categorical"))
	fmt.Println(k, err)
	err = k.UnmarshalText([]byte("poisson"))
	fmt.Println(err)
	// Output:
	// categorical <nil>
	// pipeline: bad configuration: table model "poisson" is not one of gaussian, categorical
}

func ExampleConfig() {
	t := Data{
		Header:   []string{"temperature", "windy"},
		Features: [][]float64{{30, 0}, {28, 0}, {25, 1}, {12, 1}, {10, 1}, {15, 0}},
		Labels:   []string{"play", "play", "play", "stay", "stay", "stay"},
	}
	// Categorical NB: temperature is cut into 2 quantile bins; windy (0/1)
	// is used as it is.
	m, _ := Train(t, Config{Kind: Categorical, Bins: 2})
	fmt.Println(m.Direct)
	_, best, _ := m.Proba(nil, []float64{27, 1})
	fmt.Println(m.Classes[best])
	// Output:
	// [false true]
	// play
}

// trainText returns a text model trained on testdata/spam.tsv.
func trainText(t testing.TB) *pipeline.Model {
	t.Helper()
	tr, err := pipeline.NewTrainer(pipeline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Walk("../../testdata/spam.tsv", corpus.Options{}, func(d corpus.Document) error {
		return tr.Add(d.Label, d.Text)
	}); err != nil {
		t.Fatal(err)
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m
}
