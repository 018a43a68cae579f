package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/nb"
)

// newsTexts returns the texts of testdata/news/test, one per line, and
// the files they came from.
func newsTexts(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(newsTest, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		b.WriteString(strings.Join(strings.Fields(string(data)), " ") + "\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// train --calibrate writes a calibrated model: inspect shows it; predict,
// --top and --estimate-priors give the library's calibrated probabilities,
// with the uncalibrated model's predictions.
func TestCLICalibrate(t *testing.T) {
	dir := t.TempDir()
	plain, cal := filepath.Join(dir, "plain.model"), filepath.Join(dir, "cal.model")
	mustRun(t, "", "train", newsTrain, "-o", plain, "--fast") // the default calibrates what it chooses
	out := mustRun(t, "", "train", newsTrain, "-o", cal, "--fast", "--calibrate", "--folds", "5")
	if !strings.Contains(out, "calibrated: temperature ") || !strings.Contains(out, "5-fold") {
		t.Fatalf("train --calibrate printed %q", out)
	}
	m, err := loadPipeline(cal)
	if err != nil {
		t.Fatal(err)
	}
	c := m.Calibration()
	if c == nil || c.Folds != 5 || c.Documents != 240 {
		t.Fatalf("calibration %+v", c)
	}
	if info := mustRun(t, "", "inspect", cal, "--top", "0"); !strings.Contains(info, "calibrated  temperature") {
		t.Errorf("inspect shows no calibration:\n%s", info)
	}
	var info facade.Info
	if err := json.Unmarshal([]byte(mustRun(t, "", "inspect", cal, "--json", "--top", "0")), &info); err != nil {
		t.Fatal(err)
	}
	if info.Calibration == nil || info.Calibration.Temperature != c.Temperature || info.Classes[0].Prior != c.Priors[0] {
		t.Errorf("inspect --json calibration %+v, want %+v", info.Calibration, c)
	}
	if info := mustRun(t, "", "inspect", plain, "--top", "0"); strings.Contains(info, "calibrated") {
		t.Errorf("inspect of an uncalibrated model shows a calibration:\n%s", info)
	}
	texts := newsTexts(t)
	got := predictions(t, mustRun(t, texts, "predict", "-m", cal, "--json", "--top", "2", "-"))
	before := predictions(t, mustRun(t, texts, "predict", "-m", plain, "--json", "-"))
	p := m.NewPredictor()
	var flat []float64
	for i, text := range lines(texts) {
		proba, best := p.Proba(nil, text)
		flat = append(flat, proba...)
		if got[i].Label != m.Classes[best] || got[i].Label != before[i].Label {
			t.Fatalf("line %d: predicted %q calibrated, %q uncalibrated, library %q", i+1, got[i].Label, before[i].Label, m.Classes[best])
		}
		for k, name := range m.Classes {
			if got[i].Proba[name] != proba[k] {
				t.Fatalf("line %d: P(%s) %g, library %g", i+1, name, got[i].Proba[name], proba[k])
			}
		}
		if got[i].Top[0].P != proba[best] || got[i].Proba[got[i].Label] == before[i].Proba[got[i].Label] {
			t.Fatalf("line %d: top %v; P %g calibrated, %g not", i+1, got[i].Top, got[i].Proba[got[i].Label], before[i].Proba[before[i].Label])
		}
	}
	q, _, err := nb.PriorEM{}.Estimate(flat, m.PosteriorPriors())
	if err != nil {
		t.Fatal(err)
	}
	est := lines(mustRun(t, texts, "predict", "-m", cal, "--estimate-priors", "-"))
	for k, name := range m.Classes {
		rest, ok := strings.CutPrefix(est[k], "# prior\t"+name+"\t")
		v, err := strconv.ParseFloat(rest, 64)
		if !ok || err != nil || math.Abs(v/q[k]-1) > 1e-5 {
			t.Errorf("line %q: want prior %.6g of %s", est[k], q[k], name)
		}
	}
}

// --tune calibrates the model from the chosen setting's cross-validation.
func TestCLITuneCalibrates(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	out := mustRun(t, "", "train", newsTrain, "-o", model, "--tune", "--grid", "alpha=0.1,1")
	if !strings.Contains(out, "calibrated: temperature ") || !strings.Contains(out, "3-fold") {
		t.Fatalf("train --tune printed %q", out)
	}
	m, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Calibration(); c == nil || c.Folds != 3 || !m.Config.Calibrate {
		t.Fatalf("calibration %+v", c)
	}
}

func TestCLICalibrateErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.model")
	mustFail(t, 2, []string{"--calibrate", "--stats-only"}, "train", newsTrain, "-o", out, "--calibrate", "--stats-only")
	mustFail(t, 2, []string{"--calibrate", "multi-label"}, "train", newsTrain, "-o", out, "--calibrate", "--multi-label")
	mustFail(t, 2, []string{"--folds 1"}, "train", newsTrain, "-o", out, "--calibrate", "--folds", "1")
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused training wrote %s (%v)", out, err)
	}
}
