package pipeline

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/split"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

// newsSplit reads testdata/news/train and keeps the labels of perClass
// seeded documents of each class.
func newsSplit(t testing.TB, perClass int) (docs []corpus.Document, labeled []bool) {
	t.Helper()
	docs, err := corpus.ReadAll(newsTrain, corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]string, len(docs))
	for i, d := range docs {
		labels[i] = d.Label
	}
	sample, _ := split.StratifiedSampleN(labels, perClass, 3)
	labeled = make([]bool, len(docs))
	for _, i := range sample {
		labeled[i] = true
	}
	return docs, labeled
}

// trainSemi trains cfg on the labeled documents, adding the others
// unlabeled when cfg has a semi-supervised method.
func trainSemi(t testing.TB, cfg Config, docs []corpus.Document, labeled []bool) (*Model, Summary) {
	t.Helper()
	tr, err := NewTrainer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		switch {
		case labeled[i]:
			tr.Add(d.Label, d.Text)
		case cfg.Semi.Method != NoSemi:
			tr.AddUnlabeled(d.Text)
		}
	}
	m, s, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

func TestSemiSupervisedBeatsLabeledOnly(t *testing.T) {
	docs, labeled := newsSplit(t, 2)
	base, baseSum := trainSemi(t, Config{}, docs, labeled)
	acc0 := evaluate(t, base, newsTest).Accuracy
	if baseSum.Semi != (SemiReport{}) {
		t.Errorf("labeled-only model has report %+v", baseSum.Semi)
	}
	for _, method := range []SemiMethod{NSNB, SNB, EM} {
		m, sum := trainSemi(t, Config{Semi: Semi{Method: method}}, docs, labeled)
		acc := evaluate(t, m, newsTest).Accuracy
		r := sum.Semi
		t.Logf("%v: accuracy %.4f (labeled only %.4f); %v", method, acc, acc0, r)
		if sum.Documents != 8 || sum.Unlabeled != 232 || r.Method != method || r.Unlabeled != 232 {
			t.Errorf("%v: summary %+v, report %+v", method, sum, r)
		}
		// SNB adds nothing here (no Complement NB posterior reaches 0.9), but
		// its vocabulary and IDF come from every document.
		if acc < acc0 || method != SNB && acc <= acc0 {
			t.Errorf("%v: accuracy %.4f, labeled only %.4f", method, acc, acc0)
		}
		if method != SNB && (r.Added == 0 || r.Rounds == 0) {
			t.Errorf("%v: nothing added: %+v", method, r)
		}
	}
}

// newsRows returns the weighted rows of the news training and test
// documents under a model trained on all of them, with their labels.
func newsRows(t *testing.T, cfg Config) (m *Model, X *vectorize.CSR, y []int, XT *vectorize.CSR, yT []int) {
	t.Helper()
	m, _ = train(t, cfg, newsTrain)
	class := map[string]int{}
	for i, c := range m.Classes {
		class[c] = i
	}
	p := m.NewPredictor()
	rows := func(path string) (*vectorize.CSR, []int) {
		X, y := vectorize.NewCSR(m.NumFeatures()), []int(nil)
		_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
			X.AppendRow(p.row(d.Text))
			y = append(y, class[d.Label])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return X, y
	}
	X, y = rows(newsTrain)
	XT, yT = rows(newsTest)
	return m, X, y, XT, yT
}

// TestSemiCountsRefit checks that the counts fitSemi returns are those of
// nb's final model: refitting from them, in nb or in the model's compact
// form, scores every test document as nb's fitted estimator does.
func TestSemiCountsRefit(t *testing.T) {
	for _, cl := range []Classifier{Complement, Multinomial, Bernoulli} {
		trained, X, y, XT, _ := newsRows(t, Config{Classifier: cl})
		for i := range y {
			if i%10 != 0 { // keep one label in ten
				y[i] = -1
			}
		}
		for _, method := range []SemiMethod{NSNB, SNB, EM} {
			t.Run(fmt.Sprintf("%v/%v", cl, method), func(t *testing.T) {
				cfg := Config{Classifier: cl, Semi: Semi{Method: method, Threshold: 0.3}}
				m := &Model{Config: cfg, Classes: trained.Classes}
				c, r, err := m.fitSemi(X, y)
				if err != nil {
					t.Fatal(err)
				}
				L, yl, U := splitLabeled(X, y)
				want := m.newEstimator()
				res, err := cfg.Semi.fit(want, L, yl, U, len(m.Classes))
				if err != nil {
					t.Fatal(err)
				}
				if r.Rounds != res.Rounds || r.Added != res.Added || r.Added == 0 {
					t.Errorf("report %+v, nb result rounds %d added %d", r, res.Rounds, res.Added)
				}
				t.Logf("%v", r)
				refit := m.newEstimator()
				if err := refit.Fit(c); err != nil {
					t.Fatal(err)
				}
				if m.counts = compact.FromDense(c); m.counts == nil {
					t.Fatal("counts have no sparse form")
				}
				if err := m.refit(); err != nil {
					t.Fatal(err)
				}
				sameScores(t, want, XT, refit, m.lin)
			})
		}
	}
}

