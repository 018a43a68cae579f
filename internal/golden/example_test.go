package golden_test

import (
	"fmt"

	"github.com/textnb/textnb/internal/golden"
)

func ExampleFile() {
	f, err := golden.Read()
	if err != nil {
		fmt.Println(err)
		return
	}
	_, ok := f.Find("gnb_iris")
	fmt.Println(ok, len(f.Hashing) > 0)
	// Output: true true
}

func ExampleCase() {
	f, err := golden.Read()
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := f.Find("gnb_iris")
	fmt.Println(c.Model, len(c.Theta) == len(c.Classes))
	// Output: GaussianNB true
}

func ExamplePriorShift() {
	f, err := golden.Read()
	if err != nil {
		fmt.Println(err)
		return
	}
	ps := f.PriorShift
	fmt.Println(len(ps.Adjusted) == len(ps.Posteriors), len(ps.NewPriors) == len(ps.TrainPriors))
	// Output: true true
}

func ExampleMurmur() {
	f, err := golden.Read()
	if err != nil {
		fmt.Println(err)
		return
	}
	m := f.Murmur[0]
	fmt.Println(uint32(m.Signed) == m.Unsigned)
	// Output: true
}
