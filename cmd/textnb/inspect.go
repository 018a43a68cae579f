package main

import (
	"fmt"
	"io"
)

func runInspect(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("inspect", "inspect MODEL [--top N] [--json]\n\n"+
		"Prints a model's settings, its classes with their training documents and priors, and each class's\n"+
		"most indicative terms: by the classifier's own weights, and by smoothed log-odds against the other\n"+
		"classes. For a table model, each class's mean and spread (gaussian) or most probable category\n"+
		"(categorical) of every column. For a multi-label model, its multi-label settings, each label's\n"+
		"training documents and threshold, and its most indicative terms by its binary model's weights", stderr)
	top := fs.Int("top", 10, "list the N most indicative terms of each class (0: none)")
	asJSON := fs.Bool("json", false, "print the description as one JSON object")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: need one MODEL (see --help)", errUsage)
	}
	if *top < 0 {
		return fmt.Errorf("%w: --top %d: want N ≥ 0", errUsage, *top)
	}
	c, err := openClassifier(pos[0], &inputs{})
	if err != nil {
		return err
	}
	info, err := c.describe(*top)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *asJSON {
		return printJSON(stdout, info)
	}
	return info.WriteText(stdout, pos[0])
}

// description is what inspect prints of a model file.
type description interface {
	WriteText(w io.Writer, path string) error
}

func (c textClassifier) describe(top int) (description, error)  { return c.Inspect(top) }
func (c tableClassifier) describe(top int) (description, error) { return c.Inspect(top) }

// describe: a multi-label model's own settings and thresholds, which the
// facade's Info leaves out.
func (c multiClassifier) describe(top int) (description, error) { return c.m.Inspect(top) }
