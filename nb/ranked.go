package nb

import "github.com/textnb/textnb/internal/tally"

// Ranked appends to dst the indices of proba's k largest values (all of
// them if k ≥ len(proba)), largest first, ties by index: a prediction's k
// most probable classes.
func Ranked(dst []int, proba []float64, k int) []int { return tally.Ranked(dst, proba, k) }

// AtLeast appends to dst the index of every value of proba that is at
// least p, largest first, ties by index: the labels a threshold p gives a
// multi-label prediction.
func AtLeast(dst []int, proba []float64, p float64) []int { return tally.AtLeast(dst, proba, p) }
