package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	facade "github.com/textnb/textnb"
)

func runMerge(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("merge", "merge -o OUT MODEL MODEL…", stderr)
	out := fs.String("o", "", "write the merged model to this `file` (required): created or replaced, keeping its mode; a symbolic link's target is replaced")
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
	models := make([]*facade.Pipeline, len(pos))
	for i, p := range pos {
		m, err := facade.Load(p)
		if err != nil {
			return err
		}
		models[i] = m.Pipeline()
	}
	m, err := facade.Merge(models...)
	if err != nil {
		return namedModels(err, pos)
	}
	m.LabelField, m.TextField = models[0].LabelField, models[0].TextField
	m.MailInput, m.MailFeatures = models[0].MailInput, models[0].MailFeatures
	if err := facade.SaveFile(*out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %d models: %d classes, %d features\nwrote %s\n", len(models), len(m.Classes), m.NumFeatures(), *out)
	return nil
}

// namedModels replaces the "model N" of Merge's errors, which count the
// models from 1 in the order given, with their files.
func namedModels(err error, paths []string) error {
	msg := err.Error()
	for i := len(paths); i >= 1; i-- { // "model 12" before "model 1"
		msg = strings.ReplaceAll(msg, "model "+strconv.Itoa(i), paths[i-1])
	}
	return reworded{msg, err}
}

// reworded is an error with a new message that still unwraps to the old.
type reworded struct {
	msg string
	err error
}

func (r reworded) Error() string { return r.msg }
func (r reworded) Unwrap() error { return r.err }
