package main

import (
	"fmt"
	"os"
	"strconv"
	"sync"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/nb"
)

// A classifier is a model file of any kind as the commands use it: the
// facade's Classifier and what the commands need beyond it. openClassifier
// is the one place that tells the kinds apart; the commands call the
// methods, which do for each kind what it means.
type classifier interface {
	facade.Classifier
	// priors returns the priors its probabilities assume, for --priors;
	// nil: the kind takes no prior correction (multi-label).
	priors() []float64
	fields() (label, text string)   // the training corpus's columns, if not the usual ones
	mail() (input, features string) // how the training corpus's mail was read; "" for text
	// setThreshold makes the model decide by --threshold, if given.
	setThreshold(v *thresholdValue) error
	// decide returns the class of (corrected) probabilities.
	decide(proba []float64) int
	// feed passes the predictions for the documents (text models) or
	// rows (table models) at paths to emit, in order, with the documents;
	// eval's text model takes its documents from its read-ahead of paths.
	feed(paths []string, emit func(scored)) error
	// explainer returns what explains a prediction by its top terms (0:
	// all), used on one goroutine; nil if the kind has no terms.
	explainer(top int) func(s scored) any
	// text returns the text model that learn updates, or an error saying
	// what the file at path holds instead.
	text(path string) (*facade.Model, error)
	// explainText and describe tell textnb explain and inspect what to
	// print, with the top terms (0: all) and of each class (0: none).
	explainText(path, text string, top int) (explanation, error)
	describe(top int) (description, error)
	// evaluate is textnb eval.
	evaluate(e *evalRun) error
}

// scored is a document with its prediction.
type scored struct {
	facade.PipelinePrediction
	labels []int // a multi-label model's labels, most probable first; nil for the others
	doc    row
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
	c, err := facade.Open(path)
	if err != nil {
		return nil, err
	}
	switch c := c.(type) {
	case *facade.Model:
		return textClassifier{c, c.Pipeline(), in}, nil
	case *facade.Table:
		return tableClassifier{c, in}, nil
	case *facade.MultiLabel:
		return multiClassifier{c, c.Pipeline(), in}, nil
	}
	return nil, fmt.Errorf("%s: a %v, which the commands do not know", path, c.Kind())
}

type textClassifier struct {
	*facade.Model
	m  *facade.Pipeline
	in *inputs
}

func (c textClassifier) priors() []float64                    { return c.Priors() }
func (c textClassifier) fields() (label, text string)         { return c.m.LabelField, c.m.TextField }
func (c textClassifier) mail() (input, features string)       { return c.m.MailInput, c.m.MailFeatures }
func (c textClassifier) decide(proba []float64) int           { return c.m.Decide(proba) }
func (c textClassifier) text(string) (*facade.Model, error)   { return c.Model, nil }
func (c textClassifier) setThreshold(v *thresholdValue) error { return v.apply(c.m) }

func (c textClassifier) explainer(top int) func(s scored) any {
	p := c.m.NewPredictor()
	return func(s scored) any {
		e := p.Explain(s.doc.text).Cut(s.Proba, top)
		return &e
	}
}

// feed classifies eval's corpus as its read-ahead delivers it (paths are
// what it reads), or predict's inputs at paths.
func (c textClassifier) feed(paths []string, emit func(scored)) error {
	var docs queue[row]
	b := c.m.NewBatch(func(p facade.PipelinePrediction) { emit(scored{PipelinePrediction: p, doc: docs.pop()}) })
	defer b.Close()
	if c.in.ahead != nil {
		return c.in.ahead.each(func(d corpus.Document) {
			docs.push(row{source: d.Source, text: d.Text})
			b.Add(d.Source, d.Label, d.Text)
		})
	}
	return eachDoc(paths, c.in.rows, func(r row) {
		docs.push(r)
		b.Add(r.source, "", r.text)
	})
}

