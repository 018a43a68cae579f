package pipeline

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/numtable"
)

// flowers is an iris-like table: two measurements, a constant column and a
// coded colour (0, 1, 2) that Categorical uses as it is.
func flowers() numtable.Table {
	t := numtable.Table{Header: []string{"length", "width", "const", "colour"}}
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

func trainTable(t testing.TB, cfg TableConfig) *Table {
	t.Helper()
	m, err := TrainTable(flowers(), cfg)
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
	for _, kind := range []TableKind{Gaussian, Categorical} {
		t.Run(kind.String(), func(t *testing.T) {
			m := trainTable(t, TableConfig{Kind: kind, Bins: 3})
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
	m := trainTable(t, TableConfig{Kind: Categorical, Bins: 3})
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
	m = trainTable(t, TableConfig{Kind: Categorical, Bins: 2})
	if m.Direct[3] {
		t.Error("colour has 3 values but only 2 bins: want it binned")
	}
}

func TestTableGaussianConstantColumn(t *testing.T) {
	m := trainTable(t, TableConfig{})
	for _, v := range m.Gaussian.Var {
		if !(v > 0) {
			t.Fatalf("variances %v: want all positive", m.Gaussian.Var)
		}
	}
}

func TestTableFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.model")
	for _, kind := range []TableKind{Gaussian, Categorical} {
		m := trainTable(t, TableConfig{Kind: kind})
		if err := Save(path, m); err != nil {
			t.Fatal(err)
		}
		if k, err := FileKind(path); err != nil || k != TableModel {
			t.Fatalf("FileKind = %v, %v; want table model", k, err)
		}
		got, err := LoadTable(path)
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
	if _, err := Decode(encode(t, trainTable(t, TableConfig{}))); !errors.Is(err, ErrKind) || !strings.Contains(err.Error(), "table model") {
		t.Errorf("Decode of a table model: %v, want ErrKind naming the table model", err)
	}
	text, _ := train(t, Config{}, "../testdata/spam.tsv")
	if _, err := DecodeTable(encode(t, text)); !errors.Is(err, ErrKind) || !strings.Contains(err.Error(), "text model") {
		t.Errorf("DecodeTable of a text model: %v, want ErrKind naming the text model", err)
	}
	for name, payload := range map[string]string{
		"not JSON":     "{",
		"no model":     `{"kind":"gaussian","features":["a"],"classes":["x","y"]}`,
		"one class":    `{"kind":"gaussian","features":["a"],"classes":["x"]}`,
		"unknown kind": `{"kind":"poisson","features":["a"],"classes":["x","y"]}`,
	} {
		if _, err := DecodeTable(containerBytes(t, TableModel, payload)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want ErrFormat", name, err)
		}
	}
	if _, err := DecodeTable([]byte("label,a\nx,1\n")); !errors.Is(err, ErrFormat) {
		t.Errorf("a CSV file: %v, want ErrFormat", err)
	}
}

func TestTrainTableErrors(t *testing.T) {
	one := flowers()
	for i := range one.Labels {
		one.Labels[i] = "setosa"
	}
	noCols := numtable.Table{Labels: []string{"a", "b"}, Features: [][]float64{{}, {}}}
	for _, tc := range []struct {
		name string
		t    numtable.Table
		cfg  TableConfig
		want error
	}{
		{"empty", numtable.Table{Header: []string{"a"}}, TableConfig{}, ErrNoDocuments},
		{"one class", one, TableConfig{}, ErrOneClass},
		{"no feature columns", noCols, TableConfig{}, ErrConfig},
		{"unknown kind", flowers(), TableConfig{Kind: 9}, ErrConfig},
	} {
		if _, err := TrainTable(tc.t, tc.cfg); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := TrainTable(flowers(), TableConfig{Kind: Categorical, Bins: 1}); err == nil {
		t.Error("1 bin: trained without error")
	}
	m := trainTable(t, TableConfig{})
	if _, _, err := m.Proba(nil, []float64{1, 2}); err == nil {
		t.Error("Proba of a short row: no error")
	}
}

func TestTableColumns(t *testing.T) {
	m := trainTable(t, TableConfig{})
	cols, err := m.Columns(nil, []string{"id", "colour", "label", "const", "width", "length"})
	if err != nil || fmt.Sprint(cols) != "[5 4 3 1]" {
		t.Fatalf("Columns = %v, %v; want [5 4 3 1]", cols, err)
	}
	_, err = m.Columns(nil, []string{"length", "label", "width"})
	if !errors.Is(err, ErrColumns) || !strings.Contains(err.Error(), `"const" and "colour"`) {
		t.Fatalf("missing columns: %v, want ErrColumns naming const and colour", err)
	}
}

func TestParseTableKind(t *testing.T) {
	for _, k := range []TableKind{Gaussian, Categorical} {
		got, err := ParseTableKind(strings.ToUpper(k.String()))
		if err != nil || got != k {
			t.Errorf("ParseTableKind(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseTableKind("cnb"); !errors.Is(err, ErrConfig) {
		t.Errorf("ParseTableKind(cnb): %v, want ErrConfig", err)
	}
}

func ExampleTable() {
	t := numtable.Table{
		Header:   []string{"height", "weight"},
		Features: [][]float64{{180, 80}, {175, 75}, {185, 90}, {160, 55}, {155, 50}, {165, 60}},
		Labels:   []string{"tall", "tall", "tall", "short", "short", "short"},
	}
	m, err := TrainTable(t, TableConfig{Kind: Gaussian})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, best, _ := m.Proba(nil, []float64{178, 70})
	fmt.Printf("%s %.3f\n", m.Classes[best], p[best])
	// Output: tall 1.000
}

func ExampleTableKind() {
	k, err := ParseTableKind("categorical")
	fmt.Println(k, err)
	_, err = ParseTableKind("poisson")
	fmt.Println(err)
	// Output:
	// categorical <nil>
	// pipeline: bad configuration: table model "poisson" is not one of gaussian, categorical
}

func ExampleTableConfig() {
	t := numtable.Table{
		Header:   []string{"temperature", "windy"},
		Features: [][]float64{{30, 0}, {28, 0}, {25, 1}, {12, 1}, {10, 1}, {15, 0}},
		Labels:   []string{"play", "play", "play", "stay", "stay", "stay"},
	}
	// Categorical NB: temperature is cut into 2 quantile bins; windy (0/1)
	// is used as it is.
	m, _ := TrainTable(t, TableConfig{Kind: Categorical, Bins: 2})
	fmt.Println(m.Direct)
	_, best, _ := m.Proba(nil, []float64{27, 1})
	fmt.Println(m.Classes[best])
	// Output:
	// [false true]
	// play
}

// A table model is written as version 1, which it has not outgrown, so
// that builds older than version 2 still read it; a text model as the
// newest version.
func TestVersionWrittenPerKind(t *testing.T) {
	m, _ := train(t, Config{}, newsTrain)
	for _, c := range []struct {
		model io.WriterTo
		want  uint32
	}{{m, FormatVersion}, {trainTable(t, TableConfig{Kind: Gaussian}), 1}} {
		if got := binary.LittleEndian.Uint32(encode(t, c.model)[len(magic):]); got != c.want {
			t.Errorf("%T written as version %d, want %d", c.model, got, c.want)
		}
	}
}

func TestPeekKind(t *testing.T) {
	dir := t.TempDir()
	text, table, other := filepath.Join(dir, "text.model"), filepath.Join(dir, "table.model"), filepath.Join(dir, "notes.txt")
	m, _ := train(t, Config{}, newsTrain)
	if err := Save(text, m); err != nil {
		t.Fatal(err)
	}
	if err := Save(table, trainTable(t, TableConfig{Kind: Gaussian})); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte("not a model, though long enough"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]Kind{text: TextModel, table: TableModel} {
		if got, err := PeekKind(path); got != want || err != nil {
			t.Errorf("PeekKind(%s) = %v, %v; want %v", path, got, err, want)
		}
	}
	if _, err := PeekKind(other); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), other) {
		t.Errorf("PeekKind of a text file: %v, want ErrFormat naming it", err)
	}
	if _, err := PeekKind(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("PeekKind of a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestOpenEitherKind(t *testing.T) {
	dir := t.TempDir()
	text, table := filepath.Join(dir, "text.model"), filepath.Join(dir, "table.model")
	m, _ := train(t, Config{}, newsTrain)
	tab := trainTable(t, TableConfig{Kind: Gaussian})
	if err := Save(text, m); err != nil {
		t.Fatal(err)
	}
	if err := Save(table, tab); err != nil {
		t.Fatal(err)
	}
	gotM, gotT, err := Open(text)
	if err != nil || gotM == nil || gotT != nil || !slices.Equal(gotM.Classes, m.Classes) {
		t.Fatalf("Open(text model) = %v, %v, %v", gotM, gotT, err)
	}
	const doc = "the engine needs oil and the game went to overtime"
	if a, b := fmt.Sprint(m.NewPredictor().Proba(nil, doc)), fmt.Sprint(gotM.NewPredictor().Proba(nil, doc)); a != b {
		t.Errorf("opened text model gives %s, trained %s", b, a)
	}
	gotM, gotT, err = Open(table)
	if err != nil || gotM != nil || gotT == nil || !slices.Equal(gotT.Classes, tab.Classes) {
		t.Fatalf("Open(table model) = %v, %v, %v", gotM, gotT, err)
	}
	x := []float64{5, 3, 1, 2}
	want, wantBest, errA := tab.Proba(nil, x)
	got, gotBest, errB := gotT.Proba(nil, x)
	if errA != nil || errB != nil || gotBest != wantBest || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("opened table model gives %v (%d, %v), trained %v (%d, %v)", got, gotBest, errB, want, wantBest, errA)
	}
	// A container of a kind this build does not know is refused by kind; a
	// checked container of a known kind whose payload is not a model fails
	// in decoding. Either error names the file.
	for _, tc := range []struct {
		kind    Kind
		payload string
		want    error
	}{{Kind(7), "", ErrKind}, {TextModel, "not a model", ErrFormat}, {TableModel, "not a model", ErrFormat}} {
		path := writeContainer(t, dir, tc.kind, tc.payload)
		if m, tab, err := Open(path); m != nil || tab != nil || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("Open(%v holding %q) = %v, %v, %v; want %v naming the file", tc.kind, tc.payload, m, tab, err, tc.want)
		}
	}
}

// containerBytes returns a checked model file of kind holding payload.
func containerBytes(t *testing.T, kind Kind, payload string) []byte {
	t.Helper()
	var b bytes.Buffer
	cw := newContainer(&b, kind)
	cw.write([]byte(payload))
	if _, err := cw.close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeContainer writes containerBytes into a file in dir.
func writeContainer(t *testing.T, dir string, kind Kind, payload string) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("kind%d.model", kind))
	if err := os.WriteFile(path, containerBytes(t, kind, payload), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
