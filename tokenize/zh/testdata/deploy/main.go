// Command deploy segments its arguments with zh.Default and prints the words
// separated by spaces, one line per argument. The deployment test builds
// and runs it with no module cache.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/textnb/textnb/tokenize/zh"
)

func main() {
	if err := zh.Default().Load(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, arg := range os.Args[1:] {
		fmt.Println(strings.Join(zh.Default().Cut(nil, arg), " "))
	}
}
