package vectorize

import (
	"fmt"
	"math"

	"github.com/textnb/textnb/internal/featurehash"
)

// DefaultHashFeatures is the number of hashing columns when Features is 0.
const DefaultHashFeatures = 1 << 20

// Hashing is scikit-learn's HashingVectorizer (norm=None) over given terms:
// term t goes to column |h| mod Features where h is murmurhash3_32 of its
// UTF-8 bytes with seed 0 read as a signed int32. It has no state, so
// models hashed apart share their columns. The zero value uses 2^20 columns
// and non-negative counts, as naive Bayes requires.
type Hashing struct {
	// Features is the number of columns; 0 means DefaultHashFeatures.
	Features int
	// AlternateSign counts a term −1 instead of +1 when h < 0 (scikit-learn's
	// default, off here). Colliding terms may then cancel to a stored 0,
	// which scikit-learn keeps too.
	AlternateSign bool
}

// Cols returns the number of columns, resolving the default.
func (h Hashing) Cols() int { return featurehash.Hashing(h).Cols() }

// Validate reports a Features value outside [0, MaxInt32] (ErrConfig).
func (h Hashing) Validate() error {
	if !featurehash.Hashing(h).Valid() {
		return fmt.Errorf("%w: %d hashing features (want 0 for the default or 1..%d)", ErrConfig, h.Features, math.MaxInt32)
	}
	return nil
}

// Transform appends one document's row to idx and val: sorted columns with
// the summed (signed) counts of its terms; a term alone gives its column
// and sign. An invalid Features (see Validate) is treated as 0. Concurrent
// calls are safe.
func (h Hashing) Transform(idx []int32, val []float64, terms []string) ([]int32, []float64) {
	return featurehash.Hashing(h).Transform(idx, val, terms)
}
