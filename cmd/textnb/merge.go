package main

import (
	"fmt"
	"io"

	"github.com/textnb/textnb/pipeline"
)

func runMerge(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("merge", "merge -o OUT MODEL MODEL…", stderr)
	out := fs.String("o", "", "write the merged model to this `file` (required)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(pos) < 2 {
		return fmt.Errorf("%w: need -o OUT and at least two models (see --help)", errUsage)
	}
	if err := checkOutput(*out, pos...); err != nil {
		return err
	}
	models := make([]*pipeline.Model, len(pos))
	for i, p := range pos {
		if models[i], err = pipeline.Load(p); err != nil {
			return err
		}
	}
	m, err := pipeline.Merge(models...)
	if err != nil {
		return err
	}
	if err := pipeline.Save(*out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %d models: %d classes, %d features\nwrote %s\n", len(models), len(m.Classes), m.NumFeatures(), *out)
	return nil
}
