package featurehash_test

import (
	"fmt"

	"github.com/textnb/textnb/internal/featurehash"
)

func ExampleMurmur3() {
	fmt.Println(featurehash.Murmur3([]byte("spam"), 0), int32(featurehash.Murmur3String("spam", 0)))
	// Output: 2713519960 -1581447336
}
