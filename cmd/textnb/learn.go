package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
)

// learnBatch bounds the documents, and learnBatchBytes their text, that
// learn holds before it hands them to the model at once.
const (
	learnBatch      = 4096
	learnBatchBytes = 64 << 20
)

func runLearn(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("learn", "learn -m MODEL [--label L] [--unlearn] [-o OUT] PATH…|-\n\n"+
		"Adds documents to a text model's counts and refits it, as if they had been in its training corpus\n"+
		"(docs/learn.md); --unlearn takes away documents learned by mistake. MODEL is replaced, as train -o\n"+
		"replaces a file, unless -o names another.\n\n"+
		"With --label every document read gets that label, and PATHs are read as predict reads them: a\n"+
		"folder holds one document per file, a .tsv, .csv or .jsonl file one per row, standard input one\n"+
		"per line, any other file is one document (mail decoded as the model's corpus was). Without\n"+
		"--label each PATH is a labeled corpus, read as train reads one (class folders, or line files with\n"+
		"a label column), and each document keeps its own label. A label the model lacks becomes a new\n"+
		"class, except for a calibrated model or one with a threshold", stderr)
	modelPath := fs.String("m", "", "model `file` to learn into (required)")
	out := fs.String("o", "", "write the learned model to this `file` instead of replacing MODEL")
	label := fs.String("label", "", "give every document this `label` (PATHs read as predict reads them)")
	unlearn := fs.Bool("unlearn", false, "take the documents away instead: each must have been learned (or trained on) with its label")
	format := fs.String("format", "", "with --label: read - and every file as tsv, csv, jsonl or lines, whatever their extension")
	quiet := fs.Bool("quiet", false, "print nothing on success")
	fields := corpusFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || len(pos) == 0 {
		return fmt.Errorf("%w: need -m MODEL and at least one PATH or - (see --help)", errUsage)
	}
	if *label == "" {
		if slices.Contains(pos, "-") {
			return fmt.Errorf("%w: - needs --label: standard input holds one document per line, without labels", errUsage)
		}
		if *format != "" {
			return fmt.Errorf("%w: --format needs --label: a labeled corpus is read by its extension, as train reads it", errUsage)
		}
	}
	target := *out
	if target == "" {
		target = *modelPath
	} else if err := checkOutput(target, pos...); err != nil {
		return err
	}
	if err := facade.CheckOutput(target); err != nil {
		return err
	}
	before, err := os.Stat(*modelPath)
	if err != nil {
		return err
	}
	c, err := openClassifier(*modelPath, &inputs{})
	if err != nil {
		return err
	}
	fm, err := c.text(*modelPath)
	if err != nil {
		return err
	}
	m := fm.Pipeline()
	l := &learning{m: fm, unlearn: *unlearn}
	if *label != "" {
		ro := rowOptions{corpus: corpus.Options{TextField: *fields.text}, stdin: stdin}
		fields.mail.apply(&ro.corpus)
		if *format != "" {
			if ro.corpus.Format, err = parseFormat(*format); err != nil {
				return usageErr(err)
			}
		}
		if m.TextField != "" && !givenFlags(fs)["text-field"] {
			ro.corpus.TextField = m.TextField
		}
		fields.mail.useStored(fs, &ro.corpus, m.MailInput, m.MailFeatures)
		for _, path := range pos {
			err := readDocs(path, ro, func(r row) error { return l.add(r.source, *label, r.text) })
			if err != nil {
				return err
			}
		}
	} else {
		opt := fields.options(false)
		fields.useStored(fs, &opt, c)
		for _, path := range pos {
			_, err := corpus.Walk(path, opt, func(d corpus.Document) error { return l.add(d.Source, d.Label, d.Text) })
			if err != nil {
				return err
			}
		}
	}
	if err := l.flush(); err != nil {
		return err
	}
	if target == *modelPath {
		// Replace only the file that was read: another learn or train may
		// have replaced it meanwhile, and its model would be lost.
		now, err := os.Stat(*modelPath)
		if err != nil || !os.SameFile(before, now) || !now.ModTime().Equal(before.ModTime()) || now.Size() != before.Size() {
			return fmt.Errorf("%s changed while learning: not replaced (learn again, or give -o)", *modelPath)
		}
	}
	if err := fm.Save(target); err != nil {
		return err
	}
	if !*quiet {
		verb := "learned"
		if *unlearn {
			verb = "unlearned"
		}
		fmt.Fprintf(stdout, "%s %d documents: %d classes, %d features\nwrote %s\n", verb, l.done, len(m.Classes), m.NumFeatures(), target)
		if n := m.Learned.NewClasses; len(n) > 0 && !*unlearn {
			fmt.Fprintf(stdout, "classes added since training: %q\n", n)
		}
	}
	return nil
}

// learning gathers documents into batches for the model.
type learning struct {
	m       *facade.Model
	unlearn bool
	batch   []facade.Document
	sources []string
	bytes   int
	done    int
}

// add queues one document, learning the batch when it is full.
func (l *learning) add(source, label, text string) error {
	l.batch = append(l.batch, facade.Document{Label: label, Text: text})
	l.sources = append(l.sources, source)
	if l.bytes += len(text); len(l.batch) >= learnBatch || l.bytes >= learnBatchBytes {
		return l.flush()
	}
	return nil
}

// flush learns the queued documents, naming the one that fails.
func (l *learning) flush() error {
	if len(l.batch) == 0 {
		return nil
	}
	var err error
	if l.unlearn {
		err = l.m.UnlearnBatch(l.batch)
	} else {
		err = l.m.LearnBatch(l.batch)
	}
	var de *facade.DocError
	switch {
	case errors.As(err, &de):
		return fmt.Errorf("%s: %w", plain(l.sources[de.Doc]), de.Err)
	case err != nil && len(l.batch) == 1:
		return fmt.Errorf("%s: %w", plain(l.sources[0]), err)
	case err != nil:
		return err
	}
	l.done += len(l.batch)
	l.batch, l.sources, l.bytes = l.batch[:0], l.sources[:0], 0
	return nil
}
