package multilabel

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/vectorize"
)

const multiJSONL = "../../testdata/multilabel.jsonl"

func readMultiDocs(t testing.TB, path string) []corpus.MultiDocument {
	t.Helper()
	var docs []corpus.MultiDocument
	if _, err := corpus.WalkMulti(path, corpus.Options{}, func(d corpus.MultiDocument) error {
		docs = append(docs, d)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return docs
}

func trainMulti(t testing.TB, cfg pipeline.Config, mc Config, docs []corpus.MultiDocument) (*Model, Summary) {
	t.Helper()
	tr, err := NewTrainer(cfg, mc)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		tr.Add(d.Labels, d.Text)
	}
	mm, s, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return mm, s
}

func evaluateMulti(mm *Model, docs []corpus.MultiDocument) metrics.MultiEvaluation {
	ev := metrics.NewMultiEvaluator(mm.Labels)
	b := mm.NewBatch(func(p Prediction) { ev.Add(p.Truth, p.Labels, p.Proba) })
	for _, d := range docs {
		b.Add(d.Source, d.Labels, d.Text)
	}
	b.Close()
	return ev.Result()
}

func TestMultiTrainerLearnsLabelSets(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	for _, score := range []Score{ComplementScore, OddsScore} {
		mm, s := trainMulti(t, pipeline.Config{}, Config{Score: score}, docs)
		if s.Documents != 37 || s.Labels != 4 || s.Assignments != 48 || s.Unlabeled != 1 || s.Features != mm.NumFeatures() {
			t.Errorf("%v: summary %+v", score, s)
		}
		want := PlainAlphas
		if s.Reweight > 0 {
			want = Alphas
		}
		if !slices.Contains(want, s.Alpha) || mm.Config.Alpha != s.Alpha {
			t.Errorf("%v: alpha %g (model %g), want one of %v", score, s.Alpha, mm.Config.Alpha, want)
		}
		passes := map[int]int{0: -1, DefaultReweight: DefaultReweight}
		if r, ok := passes[s.Reweight]; !ok || mm.Multi.Reweight != r || score == OddsScore && r != -1 {
			t.Errorf("%v: %d reweighting passes made, %d recorded", score, s.Reweight, mm.Multi.Reweight)
		}
		for l, th := range mm.Thresholds {
			if !(th > 0 && th < 1) {
				t.Errorf("%v: label %s threshold %g", score, mm.Labels[l], th)
			}
		}
		r := evaluateMulti(mm, docs)
		// Training documents: the model must fit them well, the pairs too.
		if r.MicroF1 < 0.85 || r.N != 37 {
			t.Errorf("%v: micro-F1 on the training documents %.3f (n %d)", score, r.MicroF1, r.N)
		}
		p := mm.NewPredictor()
		for _, d := range docs {
			proba := p.Proba(nil, d.Text)
			if got := p.Decide(nil, proba); len(got) == 0 {
				t.Errorf("%v: %q got no label", score, d.Text)
			}
		}
	}
}

func TestDecide(t *testing.T) {
	th := []float64{math.Log(0.5), math.Log(0.2), math.Log(0.1)}
	pred := make([]bool, 3)
	for _, c := range []struct {
		p     []float64
		empty bool
		want  []bool
	}{
		{[]float64{0.6, 0.3, 0.1}, false, []bool{true, true, true}},
		{[]float64{0.45, 0.15, 0.05}, true, []bool{false, false, false}},
		// None reaches its threshold: the most probable is taken, not the
		// nearest to its threshold (0.18/0.2).
		{[]float64{0.45, 0.15, 0.05}, false, []bool{true, false, false}},
		{[]float64{0.3, 0.18, 0.05}, false, []bool{true, false, false}},
	} {
		logp := make([]float64, 3)
		for l, p := range c.p {
			logp[l] = math.Log(p)
		}
		decide(pred, logp, th, c.empty)
		if !slices.Equal(pred, c.want) {
			t.Errorf("%v (empty %v): %v, want %v", c.p, c.empty, pred, c.want)
		}
	}
}

// The fitted weights equal the binary models' formulas computed directly.
func TestOvRFitWeights(t *testing.T) {
	X := vectorize.FromDense([][]float64{{2, 0, 1}, {0, 3, 1}, {1, 1, 0}, {0, 0, 2}})
	sets := [][]int32{{0}, {1}, {0, 1}, {}}
	const alpha = 0.5
	for _, score := range []Score{ComplementScore, OddsScore} {
		f := newOvRFit(X, sets, 2, Config{Score: score})
		lin, err := f.fit(f.all, alpha)
		if err != nil {
			t.Fatal(err)
		}
		W := lin.Dense()
		for l := range 2 {
			var pos, rest [3]float64
			var in float64
			for i, set := range sets {
				idx, val := X.Row(i)
				for k, j := range idx {
					if slices.Contains(set, int32(l)) {
						pos[j] += val[k]
					} else {
						rest[j] += val[k]
					}
				}
				in += float64(tally.BoolInt(slices.Contains(set, int32(l))))
			}
			P, R := pos[0]+pos[1]+pos[2], rest[0]+rest[1]+rest[2]
			for j := range 3 {
				want := math.Log(R+3*alpha) - math.Log(rest[j]+alpha)
				if score == OddsScore {
					want += math.Log(pos[j]+alpha) - math.Log(P+3*alpha)
				}
				if got := W.W[j*2+l]; math.Abs(got-want) > 1e-12 {
					t.Errorf("%v: weight of label %d, feature %d = %g, want %g", score, l, j, got, want)
				}
			}
			wantBias := 0.0
			if score == OddsScore {
				wantBias = math.Log(in+0.5) - math.Log(4-in+0.5)
			}
			if math.Abs(W.Bias[l]-wantBias) > 1e-12 {
				t.Errorf("%v: bias of label %d = %g, want %g", score, l, W.Bias[l], wantBias)
			}
		}
	}
}

func TestBestCut(t *testing.T) {
	v, pos := []float64{0.1, 0.9, 0.5, 0.7, 0.3}, []float64{0.9, 0.5, 0.3}
	// Keeping the top 1: F1 2/4; top 2: 2/5; top 3: 4/6; top 4: 6/7; all: 6/8.
	cut, f1 := bestCut(v, pos)
	if cut != 0.2 || math.Abs(f1-6.0/7) > 1e-15 {
		t.Errorf("cut %g with F1 %g, want 0.2 and 6/7", cut, f1)
	}
	v, pos = []float64{0.9, 0.5, 0.5, 0.1}, []float64{0.9, 0.5}
	// Tied scores are kept or dropped together: top 1 gives 2/3, top 3 gives 4/5.
	if cut, f1 = bestCut(v, pos); cut != 0.3 || math.Abs(f1-0.8) > 1e-15 {
		t.Errorf("ties: cut %g with F1 %g, want 0.3 and 0.8", cut, f1)
	}
}

// scored is a score and whether its entry is positive, for bestCutRef.
type scored struct {
	s   float64
	pos bool
}

// bestCutRef is the reference for bestCut: the entries in one list,
// sorted by score, counting positives as it walks down.
func bestCutRef(v []scored, positives int) (float64, float64) {
	slices.SortFunc(v, func(a, b scored) int { return cmp.Compare(b.s, a.s) })
	if len(v) == 0 || positives == 0 {
		return math.Inf(1), 0
	}
	bestF1, cut, tp := -1.0, v[0].s+1, 0
	for k, e := range v {
		tp += tally.BoolInt(e.pos)
		if k+1 < len(v) && v[k+1].s == e.s {
			continue
		}
		if f1 := 2 * float64(tp) / float64(k+1+positives); f1 > bestF1 {
			bestF1 = f1
			if k+1 < len(v) {
				cut = (e.s + v[k+1].s) / 2
			} else {
				cut = e.s - 1
			}
		}
	}
	if math.IsInf(cut, -1) || math.IsNaN(cut) {
		cut = -math.MaxFloat64
	}
	return cut, bestF1
}

// TestBestCutIsRef checks bestCut against bestCutRef bit for bit on random
// scores with many ties, and on none.
func TestBestCutIsRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n := rng.IntN(60)
		var ref []scored
		var v, pos []float64
		for range n {
			s := math.Log(float64(1+rng.IntN(1+trial%20)) / 21) // ties
			p := rng.IntN(3) == 0
			ref, v = append(ref, scored{s, p}), append(v, s)
			if p {
				pos = append(pos, s)
			}
		}
		wc, wf := bestCutRef(ref, len(pos))
		if c, f := bestCut(v, pos); c != wc || f != wf {
			t.Fatalf("trial %d: cut %g F1 %g, reference %g %g", trial, c, f, wc, wf)
		}
	}
}

