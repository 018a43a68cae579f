package textnb_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/textnb/textnb"
	"github.com/textnb/textnb/nb"
)

// PredictRows reads a table's rows in the model's column order, whatever
// the file's, and scores them as Predict does.
func TestTablePredictRows(t *testing.T) {
	c, err := textnb.Open("testdata/models/gaussian-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	tm := c.(*textnb.Table)
	if got := tm.LabelField(); got != "species" {
		t.Errorf("LabelField = %q, want species (the model was trained with --label-field species)", got)
	}
	// iris-new.tsv's rows by hand, in the model's column order
	data, err := os.ReadFile("testdata/models/iris-new.tsv")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(data)), "\n")
	header := strings.Split(rows[0], "\t")
	var lines []int
	err = tm.PredictRows("testdata/models/iris-new.tsv", "", func(line int, label string, proba []float64, best int) error {
		lines = append(lines, line)
		cells := strings.Split(rows[line-1], "\t")
		var row []float64
		for _, col := range tm.Columns() {
			v, err := strconv.ParseFloat(cells[slices.Index(header, col)], 64)
			if err != nil {
				t.Fatal(err)
			}
			row = append(row, v)
		}
		p, err := tm.Predict(row)
		if label != "" || err != nil || p.Label != tm.Classes()[best] || len(proba) != len(p.Proba) || p.Proba[best].Prob != proba[best] {
			t.Errorf("line %d: label %q, proba %v %d; Predict %+v (%v)", line, label, proba, best, p, err)
		}
		return nil
	})
	if err != nil || !slices.Equal(lines, []int{2, 3, 4}) {
		t.Fatalf("PredictRows read lines %v (%v), want 2, 3 and 4", lines, err)
	}
	var labels []string
	err = tm.PredictRows("testdata/models/iris.csv", "species", func(_ int, label string, _ []float64, _ int) error {
		labels = append(labels, label)
		return nil
	})
	if err != nil || len(labels) != 10 || labels[0] != "setosa" || labels[9] != "versicolor" {
		t.Fatalf("PredictRows with labels: %v (%v)", labels, err)
	}
	stop := errors.New("stop")
	if err := tm.PredictRows("testdata/models/iris.csv", "", func(int, string, []float64, int) error { return stop }); err != stop {
		t.Errorf("PredictRows returned %v, not fn's error", err)
	}

	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("length,width,const,colour\n1,2,7,0\n1,x,7,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = tm.PredictRows(bad, "", func(int, string, []float64, int) error { return nil })
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "3") || !strings.Contains(err.Error(), "width") {
		t.Errorf("PredictRows of a bad cell: %v, want an error naming the file, line 3 and the column", err)
	}
	short := filepath.Join(dir, "short.csv")
	if err := os.WriteFile(short, []byte("length,width\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := tm.PredictRows(short, "", func(int, string, []float64, int) error { return nil }); !errors.Is(err, textnb.ErrColumns) || !strings.Contains(err.Error(), short) {
		t.Errorf("PredictRows without the model's columns: %v, want ErrColumns naming the file", err)
	}
	if err := tm.PredictRows("testdata/models/iris.csv", "label", func(int, string, []float64, int) error { return nil }); err == nil {
		t.Error("PredictRows with a label column the table lacks: no error")
	}
	if err := tm.PredictRows("testdata/models/news-v2.predict.jsonl", "", func(int, string, []float64, int) error { return nil }); err == nil {
		t.Error("PredictRows of a .jsonl file: no error")
	}

	// The priors its probabilities assume are its training frequencies,
	// here 5 rows of each class.
	if p := tm.Priors(); len(p) != 2 || math.Abs(p[0]-0.5) > 1e-12 || math.Abs(p[1]-0.5) > 1e-12 {
		t.Errorf("Priors = %v, want [0.5 0.5]", p)
	}
}

// ParsePriors reads --priors, and Model.Priors are what a correction
// starts from.
func TestParsePriors(t *testing.T) {
	classes := []string{"ham", "spam"}
	if got, err := textnb.ParsePriors("spam=0.2, ham=0.8", classes); err != nil || !slices.Equal(got, []float64{0.8, 0.2}) {
		t.Errorf("ParsePriors = %v, %v; want [0.8 0.2] in the order of the classes", got, err)
	}
	for _, bad := range []string{"ham=1", "ham=0.5,spam=0.6", "ham=1,spam=0", "ham=0.5,spam=0.5,eggs=0", "ham"} {
		if _, err := textnb.ParsePriors(bad, classes); !errors.Is(err, textnb.ErrPriors) {
			t.Errorf("ParsePriors(%q) = %v, want ErrPriors", bad, err)
		}
	}
	m, err := textnb.Train(spam, textnb.Config{Fast: true})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Priors()
	if len(p) != len(m.Classes()) || math.Abs(p[0]+p[1]-1) > 1e-12 {
		t.Fatalf("Priors = %v", p)
	}
	// Correcting for the model's own priors changes nothing.
	shift, err := nb.NewPriorShift(p, p)
	if err != nil {
		t.Fatal(err)
	}
	pred := m.Predict("claim your free prize")
	proba := []float64{pred.Proba[0].Prob, pred.Proba[1].Prob}
	shift.Apply(proba)
	if math.Abs(proba[0]-pred.Proba[0].Prob) > 1e-12 {
		t.Errorf("a correction to the model's own priors moved %v to %v", pred.Proba, proba)
	}
}

// ParseServed reads serve's NAME=PATH and PATH arguments.
func TestParseServed(t *testing.T) {
	for arg, want := range map[string]textnb.Served{
		"news=models/a.model":  {Name: "news", Path: "models/a.model"},
		"models/news-v2.model": {Name: "news-v2", Path: "models/news-v2.model"},
		"a=b=c":                {Name: "a", Path: "b=c"},
	} {
		if got, err := textnb.ParseServed(arg); err != nil || got != want {
			t.Errorf("ParseServed(%q) = %+v, %v; want %+v", arg, got, err, want)
		}
	}
	for _, bad := range []string{"news=", "a b=x.model", "=x.model"} {
		if got, err := textnb.ParseServed(bad); err == nil {
			t.Errorf("ParseServed(%q) = %+v, want an error", bad, got)
		}
	}
}
