package pipeline

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/tokenize"
)

func docsOf(docs []corpus.Document) Docs {
	return func(yield func(label, text string) bool) error {
		for _, d := range docs {
			if !yield(d.Label, d.Text) {
				break
			}
		}
		return nil
	}
}

// TestTuneMatchesCrossValidate checks that every setting of a grid scores
// what cross-validating it alone scores, and that the choice follows the
// scores.
func TestTuneMatchesCrossValidate(t *testing.T) {
	docs := readDocs(t, newsTrain)
	g := Grid{
		Alpha:      []float64{0.1, 0.3},
		NGrams:     []tokenize.NGramRange{{Min: 1, Max: 1}, {Min: 1, Max: 2}},
		CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 1}}, // English: not tried
		Weighting:  []Weighting{TFIDF, RawCounts},
		Classifier: []Classifier{Complement, Multinomial, Bernoulli},
	}
	o := CVOptions{Folds: 3, Seed: 2}
	r, err := Tune(Config{}, g, o, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if n := 2 * 2 * 3 * 2; len(r.Results) != n {
		t.Fatalf("%d results, want %d", len(r.Results), n)
	}
	if r.Base < 0 {
		t.Fatal("the default setting is in the grid but not found")
	}
	if c := r.Results[r.Base].Config; c.Alpha != DefaultAlpha || c.Weighting != TFIDF || c.Classifier != Complement ||
		c.Tokenize.WordNGrams != DefaultWordNGrams {
		t.Errorf("base setting %+v is not the default", c)
	}
	for i, x := range r.Results {
		if x.Accuracy.Mean > r.Results[r.Top].Accuracy.Mean {
			t.Errorf("setting %d scores %g, above the top's %g", i, x.Accuracy.Mean, r.Results[r.Top].Accuracy.Mean)
		}
		if i%5 != 0 {
			continue // cross-validating each alone is slow under -race
		}
		alone := crossValidate(t, x.Config, docs, o)
		if alone.Accuracy != x.Accuracy || alone.MacroF1 != x.MacroF1 || !reflect.DeepEqual(alone.Predicted, x.Predicted) {
			t.Errorf("setting %d: tuned %+v, alone %+v", i, x.Accuracy, alone.Accuracy)
		}
	}
	if r.Best != r.Top && r.Best != r.Base {
		t.Errorf("chose %d, neither the top %d nor the base %d", r.Best, r.Top, r.Base)
	}
}

