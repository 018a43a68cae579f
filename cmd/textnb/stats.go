package main

import (
	"fmt"
	"io"
	"os"

	facade "github.com/textnb/textnb"

	"github.com/textnb/textnb/corpus"
)

// writeDocFreqs is train --stats-only: the first pass of training in parts.
func writeDocFreqs(cfg facade.Config, path string, fields fieldFlags, out string, stdout io.Writer) error {
	c, err := facade.NewDocFreqCounter(cfg)
	if err != nil {
		return usageErr(err)
	}
	_, err = corpus.Walk(path, fields.options(false), func(d corpus.Document) error {
		return c.Add(d.Label, d.Text)
	})
	if err != nil {
		return err
	}
	d, err := c.DocFreqs()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := facade.SaveFile(out, d); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "counted %d documents, %d classes, %d terms\nwrote %s\n", d.Docs(), len(d.Classes), d.NumTerms(), out)
	return nil
}

func runStats(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			return runStatsMerge(args[1:], stdout, stderr)
		case "sum":
			return runStatsSum(args[1:], stdout, stderr)
		case "build":
			return runStatsBuild(args[1:], stdout, stderr)
		}
	}
	fmt.Fprint(stderr, `Usage: textnb stats merge|sum|build [flags]

Training in parts, on any number of machines (see docs/scale.md):
  textnb train PART --stats-only -o PART.df [train flags]   document frequencies of each part
  textnb stats merge -o ALL.df PART.df…                      merge them, parts in corpus order
  textnb stats sum --df ALL.df -o PART.sums PART             class sums of each part, weighted as a whole
  textnb stats build -o MODEL ALL.df PART.sums…              the model, as trained on all parts
`)
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		return nil
	}
	return fmt.Errorf("%w: want merge, sum or build", errUsage)
}

// readPart reads a file of training in parts with read.
func readPart[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return v, err
}

func readDocFreqs(path string) (*facade.DocFreqs, error) { return readPart(path, facade.ReadDocFreqs) }

func runStatsMerge(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("stats merge", "stats merge -o OUT PART.df…", stderr)
	out := fs.String("o", "", "write the merged document frequencies to this `file` (required)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(pos) < 1 {
		return fmt.Errorf("%w: need -o OUT and at least one file of document frequencies", errUsage)
	}
	var all *facade.DocFreqs
	for _, p := range pos {
		d, err := readDocFreqs(p)
		if err != nil {
			return err
		}
		if all == nil {
			all = d
		} else if all, err = facade.MergeDocFreqs(all, d); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	if err := facade.SaveFile(*out, all); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %d parts: %d documents, %d classes, %d terms\nwrote %s\n", len(pos), all.Docs(), len(all.Classes), all.NumTerms(), *out)
	return nil
}

func runStatsSum(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("stats sum", "stats sum --df ALL.df -o PART.sums PART", stderr)
	dfPath := fs.String("df", "", "the merged document frequencies of the whole corpus (required)")
	out := fs.String("o", "", "write the part's class sums to this `file` (required)")
	fields := corpusFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || *dfPath == "" || len(pos) != 1 {
		return fmt.Errorf("%w: need --df ALL.df, -o OUT and one PART", errUsage)
	}
	d, err := readDocFreqs(*dfPath)
	if err != nil {
		return err
	}
	p, err := d.Prepare()
	if err != nil {
		return fmt.Errorf("%s: %w", *dfPath, err)
	}
	s := p.NewSummer()
	n := 0
	_, err = corpus.Walk(pos[0], fields.options(false), func(doc corpus.Document) error {
		n++
		return s.Add(doc.Label, doc.Text)
	})
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	sums, err := s.Sums()
	if err != nil {
		return err
	}
	if err := facade.SaveFile(*out, sums); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "summed %d documents over %d features\nwrote %s\n", n, p.NumFeatures(), *out)
	return nil
}

func runStatsBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("stats build", "stats build -o MODEL ALL.df PART.sums…", stderr)
	out := fs.String("o", "", "write the model to this `file` (required)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *out == "" || len(pos) < 2 {
		return fmt.Errorf("%w: need -o MODEL, the merged document frequencies and at least one file of class sums", errUsage)
	}
	d, err := readDocFreqs(pos[0])
	if err != nil {
		return err
	}
	p, err := d.Prepare()
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	var total *facade.ClassSums
	for _, path := range pos[1:] {
		s, err := readPart(path, facade.ReadClassSums)
		if err != nil {
			return err
		}
		if total == nil {
			total = s
		} else if err = total.Add(s); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	m, err := p.Build(total)
	if err != nil {
		return err
	}
	if err := facade.SaveFile(*out, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "built %s from %d parts: %d classes, %d features (min_df %d)\nwrote %s\n",
		m.Config.Classifier, len(pos)-1, len(m.Classes), m.NumFeatures(), m.Config.Vocab.MinDF, *out)
	return nil
}
