package pipeline

import (
	"slices"
	"testing"

	"github.com/textnb/textnb/tokenize"
)

// TestCandidatesOfTwoClasses checks which settings the choice tries: for
// two classes, Complement NB beside multinomial NB at each α, unless the
// classifier or the reweighting is given; for more classes, Complement NB
// alone.
func TestCandidatesOfTwoClasses(t *testing.T) {
	count := func(cands []Config, cl Classifier) (alphas []float64) {
		for _, c := range cands {
			if c.Classifier == cl && c.Reweight <= 0 {
				alphas = append(alphas, c.Alpha)
			}
		}
		return alphas
	}
	cands, why := Config{}.candidates(2)
	if why != "" {
		t.Fatal(why)
	}
	if got := count(cands, Complement); !slices.Equal(got, ChoiceAlphas) {
		t.Errorf("two classes: Complement NB at α %v, want %v", got, ChoiceAlphas)
	}
	if got := count(cands, Multinomial); !slices.Equal(got, ChoiceAlphas) {
		t.Errorf("two classes: multinomial NB at α %v, want %v", got, ChoiceAlphas)
	}
	for _, c := range cands {
		if c.Classifier == Complement && c.Reweight > 0 {
			t.Errorf("a reweighted Complement candidate: %s", c.Setting())
		}
	}
	cands, _ = Config{Alpha: 0.3}.candidates(2)
	if got := count(cands, Complement); !slices.Equal(got, []float64{0.3}) {
		t.Errorf("α given: Complement NB at α %v, want [0.3]", got)
	}
	for _, given := range []Config{{Classifier: Multinomial}, {Reweight: 3}, {Norm: true}} {
		cands, _ := given.candidates(2)
		for _, c := range cands {
			if c.Classifier != cands[0].Classifier {
				t.Errorf("%+v given: candidates of %v and %v", given, cands[0].Classifier, c.Classifier)
				break
			}
		}
	}
	cands, _ = Config{}.candidates(3)
	if got := count(cands, Complement); len(got) != len(cands) || !slices.Equal(got, ManyClassAlphas) {
		t.Errorf("three classes: %d candidates, Complement NB at α %v", len(cands), got)
	}
}

// TestSecondWinsPrefersWordUnigrams checks how the second tokenization's
// winner is weighed against the first's: word unigrams win a tie within
// noise, Han character unigrams only a lead, and a lead of the first that
// every fold shows keeps it.
func TestSecondWinsPrefersWordUnigrams(t *testing.T) {
	result := func(lang tokenize.Lang, acc ...float64) *CVResult {
		r := &CVResult{Config: Config{Tokenize: tokenize.Config{Lang: lang}}}
		for _, a := range acc {
			r.Folds = append(r.Folds, FoldResult{Accuracy: a})
		}
		r.Accuracy = meanSD(slices.Clone(acc))
		return r
	}
	for _, lang := range []tokenize.Lang{tokenize.English, tokenize.Chinese} {
		first := result(lang, 0.90, 0.92, 0.94, 0.96, 0.98)
		noise := result(lang, 0.91, 0.91, 0.93, 0.96, 0.98) // behind by a lead the folds disagree on
		if got, want := secondWins(noise, first), lang != tokenize.Chinese; got != want {
			t.Errorf("%v: a lead within noise: second wins %v, want %v", lang, got, want)
		}
		behind := result(lang, 0.89, 0.91, 0.93, 0.95, 0.97) // behind in every fold
		if secondWins(behind, first) {
			t.Errorf("%v: behind in every fold, yet the second tokenization wins", lang)
		}
		ahead := result(lang, 0.901, 0.921, 0.941, 0.961, 0.981)
		if !secondWins(ahead, first) {
			t.Errorf("%v: ahead in every fold, yet the first tokenization wins", lang)
		}
	}
}
