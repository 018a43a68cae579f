package pipeline

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// Labels drawn from softmax(s/T) for a known T: the fit recovers T, and it
// minimizes the log loss.
func TestFitCalibrationRecoversTemperature(t *testing.T) {
	const n, k = 20000, 5
	rng := rand.New(rand.NewPCG(1, 2))
	for _, want := range []float64{0.02, 1, 7} {
		h := &HeldOut{Classes: []string{"a", "b", "c", "d", "e"}, Labels: make([]int, n), Scores: make([]float64, n*k), Folds: 5}
		p := make([]float64, k)
		for i := range n {
			s := h.Scores[i*k : (i+1)*k]
			for c := range s {
				s[c] = want * 3 * rng.NormFloat64() // scores on the scale of T, as CNB's are small
				p[c] = s[c] / want
			}
			nb.Proba(p[:0], p)
			u, c := rng.Float64(), 0
			for ; c < k-1 && u > p[c]; c++ {
				u -= p[c]
			}
			h.Labels[i] = c
		}
		h.Scores[3*k+h.Labels[3]] = math.Inf(-1) // a class its fold did not train on: left out
		cal, err := FitCalibration(&CVResult{HeldOut: h})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(cal.Temperature/want-1) > 0.03 || cal.Documents != n-1 || cal.Folds != 5 {
			t.Errorf("T %g (want %g), %d documents, %d folds", cal.Temperature, want, cal.Documents, cal.Folds)
		}
		rows, y := centered(h)
		f := tempFit{k: k, rows: rows, y: y}
		beta := 1 / cal.Temperature
		after, _ := f.calibrated(cal)
		if l := f.loss(beta); l > f.loss(beta*1.01) || l > f.loss(beta/1.01) || after != cal.LogLossAfter || cal.LogLossBefore != f.loss(1) {
			t.Errorf("T %g: log loss %g is not the least (%g, %g at ±1%%), or not %g", cal.Temperature, l, f.loss(beta*1.01), f.loss(beta/1.01), cal.LogLossAfter)
		}
		if sum := floatsSum(cal.Priors); math.Abs(sum-1) > 1e-9 {
			t.Errorf("priors %v sum to %g", cal.Priors, sum)
		}
	}
	if _, err := FitCalibration(&CVResult{}); err != ErrNoScores {
		t.Errorf("no scores: %v, want ErrNoScores", err)
	}
}

// topLabelReference maps p's top probability by t, as written in
// TopLabel's comment: linear between knots, the end knot's outside them,
// the others scaled to sum to 1, the top class kept on top.
func topLabelReference(t *TopLabel, p []float64) []float64 {
	best := nb.Argmax(p)
	x := p[best]
	var q float64
	switch n := len(t.Confidence); {
	case x <= t.Confidence[0]:
		q = t.Accuracy[0]
	case x >= t.Confidence[n-1]:
		q = t.Accuracy[n-1]
	default:
		for i := 1; i < n; i++ {
			if x <= t.Confidence[i] {
				w := (x - t.Confidence[i-1]) / (t.Confidence[i] - t.Confidence[i-1])
				q = t.Accuracy[i-1] + w*(t.Accuracy[i]-t.Accuracy[i-1])
				break
			}
		}
	}
	out := slices.Clone(p)
	for c := range out {
		if lb := out[c]/(1-x+out[c]) + 0x1p-40; c != best && x < 1 && q < lb {
			q = lb // just above where c would overtake best
		}
	}
	q = min(max(q, 1/float64(len(p))), 1)
	for c := range out {
		if c == best {
			out[c] = q
		} else if x < 1 {
			out[c] *= (1 - q) / (1 - x)
		} else {
			out[c] = (1 - q) / float64(len(p)-1)
		}
	}
	return out
}

func floatsNear(a, b []float64, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}

