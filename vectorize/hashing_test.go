package vectorize

import (
	"errors"
	"math"
	"testing"

	"github.com/textnb/textnb/internal/featurehash"
)

func TestHashingDefault(t *testing.T) {
	if DefaultHashFeatures != featurehash.DefaultFeatures || (Hashing{}).Cols() != DefaultHashFeatures {
		t.Errorf("default columns %d, internal %d, Cols %d", DefaultHashFeatures, featurehash.DefaultFeatures, Hashing{}.Cols())
	}
}

func TestHashingValidate(t *testing.T) {
	for _, f := range []int{-1, math.MaxInt32 + 1} {
		if err := (Hashing{Features: f}).Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("Validate(%d) = %v", f, err)
		}
	}
	for _, f := range []int{0, 1, math.MaxInt32} {
		if err := (Hashing{Features: f}).Validate(); err != nil {
			t.Errorf("Validate(%d) = %v", f, err)
		}
	}
}
