package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	facade "github.com/textnb/textnb"
)

// reportErrors is the number of documents eval --report lists, unless
// --errors says.
const reportErrors = 25

// checkReportPath refuses, before any work, a report path that is not a
// regular file, is in no folder, or names one of the command's inputs.
func checkReportPath(path string, inputs ...string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := facade.CheckOutput(path); err != nil { // where SaveFile will write it
			return fmt.Errorf("%w: --report %s: its folder does not exist", errUsage, path)
		}
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: --report %s: not a regular file", errUsage, path)
	}
	for _, in := range inputs {
		if other, err := os.Stat(in); err == nil && os.SameFile(fi, other) {
			return fmt.Errorf("%w: --report %s would overwrite the input %s", errUsage, path, in)
		}
	}
	return nil
}

// worstDocs keeps the k documents with the most label errors (earlier
// documents first among equals), in O(k) per document with errors.
type worstDocs struct {
	k, n int
	docs []worstDoc
}

type worstDoc struct {
	facade.ReportDoc
	errors, n int // label errors; the document's rank in the corpus
}

func (w *worstDocs) add(labels []string, p facade.MultiLabelPrediction) {
	w.n++
	truth := slices.Compact(slices.Sorted(slices.Values(p.Truth)))
	e := worstDoc{n: w.n}
	for _, l := range p.Labels {
		if !slices.Contains(truth, labels[l]) {
			e.errors++
		}
	}
	for _, t := range truth {
		if !slices.ContainsFunc(p.Labels, func(l int) bool { return labels[l] == t }) {
			e.errors++
		}
	}
	if e.errors == 0 {
		return
	}
	if len(w.docs) == w.k && w.docs[w.k-1].errors >= e.errors {
		return
	}
	e.ReportDoc = facade.ReportDoc{Source: p.Source, Truth: slices.Clone(p.Truth), Predicted: slices.Clone(p.Labels), Proba: slices.Clone(p.Proba)}
	i, _ := slices.BinarySearchFunc(w.docs, e, func(a, b worstDoc) int {
		return cmp.Or(cmp.Compare(b.errors, a.errors), cmp.Compare(a.n, b.n))
	})
	w.docs = slices.Insert(w.docs, i, e)
	w.docs = w.docs[:min(len(w.docs), w.k)]
}

// reportDocs returns the documents kept, most label errors first.
func (w *worstDocs) reportDocs() []facade.ReportDoc {
	docs := make([]facade.ReportDoc, len(w.docs))
	for i, d := range w.docs {
		docs[i] = d.ReportDoc
	}
	return docs
}
