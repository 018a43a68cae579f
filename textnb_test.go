package textnb

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/textnb/textnb/internal/pipeline"
)

func newsModel(t *testing.T) *Model {
	t.Helper()
	m, err := TrainFrom(ReadCorpus("testdata/news/train"), Config{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newsTexts(t *testing.T) (labels, texts []string) {
	t.Helper()
	for d, err := range ReadCorpus("testdata/news/test") {
		if err != nil {
			t.Fatal(err)
		}
		labels, texts = append(labels, d.Label), append(texts, d.Text)
	}
	return labels, texts
}

// Predict, PredictBatch and Explain give what the pipeline's own
// Predictor gives, from many goroutines at once.
func TestPredictMatchesPipeline(t *testing.T) {
	m := newsModel(t)
	labels, texts := newsTexts(t)
	p := m.m.NewPredictor()
	want := make([]Prediction, len(texts))
	right := 0
	for i, text := range texts {
		proba, best := p.Proba(nil, text)
		want[i] = Prediction{Label: m.Classes()[best]}
		for c, v := range proba {
			want[i].Proba = append(want[i].Proba, ClassProb{m.Classes()[c], v})
		}
		if want[i].Label == labels[i] {
			right++
		}
	}
	if right < len(texts)*3/4 {
		t.Fatalf("only %d of %d test documents right", right, len(texts))
	}
	if got := m.PredictBatch(texts); !reflect.DeepEqual(got, want) {
		t.Fatalf("PredictBatch differs from the pipeline's predictions")
	}
	if got := m.PredictBatch(nil); len(got) != 0 {
		t.Fatalf("PredictBatch(nil) = %v", got)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < len(texts); i += 4 {
				if got := m.Predict(texts[i]); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("Predict(%q) = %v, want %v", texts[i], got, want[i])
				}
				e := m.Explain(texts[i])
				if e.Label != want[i].Label || !reflect.DeepEqual(e, p2(m).Explain(texts[i])) {
					t.Errorf("Explain(%q) = %+v", texts[i], e)
				}
			}
		})
	}
	wg.Wait()
}

func p2(m *Model) *pipeline.Predictor { return m.m.NewPredictor() }

