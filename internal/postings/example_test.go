package postings_test

import (
	"fmt"

	"github.com/textnb/textnb/internal/postings"
	"github.com/textnb/textnb/internal/sparse"
)

func ExamplePostings() {
	X := sparse.FromDense([][]float64{{1, 1, 3}, {0, 1, 5}, {5, 4, 1}, {6, 6, 2}, {1, 4, 0}, {0, 0, 0}})
	y := []int{1, 1, 0, 0, 2, 2}
	p, err := postings.New(X, 0)
	if err != nil {
		panic(err)
	}
	scores, err := p.Chi2(y, 3)
	if err != nil {
		panic(err)
	}
	keep := postings.SelectTopK(scores, 2)
	S, _ := X.SelectColumns(keep)
	fmt.Printf("df %d, chi2 %.4f, keep %v, %d columns\n", p.DF(0), scores, keep, S.Cols)
	// Output: df 4, chi2 [15.3846 6.5000 8.9091], keep [0 2], 2 columns
}