func TestTuneChineseCharNGrams(t *testing.T) {
	docs := readDocs(t, "../../testdata/zh/train.tsv")
	g := Grid{CharNGrams: []tokenize.NGramRange{{}, {Min: 1, Max: 1}, {Min: 2, Max: 3}}}
	r, err := Tune(Config{}, g, CVOptions{Folds: 3}, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 3 {
		t.Fatalf("%d results, want 3", len(r.Results))
	}
	for i, want := range g.CharNGrams {
		c := r.Results[i].Config
		if c.Tokenize.Lang != tokenize.Chinese || c.Tokenize.HanChars != want {
			t.Errorf("setting %d: lang %v, char n-grams %v, want zh %v", i, c.Tokenize.Lang, c.Tokenize.HanChars, want)
		}
	}
	if r.Base != 2 { // the default for Chinese is 2,3
		t.Errorf("base setting %d, want 2", r.Base)
	}
}

// TestTuneReweightTop checks that Tune tries a reweighted setting only when
// its setting without reweighting is among the ReweightTop best of the
// tokenization, and that what it tries scores what the whole grid scores.
func TestTuneReweightTop(t *testing.T) {
	docs := readDocs(t, newsTrain)
	g := Grid{
		Alpha:       []float64{0.1, 0.3, 1},
		Classifier:  []Classifier{Complement, Multinomial},
		Reweight:    []int{-1, 2},
		ReweightTop: -1,
	}
	o := CVOptions{Folds: 3, Seed: 2}
	all, err := Tune(Config{}, g, o, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Results) != 12 || all.Untried != 0 {
		t.Fatalf("ReweightTop -1: %d results, %d untried; want 12 and 0", len(all.Results), all.Untried)
	}
	key := func(c Config) string { return settingKey(c) }
	byKey := map[string]*CVResult{}
	var plain []*CVResult
	for _, x := range all.Results {
		byKey[key(x.Config)] = x
		if x.Config.Reweight <= 0 {
			plain = append(plain, x)
		}
	}
	slices.SortStableFunc(plain, byScore)
	g.ReweightTop = DefaultReweightTop
	r, err := Tune(Config{}, g, o, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 8 || r.Untried != 4 || r.ReweightTop != DefaultReweightTop {
		t.Fatalf("ReweightTop %d: %d results, %d untried, applied %d; want 8, 4 and %d", DefaultReweightTop, len(r.Results), r.Untried, r.ReweightTop, DefaultReweightTop)
	}
	want := map[string]bool{} // the plain settings whose reweighted ones are tried
	for _, p := range plain[:DefaultReweightTop] {
		want[plainKey(p.Config)] = true
	}
	last := -1
	for _, x := range r.Results {
		k := key(x.Config)
		if x.Config.Reweight > 0 && !want[plainKey(x.Config)] {
			t.Errorf("tried %s, whose plain setting is not among the best %d", k, DefaultReweightTop)
		}
		a := byKey[k]
		if a == nil || a.Accuracy != x.Accuracy || !reflect.DeepEqual(a.Predicted, x.Predicted) {
			t.Errorf("%s: staged %+v, whole grid %+v", k, x.Accuracy, a)
		}
		i := slices.IndexFunc(all.Results, func(y *CVResult) bool { return key(y.Config) == k })
		if i < last {
			t.Errorf("%s out of grid order", k)
		}
		last = i
	}
}

// TestTuneReweightTopZero checks a zero Grid.ReweightTop: the best
// DefaultReweightTop are reweighted with two classes, none with more.
func TestTuneReweightTopZero(t *testing.T) {
	docs := readDocs(t, newsTrain)
	var two []corpus.Document
	for _, d := range docs {
		if d.Label == "finance" || d.Label == "sport" {
			two = append(two, d)
		}
	}
	g := Grid{Alpha: []float64{0.1, 0.3, 1}, Classifier: []Classifier{Complement, Multinomial}, Reweight: []int{-1, 2}}
	o := CVOptions{Folds: 3, Seed: 2}
	for _, c := range []struct {
		name                  string
		docs                  []corpus.Document
		results, untried, top int
	}{
		{"four classes", docs, 6, 6, 0},
		{"two classes", two, 6 + DefaultReweightTop, 6 - DefaultReweightTop, DefaultReweightTop},
	} {
		r, err := Tune(Config{}, g, o, docsOf(c.docs))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Results) != c.results || r.Untried != c.untried || r.ReweightTop != c.top {
			t.Errorf("%s: %d results, %d untried, ReweightTop %d; want %d, %d and %d", c.name, len(r.Results), r.Untried, r.ReweightTop, c.results, c.untried, c.top)
		}
		for _, x := range r.Results {
			if c.top == 0 && x.Config.Reweight > 0 {
				t.Errorf("%s: tried %s", c.name, settingKey(x.Config))
			}
		}
		var text strings.Builder
		if err := r.WriteText(&text, o.Seed); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), fmt.Sprintf("(%d reweighted settings not tried", c.untried)) {
			t.Errorf("%s: the table does not say what was not tried:\n%s", c.name, text.String())
		}
	}
}

