package main

import (
	"fmt"
	"os"

	facade "github.com/textnb/textnb"
)

// checkOutput refuses, before any work, an -o that Save could not write or
// that names one of the inputs (through links too), which the model would
// replace.
func checkOutput(out string, inputs ...string) error {
	if err := facade.CheckOutput(out); err != nil {
		return err
	}
	oi, err := os.Stat(out)
	if err != nil {
		return nil // a new file
	}
	for _, in := range inputs {
		if ii, err := os.Stat(in); err == nil && os.SameFile(oi, ii) {
			return fmt.Errorf("%w: -o %s is the input %s: the model would replace it; name another file", errUsage, out, in)
		}
	}
	return nil
}
