package pipeline

import (
	"reflect"
	"testing"
)

// Explain right after Proba of the same text reuses its row, and explains
// as a Predictor that scored nothing before, or another text, does.
func TestExplainAfterProba(t *testing.T) {
	for _, tc := range explainCases {
		t.Run(tc.name, func(t *testing.T) {
			m := trainOn(t, tc.cfg, tc.train)
			_, texts := readCorpus(t, tc.test)
			texts = append(texts[:min(len(texts), 40)], "", "zzzz unknown qqqq", "")
			p := m.NewPredictor()
			for i, text := range texts {
				want := m.NewPredictor().Explain(text)
				proba, best := p.Proba(nil, text)
				if got := p.Explain(text); !reflect.DeepEqual(got, want) || got.Class != best {
					t.Fatalf("text %d after Proba: %+v, want %+v (Proba's best %d of %v)", i, got, want, best, proba)
				}
				if i > 0 { // the row held is the previous text's
					p.Proba(nil, texts[i-1])
					if got := p.Explain(text); !reflect.DeepEqual(got, want) {
						t.Fatalf("text %d after another text: %+v, want %+v", i, got, want)
					}
				}
			}
		})
	}
}
