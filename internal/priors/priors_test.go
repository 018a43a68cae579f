package priors

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	classes := []string{"spam", "ham", "a=b"}
	for _, tc := range []struct {
		in   string
		want []float64
	}{
		{"spam=0.1,ham=0.7,a=b=0.2", []float64{0.1, 0.7, 0.2}},
		{" ham = 0.5 , spam=0.25,a=b=.25", []float64{0.25, 0.5, 0.25}},
		{"spam=0.2,ham=0.6,a=b=0.205", []float64{0.2 / 1.005, 0.6 / 1.005, 0.205 / 1.005}}, // renormalized
	} {
		got, err := Parse(tc.in, classes)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		for c := range got {
			if math.Abs(got[c]-tc.want[c]) > 1e-12 {
				t.Fatalf("%q: %v, want %v", tc.in, got, tc.want)
			}
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"spam=0.1,ham=0.9", `no prior for class "a=b"`},
		{"spam=0.1", `no prior for class "ham" and "a=b"`},
		{"spam=0.1,ham=0.8,a=b=0.1,eggs=0", `"eggs" names no class`},
		{"spam=0,ham=0.8,a=b=0.2", `class "spam" could never be predicted`},
		{"spam=-0.1,ham=0.9,a=b=0.2", "cannot be negative"},
		{"spam=0.5,ham=0.5,a=b=0.5", "sum to 1.5"},
		{"spam=0.1,ham=0.8,a=b=0.05", "sum to 0.95"},
		{"spam0.1,ham=0.8,a=b=0.1", `"spam0.1" is not CLASS=PRIOR`},
		{"spam=x,ham=0.8,a=b=0.1", `"x" is not a finite number`},
		{"spam=NaN,ham=0.8,a=b=0.1", `"NaN" is not a finite number`},
		{"spam=0.1,,ham=0.8,a=b=0.1", "empty item"},
		{"spam=0.1,ham=0.8,a=b=0.1,spam=0.1", `class "spam" given twice`},
		{"", "empty item"},
	} {
		_, err := Parse(tc.in, classes)
		if !errors.Is(err, ErrPriors) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want ErrPriors with %q", tc.in, err, tc.want)
		}
	}
}

func ExampleParse() {
	p, err := Parse("spam=0.1, ham=0.9", []string{"ham", "spam"})
	fmt.Println(p, err)
	_, err = Parse("spam=0,ham=1", []string{"ham", "spam"})
	fmt.Println(err)
	// Output:
	// [0.9 0.1] <nil>
	// bad class priors: "spam=0": with prior 0 class "spam" could never be predicted; give a small positive prior
}