// Overconfident scores (the labels drawn at a temperature 3 times the
// scores' own): the top-label map, fitted on one sample, halves the
// expected calibration error of a fresh sample, keeps every top class,
// and sums to 1; a sample that is calibrated already maps near identity.
func TestTopLabelMap(t *testing.T) {
	const n, k = 20000, 6
	sample := func(seed uint64, spread float64) *HeldOut {
		rng := rand.New(rand.NewPCG(seed, 7))
		h := &HeldOut{Classes: []string{"a", "b", "c", "d", "e", "f"}, Labels: make([]int, n), Scores: make([]float64, n*k), Folds: 5}
		p := make([]float64, k)
		for i := range n {
			s := h.Scores[i*k : (i+1)*k]
			for c := range s {
				s[c] = 2 * rng.NormFloat64()
				p[c] = s[c] / spread
			}
			nb.Proba(p[:0], p)
			u, c := rng.Float64(), 0
			for ; c < k-1 && u > p[c]; c++ {
				u -= p[c]
			}
			h.Labels[i] = c
		}
		return h
	}
	ece := func(c *Calibration, h *HeldOut) (e float64) {
		var conf, right [10]float64
		var cnt [10]int
		for i, y := range h.Labels {
			z := slices.Clone(h.Scores[i*k : (i+1)*k])
			best := nb.Argmax(z)
			p, _ := c.proba(nil, z)
			if nb.Argmax(p) != best || math.Abs(floatsSum(p)-1) > 1e-12 {
				t.Fatalf("calibrated %v: top class %d, want %d, or not summing to 1", p, nb.Argmax(p), best)
			}
			b := min(int(p[best]*10), 9)
			cnt[b]++
			conf[b] += p[best]
			if best == y {
				right[b]++
			}
		}
		for b := range cnt {
			e += math.Abs(right[b]-conf[b]) / n
		}
		return e
	}
	for _, spread := range []float64{1, 3} {
		cal, err := FitCalibration(&CVResult{HeldOut: sample(1, spread)})
		if err != nil {
			t.Fatal(err)
		}
		if cal.TopLabel == nil || cal.check(k) != nil {
			t.Fatalf("spread %g: calibration %+v (%v)", spread, cal, cal.check(k))
		}
		temp := *cal
		temp.TopLabel = nil
		fresh := sample(2, spread)
		if with, without := ece(cal, fresh), ece(&temp, fresh); with > 0.02 || spread == 1 && with > without+0.01 {
			t.Errorf("spread %g: ECE %.4f with the map, %.4f without", spread, with, without)
		}
		for _, x := range []float64{0.3, 0.5, 0.8} {
			if got := cal.TopLabel.at(x); spread == 1 && math.Abs(got-x) > 0.06 {
				t.Errorf("calibrated scores: map(%g) = %g, want about %g", x, got, x)
			}
		}
	}
}

// centered returns h's rows less each row's maximum, as FitCalibration
// fits them, without the documents it leaves out.
func centered(h *HeldOut) ([]float64, []int) {
	k := len(h.Classes)
	var rows []float64
	var y []int
	for i, c := range h.Labels {
		s := h.Scores[i*k : (i+1)*k]
		if math.IsInf(s[c], -1) {
			continue
		}
		for _, v := range s {
			rows = append(rows, v-slices.Max(s))
		}
		y = append(y, c)
	}
	return rows, y
}

func floatsSum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// calibrated returns the model of cfg's fixed settings (Fast) on
// testdata/news, uncalibrated, and the same calibrated by 5-fold
// cross-validation.
func calibrated(t *testing.T, cfg Config) (plain, cal *Model) {
	t.Helper()
	cfg.Fast = true
	docs := readDocs(t, newsTrain)
	plain, _, err := trainerOf(t, cfg, docs).Finish()
	if err != nil {
		t.Fatal(err)
	}
	cal, _, err = trainerOf(t, cfg, docs).Finish()
	if err != nil {
		t.Fatal(err)
	}
	r := crossValidate(t, cfg, docs, CVOptions{Folds: 5, KeepScores: true})
	if err := cal.Calibrate(r); err != nil {
		t.Fatal(err)
	}
	return plain, cal
}