// TestTuneRace checks the racing of settings against the grid scored on
// every fold (NoRace): a setting is dropped exactly when it trails the
// first fold's best by more than raceZ standard errors of their paired
// difference there, a dropped setting holds that fold's scores, the others
// score what they score unraced, and the base setting is never dropped.
func TestTuneRace(t *testing.T) {
	docs := readDocs(t, newsTrain)
	g := Grid{Alpha: []float64{0.01, 0.3, 30, 1000}, Classifier: []Classifier{Complement, Multinomial}, Weighting: []Weighting{TFIDF, RawCounts}}
	o := CVOptions{Folds: 3, Seed: 1}
	base := Config{Alpha: 1000, Classifier: Multinomial, Weighting: RawCounts} // among the worst, yet kept
	raced, err := Tune(base, g, o, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	g.NoRace = true
	full, err := Tune(base, g, o, docsOf(docs))
	if err != nil {
		t.Fatal(err)
	}
	if len(raced.Results) != len(full.Results) || raced.Base != full.Base || raced.Base < 0 {
		t.Fatalf("raced: %d results, base %d; every fold: %d, base %d", len(raced.Results), raced.Base, len(full.Results), full.Base)
	}
	if raced.Results[raced.Base].Dropped {
		t.Errorf("the base setting %s was dropped", settingKey(raced.Results[raced.Base].Config))
	}
	var first []int // the documents of the first fold
	right := func(r *CVResult, i int) bool { return r.Predicted[i] == docs[i].Label }
	// The first fold's documents are those every dropped result predicts.
	inFirst := make([]bool, len(docs))
	for i := range docs {
		inFirst[i] = true
		for _, r := range raced.Results {
			if r.Dropped && r.Predicted[i] == "" {
				inFirst[i] = false
			}
		}
	}
	for i, ok := range inFirst {
		if ok {
			first = append(first, i)
		}
	}
	bestFirst := 0 // the first fold's best, by documents right
	n := func(r *CVResult) int {
		c := 0
		for _, i := range first {
			if right(r, i) {
				c++
			}
		}
		return c
	}
	for s, r := range full.Results {
		if n(r) > n(full.Results[bestFirst]) {
			bestFirst = s
		}
	}
	dropped := 0
	for s, r := range raced.Results {
		f := full.Results[s]
		b, c := 0, 0
		for _, i := range first {
			switch {
			case right(full.Results[bestFirst], i) && !right(f, i):
				b++
			case right(f, i) && !right(full.Results[bestFirst], i):
				c++
			}
		}
		want := s != raced.Base && float64(b-c) > raceZ*math.Sqrt(float64(b+c))
		if r.Dropped != want {
			t.Errorf("%s: dropped %v, want %v (b %d, c %d)", settingKey(r.Config), r.Dropped, want, b, c)
		}
		if r.Dropped {
			dropped++
			if len(r.Folds) != 1 || !reflect.DeepEqual(r.Folds[0], f.Folds[0]) || r.Accuracy.Mean != f.Folds[0].Accuracy {
				t.Errorf("%s: dropped with folds %+v, want the first of %+v", settingKey(r.Config), r.Folds, f.Folds)
			}
		} else if r.Accuracy != f.Accuracy || !reflect.DeepEqual(r.Folds, f.Folds) || !reflect.DeepEqual(r.Predicted, f.Predicted) {
			t.Errorf("%s: raced %+v, unraced %+v", settingKey(r.Config), r.Accuracy, f.Accuracy)
		}
	}
	if dropped == 0 || dropped == len(raced.Results)-1 {
		t.Errorf("%d of %d settings dropped: the grid should drop some and keep some", dropped, len(raced.Results))
	}
	if raced.Best != full.Best {
		t.Errorf("raced chose %s, unraced %s", settingKey(raced.Results[raced.Best].Config), settingKey(full.Results[full.Best].Config))
	}
}

// plainKey names a setting but for its reweighting.
func plainKey(c Config) string {
	return fmt.Sprintf("%v %v %g", c.Weighting, c.Classifier, c.Alpha)
}

// settingKey names the settings a grid varies.
func settingKey(c Config) string {
	return fmt.Sprintf("%v %v %g %d %g", c.Weighting, c.Classifier, c.Alpha, c.Reweight, c.ReweightRate)
}

// TestTuneTokenizationsAtOnceMatchOneAtATime checks that cross-validating
// two tokenizations at once gives every result, in the same order, and
// the same choice, as one after another: the English default grid (two
// tokenizations, staged reweighting) and a Chinese one of five; and that
// the corpus is still read one call at a time.
func TestTuneTokenizationsAtOnceMatchOneAtATime(t *testing.T) {
	defer func(n int) { tuneTokenizations = n }(tuneTokenizations)
	for _, tc := range []struct {
		path string
		g    Grid
	}{
		{newsTrain, DefaultGrid()},
		{"../../testdata/zh/train.tsv", Grid{Alpha: []float64{0.1, 1}, CharNGrams: DefaultGrid().CharNGrams, Reweight: []int{-1, 2}}},
	} {
		docs := readDocs(t, tc.path)
		o := CVOptions{Folds: 3, Seed: 4, KeepScores: true}
		var inside, overlapped atomic.Int32
		oneCall := func(yield func(label, text string) bool) error { // Tune's contract: one call at a time
			if inside.Add(1) > 1 {
				overlapped.Store(1)
			}
			defer inside.Add(-1)
			return docsOf(docs)(yield)
		}
		run := func(n int) *TuneResult {
			tuneTokenizations = n
			r, err := Tune(Config{}, tc.g, o, oneCall)
			if err != nil {
				t.Fatal(err)
			}
			r.Elapsed, r.kept = 0, nil // the corpus kept for TrainBest is not a result
			for _, x := range r.Results {
				x.Elapsed = 0
			}
			return r
		}
		ref, got := run(1), run(2)
		if overlapped.Load() != 0 {
			t.Errorf("%s: docs called again before its last call returned", tc.path)
		}
		if len(ref.Results) < 4 {
			t.Fatalf("%s: %d results", tc.path, len(ref.Results))
		}
		if !reflect.DeepEqual(got, ref) {
			for i := range min(len(got.Results), len(ref.Results)) {
				if !reflect.DeepEqual(got.Results[i], ref.Results[i]) {
					t.Errorf("%s: setting %d (%s): two at once %+v, one at a time %+v", tc.path, i,
						settingKey(ref.Results[i].Config), got.Results[i].Accuracy, ref.Results[i].Accuracy)
				}
			}
			t.Fatalf("%s: two at once: %d results, best %d, top %d, base %d, %d untried; one at a time: %d, %d, %d, %d, %d",
				tc.path, len(got.Results), got.Best, got.Top, got.Base, got.Untried, len(ref.Results), ref.Best, ref.Top, ref.Base, ref.Untried)
		}
	}
}
