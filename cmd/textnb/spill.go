package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	facade "github.com/textnb/textnb"
)

// spillFlags set where training writes document rows that outgrow memory.
type spillFlags struct {
	dir, mem *string
}

func newSpillFlags(fs *flag.FlagSet) spillFlags {
	return spillFlags{
		dir: fs.String("spill-dir", "", "write document rows that outgrow --spill-mem to a temporary file in this `dir` (default $TMPDIR)"),
		mem: fs.String("spill-mem", "", "memory document rows may take before training writes them to a file: `size` like 256M or 2G, or off "+
			"(default 96M); the model is the same either way"),
	}
}

// apply passes the flags to tr.
func (f spillFlags) apply(tr *facade.Trainer) error {
	limit, err := parseSize(*f.mem)
	if err != nil {
		return fmt.Errorf("%w: --spill-mem %v", errUsage, err)
	}
	tr.SpillRows(*f.dir, limit)
	return nil
}

// parseSize reads a byte count with an optional K, M or G suffix (powers
// of 1024); "" is 0 (the default) and "off" is −1.
func parseSize(s string) (int, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "":
		return 0, nil
	case "off":
		return -1, nil
	}
	shift := 0
	switch s[len(s)-1] {
	case 'k', 'K':
		shift = 10
	case 'm', 'M':
		shift = 20
	case 'g', 'G':
		shift = 30
	}
	if shift > 0 {
		s = s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 1<<(62-shift) {
		return 0, fmt.Errorf("%q: want a size like 256M or 2G, or off", s)
	}
	return n << shift, nil
}
