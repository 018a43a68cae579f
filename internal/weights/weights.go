// Package weights checks fitted weights for pipeline and table.
package weights

import (
	"fmt"
	"math"
)

// Finite reports, wrapping sentinel, weights that overflowed because alpha
// is huge.
func Finite(sentinel error, alpha float64, weights ...[]float64) error {
	for _, w := range weights {
		for _, v := range w {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: alpha %g makes weights of %g; use a smaller alpha", sentinel, alpha, v)
			}
		}
	}
	return nil
}
