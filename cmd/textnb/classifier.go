package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/serve"
	"github.com/textnb/textnb/internal/table"
)

// A classifier is a model file of either kind as predict and eval use it:
// its classes, the priors its probabilities assume (for --priors), and a
// way to classify inputs. feed passes the predictions for the documents
// (text models) or rows (table models) at paths to emit, in order, with
// the documents; eval's text model takes its documents from its read-ahead
// of those paths.
type classifier interface {
	classes() []string
	priors() []float64
	fields() (label, text string)   // the training corpus's columns, if not the usual ones
	mail() (input, features string) // how the training corpus's mail was read; "" for text
	feed(paths []string, emit func(scored)) error
}

// scored is a document with its prediction.
type scored struct {
	facade.PipelinePrediction
	doc row
}

// inputs says how predict and eval read what they classify.
type inputs struct {
	labeled bool           // eval: corpora or tables with true labels
	fields  corpus.Options // eval: their label (and text) columns
	rows    rowOptions     // predict, text models: how to read files and "-"
	ahead   *readAhead     // eval, text models: the corpus, read while the model loads
}

// openClassifier loads the model file at path, reading it once. The
// classifier reads its inputs as in says when it feeds them.
func openClassifier(path string, in *inputs) (classifier, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() >= largeModel {
		reserveHugePages()
	}
	m, t, err := openSingle(path)
	switch {
	case err != nil:
		return nil, err
	case t != nil:
		return tableClassifier{t, in}, nil
	}
	return textClassifier{m, in}, nil
}

// openSingle reads a text or a table model file, once. The commands that
// take a multi-label model look for one first (isMultiModel), so one here
// is refused by kind, naming the file.
func openSingle(path string) (*facade.Pipeline, *table.Table, error) {
	a, err := serve.Open(path)
	if err == nil && a.Multi != nil {
		err = fmt.Errorf("%s: %w: the file holds a %v, not a text or table model", path, modelfile.ErrKind, modelfile.MultiLabelModel)
	}
	return a.Text, a.Table, err
}

type textClassifier struct {
	m  *facade.Pipeline
	in *inputs
}

func (c textClassifier) classes() []string            { return c.m.Classes }
func (c textClassifier) priors() []float64            { return c.m.PosteriorPriors() }
func (c textClassifier) fields() (label, text string) { return c.m.LabelField, c.m.TextField }
func (c textClassifier) mail() (input, features string) {
	return c.m.MailInput, c.m.MailFeatures
}

// feed classifies eval's corpus as its read-ahead delivers it (paths are
// what it reads), or predict's inputs at paths.
func (c textClassifier) feed(paths []string, emit func(scored)) error {
	var docs queue[row]
	b := c.m.NewBatch(func(p facade.PipelinePrediction) { emit(scored{p, docs.pop()}) })
	defer b.Close()
	if c.in.ahead != nil {
		return c.in.ahead.each(func(d corpus.Document) {
			docs.push(row{source: d.Source, text: d.Text})
			b.Add(d.Source, d.Label, d.Text)
		})
	}
	for _, path := range paths {
		err := readDocs(path, c.in.rows, func(r row) error {
			docs.push(r)
			b.Add(r.source, "", r.text)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

type tableClassifier struct {
	t  *table.Table
	in *inputs
}

func (c tableClassifier) classes() []string              { return c.t.Classes }
func (c tableClassifier) priors() []float64              { return c.t.TrainingPriors() }
func (c tableClassifier) fields() (label, text string)   { return c.t.LabelField, "" }
func (c tableClassifier) mail() (input, features string) { return "", "" }

func (c tableClassifier) feed(paths []string, emit func(scored)) error {
	labelField := "" // predict: rows without labels
	if c.in.labeled {
		labelField = c.in.fields.LabelField
	}
	for _, path := range paths {
		err := readRows(path, c.t, labelField, func(line int, label string, x []float64) error {
			source := path + ":" + strconv.Itoa(line)
			proba, best, err := c.t.Proba(nil, x)
			if err != nil {
				return fmt.Errorf("%s: %w", source, err)
			}
			emit(scored{facade.PipelinePrediction{Source: source, Truth: label, Class: best, Proba: proba}, row{source: source, file: path, line: line}})
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// queue carries what predict and eval know of each document from where it
// is added to a Batch to where its prediction comes out, in the same order,
// on another goroutine.
type queue[T any] struct {
	mu    sync.Mutex
	items []T
	head  int
}

func (q *queue[T]) push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
}

func (q *queue[T]) pop() T {
	q.mu.Lock()
	defer q.mu.Unlock()
	v := q.items[q.head]
	var zero T
	q.items[q.head] = zero
	q.head++
	if q.head > 1024 && q.head*2 > len(q.items) {
		q.items = append(q.items[:0], q.items[q.head:]...)
		q.head = 0
	}
	return v
}