func TestMultiModelFile(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	mm, _ := trainMulti(t, pipeline.Config{}, Config{}, docs)
	data := testkit.Encode(t, mm)
	if k, _, err := modelfile.Open(data); err != nil || k != modelfile.MultiLabelModel {
		t.Fatalf("kind %v, %v", k, err)
	}
	back, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Labels, mm.Labels) || !slices.Equal(back.Thresholds, mm.Thresholds) || back.Multi != mm.Multi || back.Config.Alpha != mm.Config.Alpha {
		t.Errorf("decoded %v %v %+v, trained %v %v %+v", back.Labels, back.Thresholds, back.Multi, mm.Labels, mm.Thresholds, mm.Multi)
	}
	p, q := mm.NewPredictor(), back.NewPredictor()
	for _, d := range docs {
		a, b := p.Proba(nil, d.Text), q.Proba(nil, d.Text)
		if !slices.Equal(a, b) || !slices.Equal(p.Decide(nil, a), q.Decide(nil, b)) {
			t.Errorf("%q: %v after decoding, %v before", d.Text, b, a)
		}
	}
	if !bytes.Equal(testkit.Encode(t, back), data) {
		t.Error("re-encoding a decoded model changes its bytes")
	}
	// A text-model reader refuses it: the kind says what it is.
	if _, err := core.Decode(data); !errors.Is(err, pipeline.ErrKind) {
		t.Errorf("pipeline's decode: %v, want ErrKind", err)
	}
	path := filepath.Join(t.TempDir(), "m.model")
	if err := modelfile.Save(path, mm); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Error(err)
	}
	if _, err := Load("../../testdata/models/news-v1.model"); !errors.Is(err, pipeline.ErrKind) {
		t.Errorf("Load of a text model: %v, want ErrKind", err)
	}
	// A header that training does not write is a damaged file.
	for name, edit := range map[string]func(h map[string]any){
		"fewer thresholds":   func(h map[string]any) { h["thresholds"] = h["thresholds"].([]any)[1:] },
		"more thresholds":    func(h map[string]any) { h["thresholds"] = append(h["thresholds"].([]any), json.Number("0.5")) },
		"no thresholds":      func(h map[string]any) { delete(h, "thresholds") },
		"negative threshold": func(h map[string]any) { h["thresholds"].([]any)[0] = json.Number("-0.1") },
		"threshold above 1":  func(h map[string]any) { h["thresholds"].([]any)[0] = json.Number("1.5") },
		"infinite threshold": func(h map[string]any) { h["thresholds"].([]any)[0] = json.Number("1e999") },
		"string threshold":   func(h map[string]any) { h["thresholds"].([]any)[0] = "NaN" },
		"unknown score":      func(h map[string]any) { h["multi"].(map[string]any)["score"] = json.Number("2") },
		"negative score":     func(h map[string]any) { h["multi"].(map[string]any)["score"] = json.Number("-1") },
		"one fold":           func(h map[string]any) { h["multi"].(map[string]any)["folds"] = json.Number("1") },
		"negative positives": func(h map[string]any) { h["multi"].(map[string]any)["min_positives"] = json.Number("-3") },
		"multi a string":     func(h map[string]any) { h["multi"] = "odds" },
		"title 0":            func(h map[string]any) { h["multi"].(map[string]any)["title"] = json.Number("0") },
		"title above max":    func(h map[string]any) { h["multi"].(map[string]any)["title"] = json.Number("17") },
		"score by name":      func(h map[string]any) { h["multi"].(map[string]any)["score"] = "cubic" },
		"bnb":                func(h map[string]any) { h["config"].(map[string]any)["classifier"] = "bnb" },
		"semi-supervised": func(h map[string]any) {
			h["config"].(map[string]any)["semi"].(map[string]any)["method"] = "nsnb"
		},
	} {
		_, err := decode(hostile.EditHeader(t, data, edit))
		if !errors.Is(err, pipeline.ErrDamaged) || !errors.Is(err, pipeline.ErrFormat) {
			t.Errorf("%s: %v, want ErrDamaged", name, err)
		}
	}
	// What would not load is not written.
	for _, th := range []float64{-0.1, 1.5, math.NaN(), math.Inf(1)} {
		bad := *mm
		bad.Thresholds = slices.Clone(mm.Thresholds)
		bad.Thresholds[0] = th
		if _, err := bad.WriteTo(io.Discard); !errors.Is(err, pipeline.ErrConfig) {
			t.Errorf("WriteTo with threshold %g: %v, want ErrConfig", th, err)
		}
	}
	bad := *mm
	bad.Thresholds = mm.Thresholds[1:]
	if _, err := bad.WriteTo(io.Discard); !errors.Is(err, pipeline.ErrConfig) {
		t.Errorf("WriteTo with %d thresholds for %d labels: %v, want ErrConfig", len(bad.Thresholds), len(mm.Labels), err)
	}
}

