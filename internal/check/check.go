// Package check validates the inputs and fitted values of nb's models and
// compact's. Its sentinel errors are nb's: nb exports them.
package check

import (
	"errors"
	"fmt"
	"math"

	"github.com/textnb/textnb/vectorize"
)

// Sentinel errors, exported as nb's.
var (
	ErrNegative  = errors.New("nb: negative value")
	ErrNotFinite = errors.New("nb: NaN or infinite value")
	ErrShape     = errors.New("nb: dimension mismatch")
	ErrConfig    = errors.New("nb: invalid configuration")
)

// Good reports whether v is finite and not negative: one comparison
// pair, false for NaN, for the per-value checks.
func Good(v float64) bool { return v >= 0 && v <= math.MaxFloat64 }

// Bad returns the sentinel v violates (negative, or NaN/±Inf), or nil.
func Bad(v float64) error {
	switch {
	case Good(v):
		return nil
	case v < 0:
		return ErrNegative
	case math.IsNaN(v) || math.IsInf(v, 0):
		return ErrNotFinite
	}
	return nil
}

// Value reports value v of row and column col if it is not Good.
func Value(row int, col int32, v float64) error {
	if err := Bad(v); err != nil {
		return fmt.Errorf("%w: row %d column %d has value %g", err, row, col, v)
	}
	return nil
}

// Weight reports weight i of what, w, if it is not Good.
func Weight(what string, i int, w float64) error {
	if err := Bad(w); err != nil {
		return fmt.Errorf("%w: %s %d is %g", err, what, i, w)
	}
	return nil
}

// Weights checks every value of w with Weight, reporting the first bad
// one. A serial scan of Good outruns any split of it across cores: it is
// a few comparisons per value.
func Weights(what string, w []float64) error {
	for i, v := range w {
		if !Good(v) {
			return Weight(what, i, v)
		}
	}
	return nil
}

// Shape reports whether X is a well-formed matrix of at most features
// columns (features < 0: any); its values are not checked.
func Shape(X *vectorize.CSR, features int) error {
	if X == nil {
		return fmt.Errorf("%w: nil matrix", ErrShape)
	}
	if err := X.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrShape, err)
	}
	if features >= 0 && X.Cols > features {
		return fmt.Errorf("%w: matrix has %d columns, model has %d features", ErrShape, X.Cols, features)
	}
	return nil
}

// Alpha returns the smoothing that a is: def if a is 0, else a raised to
// at least least; a negative or non-finite a is an error.
func Alpha(a, def, least float64) (float64, error) {
	switch {
	case a == 0:
		return def, nil
	case a < 0 || math.IsNaN(a) || math.IsInf(a, 0):
		return 0, fmt.Errorf("%w: alpha %g, want a finite value ≥ 0", ErrConfig, a)
	}
	return max(a, least), nil
}
