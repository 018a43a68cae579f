package main

import (
	"io"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/pipeline"
)

// A classifier is a model file of either kind as predict and eval use it:
// its classes, the priors its probabilities assume (for --priors), and a
// way to classify inputs. feed passes the predictions for the documents
// (text models) or rows (table models) at paths to emit, in order.
type classifier interface {
	classes() []string
	priors() []float64
	feed(paths []string, emit func(pipeline.Prediction)) error
}

// openClassifier loads the model file at path, reading it once. With
// fields (eval) the inputs are labeled corpora or tables, whose label
// column fields name; without (predict) they are unlabeled, and "-" reads
// standard input one document per line.
func openClassifier(path string, stdin io.Reader, fields *fieldFlags) (classifier, error) {
	m, t, err := pipeline.Open(path)
	switch {
	case err != nil:
		return nil, err
	case t != nil:
		c := tableClassifier{t: t}
		if fields != nil {
			c.labelField = *fields.label
		}
		return c, nil
	}
	return textClassifier{m: m, stdin: stdin, fields: fields}, nil
}

type textClassifier struct {
	m      *pipeline.Model
	stdin  io.Reader
	fields *fieldFlags // nil: unlabeled inputs
}

func (c textClassifier) classes() []string { return c.m.Classes }
func (c textClassifier) priors() []float64 { return c.m.PosteriorPriors() }

func (c textClassifier) feed(paths []string, emit func(pipeline.Prediction)) error {
	b := c.m.NewBatch(emit)
	var err error
	for _, path := range paths {
		if c.fields != nil {
			err = corpus.Walk(path, c.fields.options(false), func(d corpus.Document) error {
				b.Add(d.Source, d.Label, d.Text)
				return nil
			})
		} else {
			err = addInput(b, path, c.stdin)
		}
		if err != nil {
			break
		}
	}
	b.Close()
	return err
}

type tableClassifier struct {
	t          *pipeline.Table
	labelField string // "": unlabeled rows
}

func (c tableClassifier) classes() []string { return c.t.Classes }
func (c tableClassifier) priors() []float64 { return c.t.TrainingPriors() }

func (c tableClassifier) feed(paths []string, emit func(pipeline.Prediction)) error {
	for _, path := range paths {
		err := readRows(path, c.t, c.labelField, func(source, label string, x []float64) error {
			proba, best, err := c.t.Proba(nil, x)
			if err == nil {
				emit(pipeline.Prediction{Source: source, Truth: label, Class: best, Proba: proba})
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}