// Calibration changes the probabilities, not the predictions or the
// explanations; a saved model's probabilities are the trained one's; an
// uncalibrated model's file has no calibration.
func TestCalibratedModel(t *testing.T) {
	for _, cfg := range []Config{{}, {Classifier: Multinomial, Weighting: RawCounts}, {Vectorizer: Hash, HashFeatures: 1 << 12}, {Weighting: RawCounts}} {
		plain, cal := calibrated(t, cfg)
		if cfg.Weighting == RawCounts && cfg.Classifier == Auto {
			// 240 held-out documents fit no map (minTopLabelDocuments): set one.
			c := cal.Calibration()
			c.TopLabel = &TopLabel{Confidence: []float64{0.3, 0.6, 0.9, 0.99}, Accuracy: []float64{0.2, 0.7, 0.8, 0.97}}
			if err := cal.setCalibration(c, cal.Classes); err != nil {
				t.Fatal(err)
			}
		}
		c := cal.Calibration()
		if c == nil || !(c.Temperature > 0) || c.Temperature == 1 || c.Folds != 5 || c.Documents != 240 || !(c.LogLossAfter <= c.LogLossBefore) || !cal.Config.Calibrate {
			t.Fatalf("%+v: calibration %+v, Config.Calibrate %v", cfg, c, cal.Config.Calibrate)
		}
		if plain.Calibration() != nil || plain.Config.Calibrate {
			t.Fatal("an uncalibrated model has a calibration")
		}
		file := testkit.Encode(t, cal)
		loaded, err := decode(file)
		if err != nil {
			t.Fatal(err)
		}
		if got := loaded.Calibration(); !slices.Equal(got.Priors, c.Priors) || got.Temperature != c.Temperature || got.LogLossAfter != c.LogLossAfter ||
			!reflect.DeepEqual(got.TopLabel, c.TopLabel) ||
			!slices.Equal(loaded.PosteriorPriors(), c.Priors) {
			t.Fatalf("loaded calibration %+v, want %+v", got, c)
		}
		if bytes.Contains(testkit.Encode(t, plain), []byte("calibrat")) {
			t.Fatal("an uncalibrated model's file mentions calibration")
		}
		if plainLoaded, err := decode(testkit.Encode(t, plain)); err != nil || plainLoaded.Calibration() != nil {
			t.Fatalf("uncalibrated file loads with calibration %+v (%v)", plainLoaded.Calibration(), err)
		}
		_, texts := readCorpus(t, newsTest)
		texts = append(texts, "", "zzzz unknown qqqq")
		pp, pc, pl := plain.NewPredictor(), cal.NewPredictor(), loaded.NewPredictor()
		changed := 0
		for _, text := range texts {
			raw, best := pp.Proba(nil, text)
			p, b := pc.Proba(nil, text)
			q, bl := pl.Proba(nil, text)
			if b != best || bl != best || !slices.Equal(p, q) {
				t.Fatalf("%q: classes %d, %d, %d; calibrated %v, loaded %v", text, best, b, bl, p, q)
			}
			jll := pp.JointLogLikelihood(nil, text)
			for i := range jll {
				jll[i] /= c.Temperature
			}
			want := nb.Proba(nil, jll)
			if c.TopLabel != nil {
				want = topLabelReference(c.TopLabel, want)
			}
			if !floatsNear(p, want, 1e-12) {
				t.Fatalf("%q: calibrated %v, want softmax(jll/T) mapped %v", text, p, want)
			}
			if !slices.Equal(pc.JointLogLikelihood(nil, text), pp.JointLogLikelihood(nil, text)) {
				t.Fatalf("%q: calibration changed the scores", text)
			}
			if !slices.Equal(p, raw) {
				changed++
			}
		}
		if changed < len(texts)-2 { // the empty and unknown texts score alike in every class
			t.Errorf("%+v: calibration changed %d of %d documents' probabilities", cfg, changed, len(texts))
		}
		checkExplanations(t, "calibrated", cal, texts)
		checkExplanations(t, "loaded calibrated", loaded, texts)
	}
}