// eachDoc calls add for every document at paths, as predict reads them.
func eachDoc(paths []string, o rowOptions, add func(row)) error {
	for _, path := range paths {
		if err := readDocs(path, o, func(r row) error { add(r); return nil }); err != nil {
			return err
		}
	}
	return nil
}

type tableClassifier struct {
	*facade.Table
	in *inputs
}

func (c tableClassifier) priors() []float64                    { return c.Priors() }
func (c tableClassifier) fields() (label, text string)         { return c.LabelField(), "" }
func (c tableClassifier) mail() (input, features string)       { return "", "" }
func (c tableClassifier) decide(proba []float64) int           { return nb.Argmax(proba) }
func (c tableClassifier) explainer(int) func(scored) any       { return nil }
func (c tableClassifier) setThreshold(v *thresholdValue) error { return refuseThreshold(v) }
func (c tableClassifier) text(path string) (*facade.Model, error) {
	return nil, fmt.Errorf("%w: %s is a table model: learn updates text models", errUsage, path)
}

func (c tableClassifier) feed(paths []string, emit func(scored)) error {
	labelField := "" // predict: rows without labels
	if o := c.in.rows.corpus; c.in.labeled {
		labelField = c.in.fields.LabelField
	} else if c.in.rows.wantsFields() || o.Format != corpus.FormatAuto || o.TextField != "text" {
		return errTextOnly
	}
	for _, path := range paths {
		err := c.PredictRows(path, labelField, func(line int, label string, proba []float64, best int) error {
			source := path + ":" + strconv.Itoa(line)
			emit(scored{PipelinePrediction: facade.PipelinePrediction{Source: source, Truth: label, Class: best, Proba: proba}, doc: row{source: source, file: path, line: line}})
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

type multiClassifier struct {
	*facade.MultiLabel
	m  *facade.MultiLabelPipeline
	in *inputs
}

func (c multiClassifier) priors() []float64            { return nil }
func (c multiClassifier) fields() (label, text string) { return "", "" }

// mail: a multi-label model reads its inputs as its training corpus was
// read, by default.
func (c multiClassifier) mail() (input, features string) { return corpus.InputAuto.String(), "" }
func (c multiClassifier) decide(proba []float64) int     { return nb.Argmax(proba) }
func (c multiClassifier) text(path string) (*facade.Model, error) {
	return nil, fmt.Errorf("%w: %s is a multi-label model: learn updates single-label text models", errUsage, path)
}

// setThreshold checks --threshold P, which predict applies to every label.
func (c multiClassifier) setThreshold(v *thresholdValue) error {
	if v.label != "" {
		return fmt.Errorf("%w: --threshold %s: a multi-label model takes one probability P for every label", errUsage, v)
	}
	if v.given && !(v.p >= 0 && v.p <= 1) {
		return fmt.Errorf("%w: --threshold %g: want a probability", errUsage, v.p)
	}
	return nil
}

func (c multiClassifier) explainer(top int) func(s scored) any {
	p := c.m.NewPredictor()
	return func(s scored) any {
		es := p.Explain(s.doc.text, s.labels)
		for i := range es {
			es[i].Terms, _, _ = es[i].Top(top)
		}
		return es
	}
}

func (c multiClassifier) feed(paths []string, emit func(scored)) error {
	if len(c.in.rows.corpus.Fields) > 0 {
		return fmt.Errorf("%w: --keep-fields applies to single-label models", errUsage)
	}
	b := c.m.NewBatch(func(p facade.MultiLabelPrediction) {
		labels := p.Labels
		if labels == nil {
			labels = []int{} // none, but a multi-label prediction
		}
		emit(scored{PipelinePrediction: facade.PipelinePrediction{Source: p.Source, Proba: p.Proba}, labels: labels, doc: row{source: p.Source, text: p.Text}})
	})
	defer b.Close()
	return eachDoc(paths, c.in.rows, func(r row) { b.Add(r.source, nil, r.text) })
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
