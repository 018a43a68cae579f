package pipeline

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/split"
	"github.com/textnb/textnb/internal/testkit"
)

// TestChoiceEqualsExplicit checks that the model Finish chooses is the
// model that training with the winner's settings given explicitly gives,
// byte for byte but for the record of the choice, and that Fast trains the
// plain defaults.
func TestChoiceEqualsExplicit(t *testing.T) {
	everySecondTokenization(t)
	for _, path := range []string{newsTrain, "../../testdata/spam.tsv", "../../testdata/zh/train.tsv"} {
		docs := readDocs(t, path)
		chosen, s, err := trainerOf(t, Config{}, docs).Finish()
		if err != nil {
			t.Fatal(err)
		}
		if chosen.Chosen == nil || s.Choice != chosen.Chosen || s.Fallback != "" {
			t.Fatalf("%s: choice %v, fallback %q", path, chosen.Chosen, s.Fallback)
		}
		c := chosen.Config
		if c.Alpha == 0 || c.Classifier == Auto || c.Reweight == 0 {
			t.Fatalf("%s: chose %+v", path, c)
		}
		if c.MaxTableSize != ChoiceMaxTableSize {
			t.Errorf("%s: the chosen model records table bound %d, want %d", path, c.MaxTableSize, ChoiceMaxTableSize)
		}
		// The settings chosen, and the bound a choice trains with.
		given := Config{Classifier: c.Classifier, Alpha: c.Alpha, Reweight: c.Reweight, ReweightRate: c.ReweightRate, MaxTableSize: c.MaxTableSize}
		if strings.HasSuffix(c.Setting(), " unigrams") { // the second tokenization won
			given.Tokenize.WordNGrams, given.Tokenize.HanChars = c.Tokenize.WordNGrams, c.Tokenize.HanChars
		}
		explicit, s2, err := trainerOf(t, given, docs).Finish()
		if err != nil {
			t.Fatal(err)
		}
		if explicit.Chosen != nil || s2.Choice != nil {
			t.Fatalf("%s: settings given, yet %v chosen", path, explicit.Chosen)
		}
		if chosen.Calibration() == nil {
			t.Fatalf("%s: the chosen model is not calibrated", path)
		}
		file := testkit.Encode(t, chosen)
		chosen.Chosen = nil
		if err := chosen.Calibrate(nil); err != nil { // fitted on the choice's folds
			t.Fatal(err)
		}
		if !bytes.Equal(testkit.Encode(t, chosen), testkit.Encode(t, explicit)) {
			t.Errorf("%s: the chosen model (%s) differs from the one trained with its settings", path, c.Setting())
		}
		loaded, err := decode(file)
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Chosen == nil || *loaded.Chosen != *s.Choice {
			t.Errorf("%s: the file records %v, want %v", path, loaded.Chosen, s.Choice)
		}
		if loaded.Calibration() == nil {
			t.Errorf("%s: the file holds no calibration", path)
		}
	}
}

// TestReweightChanges checks that reweighting changes a model, that its
// file records the passes, and that a model file without them loads as
// unreweighted.
func TestReweightChanges(t *testing.T) {
	docs := readDocs(t, newsTrain)
	plain := trainDocs(t, Config{Alpha: 1, Reweight: -1}, docs)
	rw := trainDocs(t, Config{Alpha: 1, Reweight: 5, ReweightRate: 40}, docs)
	if bytes.Equal(testkit.Encode(t, plain), testkit.Encode(t, rw)) {
		t.Fatal("5 passes changed nothing")
	}
	for name, m := range map[string]*Model{"plain": plain, "reweighted": rw} {
		loaded, err := decode(testkit.Encode(t, m))
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Config.Reweight != m.Config.Reweight || loaded.Config.ReweightRate != m.Config.ReweightRate {
			t.Errorf("%s: loaded %d×%g, trained %d×%g", name, loaded.Config.Reweight, loaded.Config.ReweightRate,
				m.Config.Reweight, m.Config.ReweightRate)
		}
	}
	if plain.Config.Reweight != -1 || rw.Config.Reweight != 5 || rw.Config.ReweightRate != 40 {
		t.Errorf("configs record %d×%g and %d×%g", plain.Config.Reweight, plain.Config.ReweightRate, rw.Config.Reweight, rw.Config.ReweightRate)
	}
	old, err := Load("../../testdata/models/news-v2.model")
	if err != nil {
		t.Fatal(err)
	}
	if old.Config.Reweight != -1 || old.Chosen != nil {
		t.Errorf("an earlier file loads with %d passes, choice %v", old.Config.Reweight, old.Chosen)
	}
}

// TestReweightedModelsDoNotMerge checks the sentinel merging refuses
// reweighted models with.
func TestReweightedModelsDoNotMerge(t *testing.T) {
	docs := readDocs(t, newsTrain)
	cfg := Config{Weighting: RawCounts, Vocab: vocabMinDF(1), Alpha: 1, Reweight: 2}
	a, b := trainDocs(t, cfg, docs[:len(docs)/2]), trainDocs(t, cfg, docs[len(docs)/2:])
	if _, err := Merge(a, b); !errors.Is(err, ErrReweighted) {
		t.Fatalf("merged reweighted models: %v", err)
	}
	if _, err := NewTrainer(Config{Reweight: 2, Classifier: Bernoulli}); !errors.Is(err, ErrConfig) {
		t.Errorf("reweighted Bernoulli NB: %v", err)
	}
}