// The priors that a calibrated model's probabilities assume are their mean
// over the held-out documents; correcting a test set with one class made
// rare moves its estimated prior towards the truth.
func TestCalibratedPriors(t *testing.T) {
	_, cal := calibrated(t, Config{})
	c := cal.Calibration()
	if p := cal.PosteriorPriors(); !slices.Equal(p, c.Priors) || math.Abs(floatsSum(p)-1) > 1e-9 {
		t.Fatalf("PosteriorPriors %v, calibration's %v", p, c.Priors)
	}
	for _, p := range c.Priors { // four classes of 60 documents each
		if math.Abs(p-0.25) > 0.05 {
			t.Errorf("priors %v, want about 0.25 each", c.Priors)
		}
	}
	labels, texts := readCorpus(t, newsTest)
	rare := cal.Classes[0]
	var proba []float64
	kept, rareKept := 0, 0
	pr := cal.NewPredictor()
	for i, text := range texts {
		if labels[i] == rare {
			if rareKept >= 2 {
				continue
			}
			rareKept++
		}
		kept++
		proba, _ = pr.Proba(proba, text)
	}
	want := float64(rareKept) / float64(kept)
	q, _, err := nb.PriorEM{}.Estimate(proba, cal.PosteriorPriors())
	if err != nil {
		t.Fatal(err)
	}
	if mean := meanOf(proba, len(cal.Classes), 0); math.Abs(q[0]-want) > 0.05 || math.Abs(q[0]-want) > math.Abs(mean-want)/2 {
		t.Errorf("estimated prior of %q %.3f, want about %.3f (assumed %.3f, mean probability %.3f)", rare, q[0], want, c.Priors[0], mean)
	}
}

// A calibration no fit gives is refused as damage; so is the calibrate
// setting without a calibration.
func TestHostileCalibration(t *testing.T) {
	_, cal := calibrated(t, Config{})
	file := testkit.Encode(t, cal)
	calib := func(h map[string]any) map[string]any { return h["calibration"].(map[string]any) }
	for _, tc := range []struct {
		name   string
		edit   func(h map[string]any)
		detail string
	}{
		{"zero temperature", func(h map[string]any) { calib(h)["temperature"] = 0 }, "temperature"},
		{"negative temperature", func(h map[string]any) { calib(h)["temperature"] = -0.2 }, "temperature"},
		{"no temperature", func(h map[string]any) { delete(calib(h), "temperature") }, "temperature"},
		{"unknown method", func(h map[string]any) { calib(h)["method"] = "isotonic" }, "method"},
		{"priors short", func(h map[string]any) { calib(h)["priors"] = []any{0.5, 0.5} }, "priors"},
		{"priors off 1", func(h map[string]any) { calib(h)["priors"] = []any{0.5, 0.5, 0.5, 0.5} }, "sum"},
		{"negative log loss", func(h map[string]any) { calib(h)["cv_log_loss_after"] = -1 }, "log loss"},
		{"no calibration", func(h map[string]any) { delete(h, "calibration") }, "calibrate"},
		{"calibrate off", func(h map[string]any) { delete(config(h), "calibrate") }, "calibrate"},
		{"map without its method", func(h map[string]any) {
			calib(h)["top_label"] = map[string]any{"confidence": []any{0.5, 0.9}, "accuracy": []any{0.4, 0.8}}
		}, "method"},
		{"method without its map", func(h map[string]any) { calib(h)["method"] = "temperature+top-label" }, "method"},
		{"map decreasing", func(h map[string]any) {
			calib(h)["method"] = "temperature+top-label"
			calib(h)["top_label"] = map[string]any{"confidence": []any{0.5, 0.9}, "accuracy": []any{0.8, 0.4}}
		}, "increasing"},
		{"map past 1", func(h map[string]any) {
			calib(h)["method"] = "temperature+top-label"
			calib(h)["top_label"] = map[string]any{"confidence": []any{0.5, 1.5}, "accuracy": []any{0.4, 0.8}}
		}, "increasing"},
		{"map of unequal lengths", func(h map[string]any) {
			calib(h)["method"] = "temperature+top-label"
			calib(h)["top_label"] = map[string]any{"confidence": []any{0.5, 0.9}, "accuracy": []any{0.4}}
		}, "top-label"},
	} {
		hostile.WantDamaged(t, tc.name, loadOnly, hostile.EditHeader(t, file, tc.edit), tc.detail)
	}
}

