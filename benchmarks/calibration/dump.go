package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
)

// dump writes the default configuration's k-fold held-out scores of each
// corpus to dir/NAME-kK.tsv, one document a line: its class, then its
// scores in the order of the classes on the first line, for comparing
// calibration methods (compare.py).
func dump(dir string, folds int, sets []dataset) error {
	for _, s := range sets {
		docs, err := s.train()
		if err != nil {
			return err
		}
		r, err := pipeline.CrossValidateDocs(pipeline.Config{}, pipeline.CVOptions{Folds: folds, Seed: 1, KeepScores: true}, docsOf(docs))
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s-k%d.tsv", s.name, folds)))
		if err != nil {
			return err
		}
		w := bufio.NewWriter(f)
		h := r.HeldOut
		fmt.Fprintf(w, "#%s\t%v\n", r.Config.Classifier, h.Classes)
		k := len(h.Classes)
		for i, c := range h.Labels {
			w.WriteString(strconv.Itoa(c))
			for _, v := range h.Scores[i*k : (i+1)*k] {
				w.WriteByte('\t')
				w.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			}
			w.WriteByte('\n')
		}
		if err := w.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		c, err := pipeline.FitCalibration(r)
		if err != nil {
			return err
		}
		fmt.Printf("%s %d folds: %v, T %.6g, CV log loss %.4f → %.4f\n", s.name, folds, r.Config.Classifier, c.Temperature, c.LogLossBefore, c.LogLossAfter)
	}
	return nil
}

// docsOf gives docs to pipeline functions that read a corpus.
func docsOf(docs []corpus.Document) pipeline.Docs {
	return func(yield func(label, text string) bool) error {
		for _, d := range docs {
			if !yield(d.Label, d.Text) {
				return nil
			}
		}
		return nil
	}
}
