package multilabel

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/testkit"
)

func TestInspect(t *testing.T) {
	mm, _ := trainMulti(t, pipeline.Config{}, Config{Title: 3, Reweight: 10}, readMultiDocs(t, multiJSONL))
	// a loaded model, whose counts are decoded for the terms
	path := filepath.Join(t.TempDir(), "m.model")
	if err := modelfile.Save(path, mm); err != nil {
		t.Fatal(err)
	}
	mm, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := mm.Inspect(3)
	if err != nil {
		t.Fatal(err)
	}
	m := info.Multi
	if info.Kind != "multi-label" || m.Score != "complement" || m.Folds != 5 || m.MinPositives != 3 || m.Title != 3 || m.Reweight != 10 ||
		info.Features != mm.NumFeatures() || info.Terms != len(mm.m.Terms()) || info.Settings.Alpha != mm.Config.Alpha {
		t.Errorf("info %+v", info)
	}
	if len(info.Labels) != len(mm.Labels) {
		t.Fatalf("%d labels, the model %d", len(info.Labels), len(mm.Labels))
	}
	for l, li := range info.Labels {
		if li.Name != mm.Labels[l] || li.Threshold != mm.Thresholds[l] || li.Documents != 12 || len(li.TopWeights) != 3 {
			t.Errorf("label %d: %+v", l, li)
		}
		w, _ := mm.m.ClassWeights(l)
		for _, ts := range li.TopWeights {
			if w[ts.Feature] != ts.Score || mm.m.Terms()[ts.Feature] != ts.Term || ts.Score < li.TopWeights[len(li.TopWeights)-1].Score {
				t.Errorf("%s: term %+v, weight %g", li.Name, ts, w[ts.Feature])
			}
		}
	}
	if info, _ := mm.Inspect(0); info.Labels[0].TopWeights != nil {
		t.Error("top 0 lists terms")
	}
}

// TestExplainSumsToScore checks that each label's parts sum to its
// score, and that the scores give the model's probabilities.
func TestExplainSumsToScore(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	text := "Shares of the hospital chain jumped\nThe insurer's profit rose as flu cases fell and nurses were hired"
	for _, score := range []Score{ComplementScore, OddsScore} {
		mm, _ := trainMulti(t, pipeline.Config{}, Config{Score: score}, docs)
		all := []int{0, 1, 2, 3}
		ep := mm.NewPredictor()
		ep.Proba(nil, "another text, whose row the Predictor holds until it reads the next")
		es := ep.Explain(text, all)
		if fresh := mm.NewPredictor().Explain(text, all); fmt.Sprint(fresh) != fmt.Sprint(es) {
			t.Errorf("%v: a new Predictor explains %+v, one that read another text %+v", score, fresh, es)
		}
		p := mm.NewPredictor().Proba(nil, text)
		for i, e := range es {
			sum := e.Bias
			for _, c := range e.Terms {
				sum += c.Weight
			}
			if math.Abs(sum-e.Score) > 1e-9 || e.P != p[i] || e.Label != i || e.Name != mm.Labels[i] || e.Threshold != mm.Thresholds[i] || len(e.Terms) == 0 {
				t.Errorf("%v %s: parts sum to %g, score %g; %+v", score, e.Name, sum, e.Score, e)
			}
			if !slices.IsSortedFunc(e.Terms, func(a, b pipeline.Contribution) int { return cmpAbs(b.Weight, a.Weight) }) {
				t.Errorf("%v %s: terms not by |weight|", score, e.Name)
			}
			switch score {
			case OddsScore:
				if want := 1 / (1 + math.Exp(-e.Score)); math.Abs(want-e.P) > 1e-9 {
					t.Errorf("odds %s: sigmoid(%g) = %g, p %g", e.Name, e.Score, want, e.P)
				}
			case ComplementScore:
				if d, want := e.Score-es[0].Score, math.Log(e.P/es[0].P); math.Abs(d-want) > 1e-9 {
					t.Errorf("complement %s: score difference %g, log-ratio of p %g", e.Name, d, want)
				}
			}
		}
		if one := ep.Explain(text, []int{2}); len(one) != 1 || one[0].Score != es[2].Score {
			t.Errorf("%v: one label explained as %+v", score, one)
		}
	}
}

func cmpAbs(a, b float64) int {
	switch a, b = math.Abs(a), math.Abs(b); {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Decode reads what WriteTo wrote.
func TestDecode(t *testing.T) {
	mm, _ := trainMulti(t, pipeline.Config{}, Config{}, readMultiDocs(t, multiJSONL))
	back, err := Decode(testkit.Encode(t, mm))
	if err != nil || !slices.Equal(back.Labels, mm.Labels) || !slices.Equal(back.Thresholds, mm.Thresholds) || back.Multi != mm.Multi {
		t.Errorf("Decode: %v, %v", back, err)
	}
}
