package priors

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
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
	f := newFit(classes)
	for item := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(item) == "" {
			return nil, fmt.Errorf("%w: empty item (two commas in a row, or one at an end)", ErrPriors)
		}
		eq := strings.LastIndexByte(item, '=')
		if eq < 0 {
			return nil, fmt.Errorf("%w: %q is not CLASS=PRIOR", ErrPriors, item)
		}
		name, val := strings.TrimSpace(item[:eq]), strings.TrimSpace(item[eq+1:])
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			v = math.NaN() // refused by add, once the name is known
		}
		if err := f.add(item, name, val, v); err != nil {
			return nil, err
		}
	}
	return f.priors()
}

// FromMap is Parse of priors given by class name, as the server's
// requests give them; names are taken as they are, commas included.
func FromMap(given map[string]float64, classes []string) ([]float64, error) {
	f := newFit(classes)
	for _, name := range slices.Sorted(maps.Keys(given)) { // the first error, whatever the map's order
		v := given[name]
		val := strconv.FormatFloat(v, 'g', -1, 64)
		if err := f.add(name+"="+val, name, val, v); err != nil {
			return nil, err
		}
	}
	return f.priors()
}

// A fit gathers the priors of classes, one class at a time.
type fit struct {
	classes []string
	index   map[string]int
	p       []float64
	given   []bool
	sum     float64
}

func newFit(classes []string) *fit {
	f := &fit{classes: classes, index: make(map[string]int, len(classes)), p: make([]float64, len(classes)), given: make([]bool, len(classes))}
	for i, c := range classes {
		f.index[c] = i
	}
	return f
}

// add sets the prior v, written val, of the class name, given as item.
func (f *fit) add(item, name, val string, v float64) error {
	c, ok := f.index[name]
	switch {
	case !ok:
		return fmt.Errorf("%w: %q names no class of the model (%s)", ErrPriors, name, strings.Join(f.classes, ", "))
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("%w: %q: %q is not a finite number", ErrPriors, item, val)
	case v < 0:
		return fmt.Errorf("%w: %q: a prior cannot be negative", ErrPriors, item)
	case v == 0:
		return fmt.Errorf("%w: %q: with prior 0 class %q could never be predicted; give a small positive prior", ErrPriors, item, name)
	case f.given[c]:
		return fmt.Errorf("%w: class %q given twice", ErrPriors, name)
	}
	f.given[c], f.p[c] = true, v
	f.sum += v
	return nil
}

// priors checks that every class was given and that the priors sum to 1,
// and returns them scaled to sum to 1 exactly.
func (f *fit) priors() ([]float64, error) {
	var missing []string
	for c, ok := range f.given {
		if !ok {
			missing = append(missing, strconv.Quote(f.classes[c]))
		}
	}
	if missing != nil {
		return nil, fmt.Errorf("%w: no prior for class %s; give one for every class of the model", ErrPriors, enum.Join(missing))
	}
	if math.Abs(f.sum-1) > SumTolerance {
		return nil, fmt.Errorf("%w: the priors sum to %g, want 1 (±%g)", ErrPriors, f.sum, SumTolerance)
	}
	for c := range f.p {
		f.p[c] /= f.sum
	}
	return f.p, nil
}