// TestChoiceFallsBack checks that training falls back to the plain
// default, saying why, where it cannot choose.
func TestChoiceFallsBack(t *testing.T) {
	docs := readDocs(t, newsTrain)
	for _, tc := range []struct {
		cfg  Config
		docs int
	}{
		{Config{Vectorizer: Hash}, len(docs)},
		{Config{Classifier: Bernoulli}, len(docs)},
		{Config{}, 24}, // a few documents of each class: too few for the folds
	} {
		small := docs
		if tc.docs < len(docs) {
			small = nil
			for i := 0; i < len(docs); i += len(docs) / tc.docs {
				small = append(small, docs[i])
			}
		}
		m, s, err := trainerOf(t, tc.cfg, small).Finish()
		if err != nil {
			t.Fatal(err)
		}
		fast := tc.cfg
		fast.Fast = true
		want := trainDocs(t, fast, small)
		if s.Fallback == "" || m.Chosen != nil || !bytes.Equal(testkit.Encode(t, m), testkit.Encode(t, want)) {
			t.Errorf("%+v on %d documents: fallback %q, choice %v; or not the plain default", tc.cfg, len(small), s.Fallback, m.Chosen)
		}
	}
}

// TestNestedChoiceIsFinishOnEachFold checks that cross-validating the
// default makes in each fold the choice Finish makes on that fold's
// training part, and predicts the held-out part as that model does.
//
// A small MaxTableSize makes Finish raise min_df on each fold's training
// part (its automatic min_df counts every term of the part, those the
// whole corpus holds once too), and the nested choice's inner folds must
// count the same terms.
func TestNestedChoiceIsFinishOnEachFold(t *testing.T) {
	for _, tc := range []struct {
		path string
		cfg  Config
	}{
		{newsTrain, Config{}},
		{"../../testdata/spam.tsv", Config{}},
		{newsTrain, Config{MaxTableSize: 4 * 1500}},
		{"../../testdata/spam.tsv", Config{MaxTableSize: 2 * 600}},
		{"../../testdata/zh/train.tsv", Config{}}, // a fold chooses Han character unigrams
		{newsTrain, Config{Alpha: twoBounds}},
	} {
		if strings.Contains(tc.path, "zh") {
			everySecondTokenization(t)
		}
		lowered := tc.cfg.Alpha == twoBounds
		if lowered {
			// The choice within 4 × 1500 cells (min_df 2), the winner on
			// every term (min_df 1), as the defaults do on 20 Newsgroups;
			// with the second tokenization too.
			everySecondTokenization(t)
			tc.cfg.Alpha = 0
			oldFast, oldChoice := fastCells, choiceCells
			fastCells, choiceCells = 4*1500, 4*100000
			defer func() { fastCells, choiceCells = oldFast, oldChoice }()
		}
		path := tc.path
		docs := readDocs(t, path)
		o := CVOptions{Folds: 3, Seed: 7}
		r := crossValidate(t, tc.cfg, docs, o)
		if !r.Nested || r.Choice == nil {
			t.Fatalf("%s: nested %v, choice %v", path, r.Nested, r.Choice)
		}
		labels := make([]string, len(docs))
		for i, d := range docs {
			labels[i] = d.Label
		}
		folds := split.StratifiedKFold(labels, o.Folds, o.Seed)
		han := false
		for _, f := range r.Folds {
			han = han || strings.HasSuffix(f.Setting, ", Han character unigrams")
		}
		if strings.Contains(path, "zh") != han {
			t.Fatalf("%s: a fold chose Han character unigrams: %v, want %v", path, han, !han)
		}
		for k, test := range folds {
			var part []corpus.Document
			for _, i := range split.FoldTrain(nil, folds, k) {
				part = append(part, docs[i])
			}
			m, sum, err := trainerOf(t, tc.cfg, part).Finish()
			if err != nil {
				t.Fatal(err)
			}
			if tc.cfg.MaxTableSize > 0 && k == 0 {
				t.Logf("%s MaxTableSize %d fold %d: min_df %d, %d features; cv fold min_df %d", path, tc.cfg.MaxTableSize, k, sum.MinDF, m.NumFeatures(), r.Folds[k].MinDF)
			}
			if lowered && (sum.MinDF != 1 || r.Folds[k].MinDF != 1) {
				t.Fatalf("%s fold %d: the winner's min_df %d, cv's %d; want 1 (every term)", path, k, sum.MinDF, r.Folds[k].MinDF)
			}
			if m.Chosen == nil || m.Chosen.Setting != r.Folds[k].Setting {
				t.Fatalf("%s fold %d: cv chose %q, Finish on the training part %v", path, k, r.Folds[k].Setting, m.Chosen)
			}
			p := m.NewPredictor()
			for _, i := range test {
				if _, c := p.Proba(nil, docs[i].Text); m.Classes[c] != r.Predicted[i] {
					t.Fatalf("%s fold %d document %d: cv predicts %q, the fold's model %q", path, k, i, r.Predicted[i], m.Classes[c])
				}
			}
		}
	}
}

// twoBounds, as a test case's Alpha, lowers DefaultMaxTableSize and
// ChoiceMaxTableSize for the case, so that both bind on testdata.
const twoBounds = -1

// everySecondTokenization lets the choice try its second tokenization on
// testdata's small corpora for the rest of t.
func everySecondTokenization(t *testing.T) {
	old := minSecondDocs
	minSecondDocs = 0
	t.Cleanup(func() { minSecondDocs = old })
}