func TestTrainErrors(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, tc := range []struct {
		name string
		docs []Document
		want error
		text string
	}{
		{"empty label", []Document{{"a", "x"}, {"b", "y"}, {"", "z"}}, ErrEmptyLabel, "document 3"},
		{"no documents", nil, ErrNoDocuments, ""},
		{"one class", []Document{{"a", "x"}, {"a", "y"}}, ErrOneClass, `"a"`},
	} {
		_, err := Train(tc.docs, Config{})
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: %v, want %v naming %s", tc.name, err, tc.want, tc.text)
		}
	}
	if _, err := Train(nil, Config{Alpha: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("alpha -1: %v, want ErrConfig", err)
	}
	_, err := TrainFrom(ReadCorpus("testdata/no such corpus"), Config{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing corpus: %v", err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.tsv")
	lines := "label\ttext\n" + strings.Repeat("a\tone two\nb\tthree four\n", 200) + "c\n"
	if err := os.WriteFile(bad, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := TrainFrom(ReadCorpus(bad), Config{}); err == nil || !strings.Contains(err.Error(), "bad.tsv:402") {
		t.Errorf("bad line 402: %v", err)
	}
	empty := filepath.Join(dir, "empty.tsv")
	if err := os.WriteFile(empty, []byte("label\ttext\na\tone\n\ttwo\nb\tthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := TrainFrom(ReadCorpus(empty), Config{}); !errors.Is(err, ErrEmptyLabel) || !strings.Contains(err.Error(), "empty.tsv:3") {
		t.Errorf("empty label read from a file: %v, want ErrEmptyLabel naming empty.tsv:3", err)
	}
	// The aborted trainers have stopped their goroutines.
	deadline, ok := t.Deadline()
	for runtime.NumGoroutine() > before && (!ok || time.Until(deadline) > time.Second) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// A saved model loads with Load and Open and predicts the same; Load
// refuses a table model, Open tells the kinds apart.
func TestSaveLoadOpen(t *testing.T) {
	m := newsModel(t)
	_, texts := newsTexts(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "news.model")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	opened, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	om, ok := opened.(*Model)
	if !ok || opened.Kind() != TextModel || !slices.Equal(opened.Classes(), m.Classes()) {
		t.Fatalf("Open of a text model gave %T, kind %v", opened, opened.Kind())
	}
	for _, text := range texts {
		want := m.Predict(text)
		if !reflect.DeepEqual(loaded.Predict(text), want) || !reflect.DeepEqual(om.Predict(text), want) {
			t.Fatalf("%q predicted differently after loading", text)
		}
	}
	info, err := opened.Inspect(3)
	if err != nil || info.Kind != "text" || len(info.Classes) != 4 || len(info.Classes[0].TopLogOdds) != 3 {
		t.Fatalf("Inspect: %+v, %v", info, err)
	}

	table := filepath.Join(dir, "flowers.csv")
	csv := "length,width,label\n1,1.1,a\n1.2,0.9,a\n0.9,1,a\n5,5.2,b\n5.1,4.8,b\n4.9,5,b\n"
	if err := os.WriteFile(table, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	tm, err := TrainTable(table, TableConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tpath := filepath.Join(dir, "flowers.model")
	if err := tm.Save(tpath); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(tpath); !errors.Is(err, ErrKind) || !strings.Contains(err.Error(), tpath) {
		t.Fatalf("Load of a table model: %v, want ErrKind naming the file", err)
	}
	c, err := Open(tpath)
	if err != nil {
		t.Fatal(err)
	}
	ot, ok := c.(*Table)
	if !ok || c.Kind() != TableModel || !slices.Equal(ot.Columns(), []string{"length", "width"}) {
		t.Fatalf("Open of a table model gave %T, kind %v", c, c.Kind())
	}
	for row, want := range map[[2]float64]string{{1, 1}: "a", {5, 5}: "b"} {
		p, err := ot.Predict(row[:])
		if err != nil || p.Label != want || len(p.Proba) != 2 || p.Proba[0].Label != "a" {
			t.Fatalf("Predict(%v) = %+v, %v; want %s", row, p, err, want)
		}
	}
	if _, err := ot.Predict([]float64{1}); !errors.Is(err, ErrConfig) {
		t.Fatalf("Predict of a short row: %v, want ErrConfig", err)
	}
	if info, err := c.Inspect(0); err != nil || info.Kind != "table" || len(info.Classes) != 2 {
		t.Fatalf("Inspect: %+v, %v", info, err)
	}

	if _, err := Open(table); !errors.Is(err, ErrFormat) {
		t.Fatalf("Open of a CSV: %v, want ErrFormat", err)
	}
	// LabelField names another label column; Categorical bins the columns.
	species := filepath.Join(dir, "species.csv")
	if err := os.WriteFile(species, []byte(strings.ReplaceAll(csv, "label", "species")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := TrainTable(species, TableConfig{}); err == nil {
		t.Fatal("TrainTable without a label column: no error")
	}
	cm, err := TrainTable(species, TableConfig{Kind: TableCategorical, LabelField: "species", Bins: 2})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := cm.Inspect(0); err != nil || info.Settings.Classifier != "categorical" || info.Settings.Bins != 2 {
		t.Fatalf("Inspect of a Categorical table: %+v, %v", info, err)
	}
	if c := cm.t.Categorical; c.Alpha != 0 || c.MinCategories[0] != 2 || cm.LabelField() != "species" {
		t.Fatalf("Categorical alpha %g (0: the default), categories %v, label field %q; want 2 bins of species", c.Alpha, c.MinCategories, cm.LabelField())
	}
	if ca, err := TrainTable(species, TableConfig{Kind: TableCategorical, LabelField: "species", Bins: 3, Alpha: 0.5}); err != nil ||
		ca.t.Categorical.Alpha != 0.5 || ca.t.Categorical.MinCategories[0] != 3 {
		t.Fatalf("TrainTable with Alpha 0.5 and Bins 3: %v", err)
	}
	for row, want := range map[[2]float64]string{{1, 1}: "a", {5, 5}: "b"} {
		if p, err := cm.Predict(row[:]); err != nil || p.Label != want {
			t.Fatalf("Categorical Predict(%v) = %+v, %v; want %s", row, p, err, want)
		}
	}
	if _, err := TrainTable(filepath.Join(dir, "none.csv"), TableConfig{}); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("TrainTable of a missing file: %v", err)
	}
}

// Models written by earlier builds load.
func TestLoadVersion1(t *testing.T) {
	m, err := Load("testdata/models/news-v1.model")
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Predict("the striker scored in the cup final"); p.Label != "sport" {
		t.Fatalf("predicted %+v", p)
	}
}

// The README's library example is Example's code, at most 12 lines.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok1 := strings.Cut(string(readme), "```go\n")
	block, _, ok2 := strings.Cut(block, "```")
	_, body, ok3 := strings.Cut(string(src), "func Example() {\n")
	body, _, ok4 := strings.Cut(body, "\t// Output:")
	if !ok1 || !ok2 || !ok3 || !ok4 {
		t.Fatal("no Go block in README.md or no Example in example_test.go")
	}
	var code []string
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		code = append(code, strings.TrimPrefix(l, "\t"))
	}
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	for i, l := range lines { // a trailing comment shows the output
		if c, _, ok := strings.Cut(l, " // "); ok {
			lines[i] = c
		}
	}
	if !slices.Equal(lines, code) {
		t.Fatalf("README.md's example:\n%s\nExample:\n%s", strings.Join(lines, "\n"), strings.Join(code, "\n"))
	}
	if len(lines) > 12 {
		t.Fatalf("README.md's example has %d lines, want at most 12", len(lines))
	}
}
