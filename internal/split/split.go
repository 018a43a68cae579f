package split

import (
	"math"
	"math/rand/v2"
	"slices"
)

// pcgStream is the fixed second PCG seed word, so one uint64 seeds a split.
const pcgStream = 0x9e3779b97f4a7c15

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, pcgStream)) }

// share returns round(frac·n), with frac clamped to [0, 1] (NaN counts as 0).
func share(n int, frac float64) int {
	if !(frac > 0) {
		return 0
	}
	return int(math.Round(min(frac, 1) * float64(n)))
}

// Split shuffles 0..n-1 with seed and puts round(testFrac·n) of them in
// test, the rest in train. testFrac is clamped to [0, 1]. Both are sorted.
func Split(n int, testFrac float64, seed uint64) (train, test []int) {
	if n <= 0 {
		return nil, nil
	}
	perm := newRand(seed).Perm(n)
	k := share(n, testFrac)
	return sorted(perm[k:]), sorted(perm[:k:k]) // capped: appending to test must not clobber train
}

// StratifiedSplit is Split within each class, so that both sides keep the
// class proportions: a class of n documents gives round(testFrac·n) to test,
// but when 0 < testFrac < 1 and n ≥ 2 at least one document goes to each side.
func StratifiedSplit(labels []string, testFrac float64, seed uint64) (train, test []int) {
	rng := newRand(seed)
	for _, idx := range byClass(labels) {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		k := share(len(idx), testFrac)
		if testFrac > 0 && testFrac < 1 && len(idx) >= 2 {
			k = min(max(k, 1), len(idx)-1)
		}
		test = append(test, idx[:k]...)
		train = append(train, idx[k:]...)
	}
	return sorted(train), sorted(test)
}

// StratifiedKFold deals each class's shuffled documents round-robin into k
// folds, continuing the deal across classes: every class's count differs by
// at most one between folds, and so do the fold sizes. It returns nil when
// k < 1. Folds may be empty when k exceeds the number of documents.
func StratifiedKFold(labels []string, k int, seed uint64) [][]int {
	if k < 1 {
		return nil
	}
	folds := make([][]int, k)
	rng := newRand(seed)
	next := 0
	for _, idx := range byClass(labels) {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		for _, i := range idx {
			folds[next] = append(folds[next], i)
			next = (next + 1) % k
		}
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}

// FoldTrain appends to dst the indices of every fold except fold i, sorted:
// the training set that goes with test fold i.
func FoldTrain(dst []int, folds [][]int, i int) []int {
	start := len(dst)
	for j, f := range folds {
		if j != i {
			dst = append(dst, f...)
		}
	}
	slices.Sort(dst[start:])
	return dst
}

// StratifiedSample draws a labeled subset: round(frac·n) documents of each
// class of n (at least one when frac > 0, so every class is represented). It
// returns the sample and the rest, both sorted. For a labeled:unlabeled
// ratio of 1:50, use frac = 1.0/51.
func StratifiedSample(labels []string, frac float64, seed uint64) (sample, rest []int) {
	return stratifiedSample(byClass(labels), seed, func(n int) int {
		if frac > 0 {
			return max(share(n, frac), 1)
		}
		return 0
	})
}

// StratifiedSampleN draws perClass documents of each class (all of a class
// that has fewer) and returns the sample and the rest, both sorted.
func StratifiedSampleN(labels []string, perClass int, seed uint64) (sample, rest []int) {
	return stratifiedSample(byClass(labels), seed, func(n int) int { return min(max(perClass, 0), n) })
}

// stratifiedSample draws count(n) documents from each class group of n.
func stratifiedSample(classes [][]int, seed uint64, count func(n int) int) (sample, rest []int) {
	rng := newRand(seed)
	for _, idx := range classes {
		k := count(len(idx))
		// A partial Fisher–Yates shuffle picks k uniformly.
		for i := 0; i < k; i++ {
			j := i + rng.IntN(len(idx)-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
		sample = append(sample, idx[:k]...)
		rest = append(rest, idx[k:]...)
	}
	return sorted(sample), sorted(rest)
}

// Undersample returns a class-balanced subset: from every class as many
// documents, drawn at random, as the smallest class has. Sorted.
func Undersample(labels []string, seed uint64) []int {
	classes := byClass(labels)
	smallest := math.MaxInt
	for _, idx := range classes {
		smallest = min(smallest, len(idx))
	}
	sample, _ := stratifiedSample(classes, seed, func(int) int { return smallest })
	return sample
}

// byClass groups document indices by label, classes in sorted label order
// and indices ascending within a class, so that draws depend only on seed.
func byClass(labels []string) [][]int {
	pos := make(map[string]int)
	var names []string
	for _, l := range labels {
		if _, ok := pos[l]; !ok {
			pos[l] = 0
			names = append(names, l)
		}
	}
	slices.Sort(names)
	for i, n := range names {
		pos[n] = i
	}
	groups := make([][]int, len(names))
	for i, l := range labels {
		c := pos[l]
		groups[c] = append(groups[c], i)
	}
	return groups
}

func sorted(s []int) []int {
	slices.Sort(s)
	return s
}