// NSNB selects with standardized scores, SNB with the classifier's
// posteriors.
func TestSemiSelection(t *testing.T) {
	_, X, y, _, _ := newsRows(t, Config{})
	for i := range y {
		if i%20 != 0 {
			y[i] = -1
		}
	}
	L, yl, U := splitLabeled(X, y)
	m := &Model{Classes: []string{"a", "b", "c", "d"}}
	for _, tc := range []struct {
		semi Semi
		want nb.SelfTraining
	}{
		{Semi{Method: NSNB}, nb.SelfTraining{K: DefaultSemiK, Standardize: true}},
		{Semi{Method: NSNB, K: 7, Rounds: 2}, nb.SelfTraining{K: 7, Rounds: 2, Standardize: true}},
		{Semi{Method: NSNB, RawPosteriors: true}, nb.SelfTraining{K: DefaultSemiK}},
		{Semi{Method: SNB, Threshold: 0.3}, nb.SelfTraining{SNB: true, Threshold: 0.3}},
	} {
		got, err := tc.semi.fit(m.newEstimator(), L, yl, U, 4)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tc.want.Fit(m.newEstimator(), L, yl, U, 4)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, want.Labels) || got.Added == 0 {
			t.Errorf("%+v: %d added, pseudo-labels differ from nb's %+v", tc.semi, got.Added, tc.want)
		}
	}
}

// sameScores checks that the models predict the same class for every row
// of X, with joint log-likelihoods equal to 1e-9 relative.
func sameScores(t *testing.T, want nb.Model, X *vectorize.CSR, got ...nb.Model) {
	t.Helper()
	var a, b []float64
	for i := 0; i < X.Rows; i++ {
		idx, val := X.Row(i)
		a = want.JointLogLikelihood(a[:0], idx, val)
		for k, g := range got {
			b = g.JointLogLikelihood(b[:0], idx, val)
			if nb.Argmax(a) != nb.Argmax(b) {
				t.Fatalf("row %d, model %d: class %d, nb's model says %d", i, k, nb.Argmax(b), nb.Argmax(a))
			}
			for c := range a {
				if math.Abs(a[c]-b[c]) > 1e-9*math.Max(1, math.Abs(a[c])) {
					t.Fatalf("row %d, model %d, class %d: jll %v, nb's model %v", i, k, c, b[c], a[c])
				}
			}
		}
	}
}

func TestSemiConfigErrors(t *testing.T) {
	for _, s := range []Semi{
		{Method: EM + 1},
		{Method: NSNB, K: -1},
		{Method: NSNB, K: math.Inf(1)},
		{Method: SNB, Threshold: 1},
		{Method: SNB, Threshold: math.NaN()},
		{Method: NSNB, Rounds: -2},
		{Method: EM, Lambda: -0.5},
	} {
		if err := s.validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: error %v, want ErrConfig", s, err)
		}
	}
	if err := (Semi{Method: EM, K: 3, Threshold: 0.5, Rounds: 4, Lambda: 0.2}).validate(); err != nil {
		t.Errorf("valid settings: %v", err)
	}
	// A bad setting fails training even if nothing checked it earlier.
	m := &Model{Config: Config{Semi: Semi{Method: NSNB, K: -1}}, Classes: []string{"a", "b"}}
	X := vectorize.FromDense([][]float64{{1, 0}, {0, 1}, {1, 1}})
	if _, _, err := m.fitSemi(X, []int{0, 1, -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("fitSemi with K −1: %v, want ErrConfig", err)
	}
}

// With no unlabeled documents every method is the labeled-only model.
func TestSemiWithoutUnlabeled(t *testing.T) {
	_, X, y, XT, _ := newsRows(t, Config{})
	for _, method := range []SemiMethod{NSNB, SNB, EM} {
		m := &Model{Config: Config{Semi: Semi{Method: method}}, Classes: []string{"a", "b", "c", "d"}}
		c, r, err := m.fitSemi(X, y)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := compact.Count(m.newEstimator(), X, y, 4)
		if err != nil {
			t.Fatal(err)
		}
		want, got := m.newEstimator(), m.newEstimator()
		if err := want.Fit(plain.Dense()); err != nil {
			t.Fatal(err)
		}
		if err := got.Fit(c); err != nil {
			t.Fatal(err)
		}
		sameScores(t, want, XT, got)
		if r.Added != 0 || r.Unlabeled != 0 {
			t.Errorf("%v: report %+v", method, r)
		}
	}
}

func TestSemiReportString(t *testing.T) {
	for _, tc := range []struct {
		r    SemiReport
		want string
	}{
		{SemiReport{}, "no semi-supervised training"},
		{SemiReport{Method: NSNB, Unlabeled: 10, Added: 9, Rounds: 3}, "nsnb: 9 of 10 unlabeled documents pseudo-labeled in 3 rounds"},
		{SemiReport{Method: SNB, Unlabeled: 10, Rounds: 1, Converged: true}, "snb: 0 of 10 unlabeled documents pseudo-labeled in 1 round (converged)"},
		{SemiReport{Method: EM, Unlabeled: 5, Added: 5, Rounds: 1, Converged: true}, "em: 5 unlabeled documents as soft counts, 1 iteration (converged)"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}

func ExampleSemiReport() {
	docs, err := corpus.ReadAll("../../testdata/news/train", corpus.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	tr, err := NewTrainer(Config{Semi: Semi{Method: NSNB}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, d := range docs {
		if i%20 == 0 { // three labeled documents per class
			tr.Add(d.Label, d.Text)
		} else {
			tr.AddUnlabeled(d.Text)
		}
	}
	_, sum, err := tr.Finish()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum.Documents, "labeled,", sum.Unlabeled, "unlabeled")
	fmt.Println(strings.SplitN(sum.Semi.String(), " in ", 2)[0])
	// Output:
	// 12 labeled, 228 unlabeled
	// nsnb: 228 of 228 unlabeled documents pseudo-labeled
}
