package priors

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestFromMap(t *testing.T) {
	classes := []string{"spam", "ham", "x,y"}
	got, err := FromMap(map[string]float64{"ham": 0.5, "spam": 0.3, "x,y": 0.2}, classes)
	if err != nil || !slices.Equal(got, []float64{0.3, 0.5, 0.2}) {
		t.Fatalf("FromMap = %v, %v; want [0.3 0.5 0.2] (a name with a comma is a name)", got, err)
	}
	for _, tc := range []struct {
		given map[string]float64
		want  string
	}{
		{map[string]float64{}, `no prior for class "spam", "ham" and "x,y"`},
		{map[string]float64{"ham": 0.5, "spam": -0.3, "x,y": 0.8}, `"spam=-0.3": a prior cannot be negative`},
		{map[string]float64{"ham": 1, "spam": 0, "x,y": 0}, `"spam=0": with prior 0`},
		{map[string]float64{"a": 1, "b": 1, "c": 1}, `"a" names no class`}, // the first by name, every time
		{map[string]float64{"ham": 0.5, "spam": 0.6, "x,y": 0.1}, "the priors sum to 1.2"},
	} {
		_, err := FromMap(tc.given, classes)
		if !errors.Is(err, ErrPriors) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FromMap(%v) = %v, want an ErrPriors saying %s", tc.given, err, tc.want)
		}
	}
}
