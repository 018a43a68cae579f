package pipeline

import (
	"slices"
	"testing"
)

func TestPredictionRankedAtLeast(t *testing.T) {
	p := Prediction{Proba: []float64{0.1, 0.4, 0.1, 0.4}}
	for k, want := range map[int][]int{1: {1}, 2: {1, 3}, 3: {1, 3, 0}, 9: {1, 3, 0, 2}} {
		if got := p.Ranked(k); !slices.Equal(got, want) {
			t.Errorf("Ranked(%d) of %v = %v, want %v (ties by index)", k, p.Proba, got, want)
		}
	}
	for q, want := range map[float64][]int{0.4: {1, 3}, 0.1: {1, 3, 0, 2}, 0.5: {}} {
		if got := p.AtLeast(q); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("AtLeast(%g) of %v = %v, want %v", q, p.Proba, got, want)
		}
	}
}