func TestMultiTrainerRejects(t *testing.T) {
	for _, c := range []struct {
		cfg pipeline.Config
		mc  Config
	}{
		{pipeline.Config{Vectorizer: pipeline.Hash}, Config{}},
		{pipeline.Config{Classifier: pipeline.Bernoulli}, Config{}},
		{pipeline.Config{}, Config{Folds: 1}},
		{pipeline.Config{}, Config{Score: 9}},
		{pipeline.Config{}, Config{Title: -1}},
		{pipeline.Config{}, Config{Title: maxTitle + 1}},
		{pipeline.Config{}, Config{Reweight: maxReweight + 1}},
		{pipeline.Config{Select: pipeline.Selection{Method: pipeline.Chi2}}, Config{}},
	} {
		if _, err := NewTrainer(c.cfg, c.mc); !errors.Is(err, pipeline.ErrConfig) {
			t.Errorf("%+v %+v: %v, want ErrConfig", c.cfg, c.mc, err)
		}
	}
	tr, _ := NewTrainer(pipeline.Config{}, Config{})
	tr.Add([]string{"a"}, "one")
	tr.Add([]string{"a"}, "two")
	if _, _, err := tr.Finish(); !errors.Is(err, pipeline.ErrOneClass) {
		t.Errorf("one label: %v", err)
	}
	if _, _, err := tr.Finish(); !errors.Is(err, pipeline.ErrFinished) {
		t.Errorf("second Finish: %v", err)
	}
	tr, _ = NewTrainer(pipeline.Config{}, Config{})
	if _, _, err := tr.Finish(); !errors.Is(err, pipeline.ErrNoDocuments) {
		t.Errorf("no documents: %v", err)
	}
}

