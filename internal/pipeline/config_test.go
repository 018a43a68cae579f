package pipeline

import (
	"bytes"
	"slices"
	"testing"

	"github.com/textnb/textnb/internal/testkit"
)

// TestAutoClassifier checks what the zero Classifier becomes: the same
// model file, byte for byte, as the classifier and α it stands for named
// explicitly.
func TestAutoClassifier(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cfg, want Config
		path      string
	}{
		{"two classes", Config{Fast: true}, Config{Classifier: Multinomial, Alpha: DefaultBinaryAlpha}, "../../testdata/spam.tsv"},
		{"two classes, alpha given", Config{Alpha: 0.5, Reweight: -1}, Config{Classifier: Multinomial, Alpha: 0.5}, "../../testdata/spam.tsv"},
		{"two classes, norm", Config{Norm: true, Fast: true}, Config{Classifier: Complement, Norm: true}, "../../testdata/spam.tsv"},
		{"two Chinese classes", Config{Fast: true}, Config{Classifier: Multinomial, Alpha: DefaultBinaryAlpha}, "../../testdata/zh/train.tsv"},
		{"four classes", Config{Fast: true}, Config{Classifier: Complement, Alpha: DefaultAlpha}, newsTrain},
		{"four classes, alpha given", Config{Alpha: 0.1, Reweight: -1}, Config{Classifier: Complement, Alpha: 0.1}, newsTrain},
	} {
		docs := readDocs(t, tc.path)
		got, _, err := trainerOf(t, tc.cfg, docs).Finish()
		if err != nil {
			t.Fatal(err)
		}
		fixed := tc.want
		fixed.Fast = true // the settings as given, nothing chosen
		want, _, err := trainerOf(t, fixed, docs).Finish()
		if err != nil {
			t.Fatal(err)
		}
		if got.Config.Classifier != tc.want.Classifier || got.Config.Alpha != want.Config.Alpha {
			t.Errorf("%s: %v alpha %g, want %v alpha %g", tc.name, got.Config.Classifier, got.Config.Alpha,
				tc.want.Classifier, want.Config.Alpha)
		}
		if !bytes.Equal(testkit.Encode(t, got), testkit.Encode(t, want)) {
			t.Errorf("%s: the model file differs from %v's", tc.name, tc.want.Classifier)
		}
		if m, err := decode(testkit.Encode(t, got)); err != nil || m.Config.Classifier != tc.want.Classifier {
			t.Errorf("%s: loaded %v, %v", tc.name, m.Config.Classifier, err)
		}
	}
}

// TestTuneFindsAutoBase checks that Tune recognizes the setting the zero
// Classifier stands for as the base configuration's own.
func TestTuneFindsAutoBase(t *testing.T) {
	docs := docsOf(readDocs(t, "../../testdata/spam.tsv"))
	g := Grid{Alpha: []float64{DefaultBinaryAlpha, DefaultAlpha}, Classifier: []Classifier{Complement, Multinomial}}
	r, err := Tune(Config{}, g, CVOptions{Folds: 3}, docs)
	if err != nil {
		t.Fatal(err)
	}
	if r.Base < 0 {
		t.Fatal("no base setting found")
	}
	if c := r.Results[r.Base].Config; c.Classifier != Multinomial || c.Alpha != DefaultBinaryAlpha {
		t.Errorf("base %v alpha %g, want mnb alpha %g", c.Classifier, c.Alpha, DefaultBinaryAlpha)
	}
}

// TestTuneResolvesAutoPerSetting checks that every setting of a grid that
// leaves the classifier to Auto is fitted with the classifier the
// corpus's classes call for, as training with that setting would be.
func TestTuneResolvesAutoPerSetting(t *testing.T) {
	for _, tc := range []struct {
		path string
		want Classifier
	}{
		{"../../testdata/spam.tsv", Multinomial},
		{newsTrain, Complement},
	} {
		docs := readDocs(t, tc.path)
		g := Grid{Alpha: []float64{0.03, 0.1, 0.3, 1}, Weighting: []Weighting{TFIDF, RawCounts}}
		r, err := Tune(Config{}, g, CVOptions{Folds: 3}, docsOf(docs))
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range r.Results {
			c := res.Config
			if c.Classifier != tc.want {
				t.Fatalf("%s: %v alpha %g, want %v", tc.path, c.Classifier, c.Alpha, tc.want)
			}
			// The fold predictions are those of the resolved setting.
			want := crossValidate(t, Config{Classifier: tc.want, Alpha: c.Alpha, Weighting: c.Weighting}, docs, CVOptions{Folds: 3})
			if !slices.Equal(res.Predicted, want.Predicted) {
				t.Errorf("%s: %v %v alpha %g: cv predictions differ from the explicit setting's", tc.path, c.Classifier, c.Weighting, c.Alpha)
			}
		}
	}
}