// Tune keeps the held-out scores of the setting it chooses, and lets go of
// the others'.
func TestTuneKeepsChosenScores(t *testing.T) {
	docs := readDocs(t, newsTrain)
	src := func(yield func(label, text string) bool) error {
		for _, d := range docs {
			if !yield(d.Label, d.Text) {
				break
			}
		}
		return nil
	}
	r, err := Tune(Config{}, Grid{Alpha: []float64{0.1, 1}, Classifier: []Classifier{Complement, Multinomial}}, CVOptions{Folds: 3, KeepScores: true}, src)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range r.Results {
		if keep := i == r.Best || i == r.Top || i == r.Base; (x.HeldOut != nil) != keep {
			t.Errorf("setting %d (best %d, top %d, base %d): scores kept %v", i, r.Best, r.Top, r.Base, x.HeldOut != nil)
		}
	}
	best := r.Results[r.Best]
	if h := best.HeldOut; len(h.Labels) != len(docs) || len(h.Scores) != len(docs)*len(h.Classes) || h.Folds != 3 {
		t.Fatalf("held out: %d labels, %d scores, %d folds", len(h.Labels), len(h.Scores), h.Folds)
	}
	// The scores kept are those of the predictions.
	k := len(best.HeldOut.Classes)
	for i, pred := range best.Predicted {
		s := best.HeldOut.Scores[i*k : (i+1)*k]
		if best.HeldOut.Classes[nb.Argmax(s)] != pred {
			t.Fatalf("document %d: scores %v, predicted %q", i, s, pred)
		}
	}
}

// meanOf returns the mean of column c of rows of k values.
func meanOf(rows []float64, k, c int) float64 {
	s := 0.0
	for i := c; i < len(rows); i += k {
		s += rows[i]
	}
	return s / float64(len(rows)/k)
}

// Merging calibrated models, or a calibrated and an uncalibrated one,
// gives an uncalibrated model whose file loads.
func TestMergeDropsCalibration(t *testing.T) {
	cfg := Config{Weighting: RawCounts, Vocab: vectorize.VocabConfig{MinDF: 1}}
	plain, cal := calibrated(t, cfg)
	m, err := Merge(cal, plain)
	if err != nil {
		t.Fatal(err)
	}
	if m.Calibration() != nil || m.Config.Calibrate {
		t.Fatalf("merged calibration %+v, Calibrate %v", m.Calibration(), m.Config.Calibrate)
	}
	if _, err := decode(testkit.Encode(t, m)); err != nil {
		t.Fatal(err)
	}
}

// A Trainer asked to calibrate settings it does not choose gives an
// uncalibrated model until Calibrate, and its file loads. (The settings
// it chooses are calibrated on the choice's folds: TestChoiceEqualsExplicit.)
func TestTrainerLeavesCalibrationToCalibrate(t *testing.T) {
	m, _, err := trainerOf(t, Config{Calibrate: true, Fast: true}, readDocs(t, newsTrain)).Finish()
	if err != nil {
		t.Fatal(err)
	}
	if m.Config.Calibrate || m.Calibration() != nil {
		t.Fatalf("Finish: Calibrate %v, calibration %+v", m.Config.Calibrate, m.Calibration())
	}
	m.Config.Calibrate = true // as a caller may set it
	if loaded, err := decode(testkit.Encode(t, m)); err != nil || loaded.Config.Calibrate {
		t.Fatalf("loaded: %v, Calibrate %v", err, loaded != nil && loaded.Config.Calibrate)
	}
}

// Files of earlier builds load uncalibrated, their probabilities the
// scores' softmax, and their priors as before.
func TestEarlierFilesUncalibrated(t *testing.T) {
	for _, name := range []string{"news-v1", "news-v2"} {
		m, err := Load(filepath.Join("../../testdata/models", name+".model"))
		if err != nil {
			t.Fatal(err)
		}
		if m.Calibration() != nil || m.Config.Calibrate {
			t.Fatalf("%s: calibration %+v", name, m.Calibration())
		}
		if p := m.PosteriorPriors(); m.Config.Classifier == Complement && p[0] != 1/float64(len(p)) {
			t.Errorf("%s: priors %v", name, p)
		}
		pr := m.NewPredictor()
		for _, text := range []string{"the striker scored twice", "shares fell sharply", ""} {
			proba, best := pr.Proba(nil, text)
			jll := pr.JointLogLikelihood(nil, text)
			if want := nb.Proba(nil, jll); !slices.Equal(proba, want) || best != nb.Argmax(jll) {
				t.Errorf("%s: %q: %v, want softmax of the scores %v", name, text, proba, want)
			}
		}
	}
}
