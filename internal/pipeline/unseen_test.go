package pipeline

import (
	"errors"
	"math"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/tokenize"
	"github.com/textnb/textnb/vectorize"
)

func unseenDocs() []corpus.Document {
	return []corpus.Document{
		{Label: "ham", Text: "meeting budget budget report"},
		{Label: "ham", Text: "report lunch"},
		{Label: "spam", Text: "cheap pills cheap"},
		{Label: "spam", Text: "meeting prize"},
	}
}

// The unseen mass of each class is its terms counted once and nowhere
// else, plus one, over its counts plus two; it follows learning.
func TestUnseenMass(t *testing.T) {
	cfg := Config{Fast: true, Weighting: RawCounts, Vocab: vectorize.VocabConfig{MinDF: 1}}
	cfg.Tokenize.WordNGrams = tokenize.NGramRange{Min: 1, Max: 1}
	m := trainDocs(t, cfg, unseenDocs())
	got, err := m.UnseenMass()
	if err != nil {
		t.Fatal(err)
	}
	// ham: 6 counts, lunch once (budget and report twice, meeting in spam too);
	// spam: 5 counts, pills and prize once (cheap twice).
	if want := []float64{2.0 / 8, 3.0 / 7}; math.Abs(got[0]-want[0]) > 1e-15 || math.Abs(got[1]-want[1]) > 1e-15 {
		t.Errorf("unseen mass %v, want %v", got, want)
	}
	// learning "lunch" into spam leaves ham no term of its own once: 1/8; spam 3/8
	if err := m.LearnBatch([]Example{{Label: "spam", Text: "lunch"}}); err != nil {
		t.Fatal(err)
	}
	if got, err = m.UnseenMass(); err != nil || math.Abs(got[0]-1.0/8) > 1e-15 || math.Abs(got[1]-3.0/8) > 1e-15 {
		t.Errorf("after learning: unseen mass %v (%v), want [1/8 3/8]", got, err)
	}
	// the learner keeps the count: "pills" twice leaves spam prize alone
	// once (2/9); unlearning it brings pills back (3/8)
	if err := m.LearnBatch([]Example{{Label: "spam", Text: "pills"}}); err != nil {
		t.Fatal(err)
	}
	if got, err = m.UnseenMass(); err != nil || math.Abs(got[0]-1.0/8) > 1e-15 || math.Abs(got[1]-2.0/9) > 1e-15 {
		t.Errorf("after learning pills: unseen mass %v (%v), want [1/8 2/9]", got, err)
	}
	if err := m.Unlearn("spam", "pills"); err != nil {
		t.Fatal(err)
	}
	if got, err = m.UnseenMass(); err != nil || math.Abs(got[0]-1.0/8) > 1e-15 || math.Abs(got[1]-3.0/8) > 1e-15 {
		t.Errorf("after unlearning pills: unseen mass %v (%v), want [1/8 3/8]", got, err)
	}
	tfidf := cfg
	tfidf.Weighting = TFIDF
	if _, err := trainDocs(t, tfidf, unseenDocs()).UnseenMass(); !errors.Is(err, ErrConfig) {
		t.Errorf("tf-idf: %v, want ErrConfig", err)
	}
}

// Coverage counts the occurrences of the last text's known terms as its
// row does, and of the terms the model lacks.
func TestCoverage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		binary  bool
		ngrams  tokenize.NGramRange
		known   float64
		unknown int
	}{
		// cheap, meeting, meeting known; novel, words not
		{"counts", false, tokenize.NGramRange{Min: 1, Max: 1}, 3, 2},
		{"binary", true, tokenize.NGramRange{Min: 1, Max: 1}, 2, 2},
		// and its four bigrams, none of them a training bigram
		{"bigrams", false, tokenize.NGramRange{Min: 1, Max: 2}, 3, 6},
	} {
		cfg := Config{Fast: true, Weighting: RawCounts, Vocab: vectorize.VocabConfig{MinDF: 1, Binary: tc.binary}}
		cfg.Tokenize.WordNGrams = tc.ngrams
		p := trainDocs(t, cfg, unseenDocs()).NewPredictor()
		p.JointLogLikelihood(nil, "cheap novel meeting words meeting")
		if known, unknown := p.Coverage(); known != tc.known || unknown != tc.unknown {
			t.Errorf("%s: known %v, unknown %d; want %v, %d", tc.name, known, unknown, tc.known, tc.unknown)
		}
		p.JointLogLikelihood(nil, "report lunch")
		if known, unknown := p.Coverage(); unknown != 0 || known < 2 {
			t.Errorf("%s: a training text: known %v, unknown %d", tc.name, known, unknown)
		}
	}
}