func TestMultiTrainingIsDeterministic(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	a, _ := trainMulti(t, pipeline.Config{}, Config{}, docs)
	b, _ := trainMulti(t, pipeline.Config{}, Config{}, docs)
	if !bytes.Equal(testkit.Encode(t, a), testkit.Encode(t, b)) {
		t.Error("two trainings differ")
	}
}

// Issue 22: every Add that takes labels refuses an empty one, as the CLI
// does.
func TestAddRefusesEmptyLabel(t *testing.T) {
	mt, err := NewTrainer(pipeline.Config{}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := mt.Add([]string{"sport", ""}, "one label empty"); !errors.Is(err, pipeline.ErrEmptyLabel) {
		t.Errorf("Trainer.Add: %v, want pipeline.ErrEmptyLabel", err)
	}
	if err := mt.Add(nil, "no labels: a negative example"); err != nil {
		t.Errorf("Trainer.Add without labels: %v", err)
	}
	_, _, _ = mt.Finish() // stops its goroutines
}

func TestWithTitle(t *testing.T) {
	for _, c := range []struct {
		text  string
		times int
		want  string
	}{
		{"GRAIN SHIPMENTS\nWheat was loaded.", 2, "GRAIN SHIPMENTS\nGRAIN SHIPMENTS\nWheat was loaded."},
		{"GRAIN SHIPMENTS\nWheat was loaded.", 3, "GRAIN SHIPMENTS\nGRAIN SHIPMENTS\nGRAIN SHIPMENTS\nWheat was loaded."},
		{"GRAIN SHIPMENTS\nWheat was loaded.", 1, "GRAIN SHIPMENTS\nWheat was loaded."},
		{"Title\r\nbody", 2, "Title\r\nTitle\r\nbody"},
		{"one line only", 2, "one line only"}, // no title: the text is its own
		{"a title and nothing\n \n", 2, "a title and nothing\n \n"},
		{"\nbody after a blank line", 2, "\nbody after a blank line"},
		{"", 2, ""},
	} {
		if got := withTitle(c.text, c.times); got != c.want {
			t.Errorf("withTitle(%q, %d) = %q, want %q", c.text, c.times, got, c.want)
		}
	}
}

// A title counted twice is a model of the texts with their first line
// written twice, in training and in prediction; the model file says so,
// and a file without the setting (written before it) counts titles once.
func TestTitleCounts(t *testing.T) {
	docs := readMultiDocs(t, multiJSONL)
	for i := range docs {
		words := strings.Fields(docs[i].Text)
		docs[i].Text = strings.Join(words[:3], " ") + "\n" + strings.Join(words[3:], " ")
	}
	doubled := slices.Clone(docs)
	for i, d := range docs {
		doubled[i].Text = withTitle(d.Text, 2)
	}
	mm, _ := trainMulti(t, pipeline.Config{}, Config{}, docs)
	once, _ := trainMulti(t, pipeline.Config{}, Config{Title: 1}, doubled)
	if mm.Multi.Title != 2 || once.Multi.Title != 1 {
		t.Fatalf("titles %d and %d, want 2 (the default) and 1", mm.Multi.Title, once.Multi.Title)
	}
	if !slices.Equal(mm.Thresholds, once.Thresholds) {
		t.Errorf("thresholds %v, of the doubled texts %v", mm.Thresholds, once.Thresholds)
	}
	p, q := mm.NewPredictor(), once.NewPredictor()
	for i, d := range docs {
		if a, b := p.Proba(nil, d.Text), q.Proba(nil, doubled[i].Text); !slices.Equal(a, b) {
			t.Errorf("%q: %v, of the doubled text %v", d.Text, a, b)
		}
	}
	old, err := decode(hostile.EditHeader(t, testkit.Encode(t, mm), func(h map[string]any) { delete(h["multi"].(map[string]any), "title") }))
	if err != nil {
		t.Fatal(err)
	}
	if old.Multi.Title != 1 {
		t.Errorf("a file without a title setting counts titles %d times, want 1", old.Multi.Title)
	}
}
