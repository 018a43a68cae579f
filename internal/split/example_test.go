package split_test

import (
	"fmt"

	"github.com/textnb/textnb/internal/split"
)

func ExampleSplit() {
	train, test := split.Split(10, 0.2, 42)
	fmt.Println(len(train), len(test))
	// Output: 8 2
}

func ExampleStratifiedKFold() {
	labels := []string{"a", "a", "a", "a", "b", "b", "b", "b"}
	folds := split.StratifiedKFold(labels, 2, 1)
	for i, f := range folds {
		n := map[string]int{}
		for _, j := range f {
			n[labels[j]]++
		}
		fmt.Println("fold", i, n, "train size", len(split.FoldTrain(nil, folds, i)))
	}
	// Output:
	// fold 0 map[a:2 b:2] train size 4
	// fold 1 map[a:2 b:2] train size 4
}

func ExampleStratifiedSample() {
	// 2 labeled documents per 100: every class keeps at least one.
	labels := make([]string, 0, 153)
	for i := range 150 {
		labels = append(labels, []string{"x", "y"}[i%2])
	}
	labels = append(labels, "z", "z", "z")
	labeled, unlabeled := split.StratifiedSample(labels, 0.02, 1)
	fmt.Println(len(labeled), len(unlabeled))
	// Output: 5 148
}

func ExampleUndersample() {
	labels := []string{"big", "big", "big", "big", "small", "small"}
	keep := split.Undersample(labels, 3)
	fmt.Println(len(keep))
	// Output: 4
}
