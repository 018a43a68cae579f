package nb_test

import (
	"slices"
	"testing"

	"github.com/textnb/textnb/nb"
)

func TestRankedAtLeast(t *testing.T) {
	proba := []float64{0.1, 0.4, 0.1, 0.4}
	for k, want := range map[int][]int{1: {1}, 2: {1, 3}, 3: {1, 3, 0}, 9: {1, 3, 0, 2}} {
		if got := nb.Ranked(nil, proba, k); !slices.Equal(got, want) {
			t.Errorf("Ranked(%v, %d) = %v, want %v (ties by index)", proba, k, got, want)
		}
	}
	if got := nb.Ranked([]int{7}, proba, 1); !slices.Equal(got, []int{7, 1}) {
		t.Errorf("Ranked appending to [7] = %v", got)
	}
	for p, want := range map[float64][]int{0.4: {1, 3}, 0.1: {1, 3, 0, 2}, 0.5: {}} {
		if got := nb.AtLeast(nil, proba, p); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("AtLeast(%v, %g) = %v, want %v", proba, p, got, want)
		}
	}
}
