package priors

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/textnb/textnb/internal/enum"
)

// ErrPriors: a list of class priors is malformed or does not fit the model.
var ErrPriors = errors.New("bad class priors")

// SumTolerance is how far from 1 the priors given to Parse may sum; within
// it they are renormalized, beyond it they are refused.
const SumTolerance = 0.01

// Parse reads class priors written as "spam=0.1,ham=0.9" and returns
// them in the order of classes. Every class must be given exactly once, with
// a finite positive prior (a class with prior 0 could never be predicted);
// the priors must sum to 1 within SumTolerance and are then scaled to
// sum to 1 exactly. A name is split from its value at the last "=", so
// class names may contain "=" but not ",". Errors wrap ErrPriors and name
// the offending item or classes.
func Parse(s string, classes []string) ([]float64, error) {
	index := make(map[string]int, len(classes))
	for i, c := range classes {
		index[c] = i
	}
	p := make([]float64, len(classes))
	given := make([]bool, len(classes))
	var sum float64
	for item := range strings.SplitSeq(s, ",") {
		c, v, err := priorItem(item, index, classes)
		if err != nil {
			return nil, err
		}
		if given[c] {
			return nil, fmt.Errorf("%w: class %q given twice", ErrPriors, classes[c])
		}
		given[c], p[c] = true, v
		sum += v
	}
	var missing []string
	for c, ok := range given {
		if !ok {
			missing = append(missing, strconv.Quote(classes[c]))
		}
	}
	if missing != nil {
		return nil, fmt.Errorf("%w: no prior for class %s; give one for every class of the model", ErrPriors, enum.Join(missing))
	}
	if math.Abs(sum-1) > SumTolerance {
		return nil, fmt.Errorf("%w: the priors sum to %g, want 1 (±%g)", ErrPriors, sum, SumTolerance)
	}
	for c := range p {
		p[c] /= sum
	}
	return p, nil
}

// priorItem parses one "class=p" item.
func priorItem(item string, index map[string]int, classes []string) (int, float64, error) {
	if strings.TrimSpace(item) == "" {
		return 0, 0, fmt.Errorf("%w: empty item (two commas in a row, or one at an end)", ErrPriors)
	}
	eq := strings.LastIndexByte(item, '=')
	if eq < 0 {
		return 0, 0, fmt.Errorf("%w: %q is not CLASS=PRIOR", ErrPriors, item)
	}
	name, val := strings.TrimSpace(item[:eq]), strings.TrimSpace(item[eq+1:])
	c, ok := index[name]
	if !ok {
		return 0, 0, fmt.Errorf("%w: %q names no class of the model (%s)", ErrPriors, name, strings.Join(classes, ", "))
	}
	v, err := strconv.ParseFloat(val, 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, 0, fmt.Errorf("%w: %q: %q is not a finite number", ErrPriors, item, val)
	case v < 0:
		return 0, 0, fmt.Errorf("%w: %q: a prior cannot be negative", ErrPriors, item)
	case v == 0:
		return 0, 0, fmt.Errorf("%w: %q: with prior 0 class %q could never be predicted; give a small positive prior", ErrPriors, item, name)
	}
	return c, v, nil
}
