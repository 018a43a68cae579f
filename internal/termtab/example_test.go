package termtab_test

import (
	"fmt"

	"github.com/textnb/textnb/internal/termtab"
)

func ExampleTable() {
	var tab termtab.Table
	for _, w := range []string{"to", "be", "or", "not", "to", "be"} {
		fmt.Print(tab.Intern(w), " ")
	}
	fmt.Println(tab.Len(), tab.Term(3))
	// Output: 0 1 2 3 0 1 4 not
}

func ExamplePacked() {
	p := termtab.Packed{Bytes: []byte("naivebayes"), Ends: []int{5, 10}}
	fmt.Println(p.Len(), p.Term(0), p.Term(1), p.TermLen(1), p.Strings())
	// Output: 2 naive bayes 5 [naive bayes]
}
