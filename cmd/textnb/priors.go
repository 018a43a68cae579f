package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/nb"
)

// priorFlags are the prior-correction flags of predict and eval.
type priorFlags struct {
	list     *string
	estimate *bool
}

func newPriorFlags(fs *flag.FlagSet) priorFlags {
	return priorFlags{
		list: fs.String("priors", "", "correct the probabilities for the class priors `CLASS=P,…` of the input "+
			"(Saerens et al. 2002): every class once, each P > 0 (a class with prior 0 could never be predicted); "+
			"a sum off 1 by at most 0.01 is rescaled, a larger one is an error. The model's own priors are its training "+
			"class frequencies, or uniform for cnb (its scores leave the prior out)"),
		estimate: fs.Bool("estimate-priors", false, "estimate the class priors of the input by EM (Saerens et al. 2002), "+
			"print them first (\"# prior\" lines, or a first JSON object), then use them as --priors would; "+
			"holds every document's probabilities until the end"),
	}
}

// given reports whether a prior correction is asked for.
func (f priorFlags) given() bool { return *f.list != "" || *f.estimate }

// shift applies the prior correction asked for to predictions on their way
// to emit. When estimating, it holds them until finish.
type shift struct {
	classes  []string
	assumed  []float64      // the priors the model's probabilities assume
	correct  *nb.PriorShift // nil: leave the probabilities alone
	estimate bool
	held     []scored
	keepText bool                // held documents keep their text
	decide   func([]float64) int // the class of corrected probabilities
	emit     func(scored)
}

// shift returns the correction for a model with classes whose probabilities
// assume the priors assumed, and which decides its class from corrected
// probabilities by decide.
func (f priorFlags) shift(classes []string, assumed []float64, decide func([]float64) int, emit func(scored)) (*shift, error) {
	if assumed == nil && f.given() {
		return nil, fmt.Errorf("%w: --priors and --estimate-priors apply to single-label models", errUsage)
	}
	s := &shift{classes: classes, assumed: assumed, estimate: *f.estimate, decide: decide, emit: emit}
	if *f.list == "" {
		return s, nil
	}
	if s.estimate {
		return nil, fmt.Errorf("%w: --priors and --estimate-priors exclude each other", errUsage)
	}
	target, err := facade.ParsePriors(*f.list, classes)
	if err != nil {
		return nil, fmt.Errorf("%w: --priors: %v", errUsage, err)
	}
	if err := s.correctTo(target); err != nil {
		return nil, err
	}
	return s, nil
}

// correctTo makes s correct probabilities for the target priors.
func (s *shift) correctTo(target []float64) error {
	c, err := nb.NewPriorShift(s.assumed, target)
	if err != nil {
		return fmt.Errorf("prior correction: %w", err)
	}
	s.correct = &c
	return nil
}

// add takes one prediction, in input order.
func (s *shift) add(p scored) {
	switch {
	case s.estimate:
		if !s.keepText {
			p.doc.text = ""
		}
		s.held = append(s.held, p)
	case s.correct != nil:
		s.correct.Apply(p.Proba)
		p.Class = s.decide(p.Proba)
		s.emit(p)
	default:
		s.emit(p)
	}
}

// finish estimates the priors, prints them to w and emits the held
// predictions, when estimating; otherwise it does nothing.
func (s *shift) finish(w, stderr io.Writer, asJSON bool) error {
	if !s.estimate {
		return nil
	}
	if len(s.held) == 0 {
		return errors.New("--estimate-priors: no documents to estimate the priors from")
	}
	flat := make([]float64, 0, len(s.held)*len(s.classes))
	for _, p := range s.held {
		flat = append(flat, p.Proba...)
	}
	q, iter, err := nb.PriorEM{}.Estimate(flat, s.assumed)
	switch {
	case errors.Is(err, nb.ErrNotConverged):
		fmt.Fprintf(stderr, "textnb: warning: %v; using the last estimate\n", err)
	case err != nil:
		return fmt.Errorf("--estimate-priors: %w", err)
	}
	if err := printPriors(w, s.classes, q, iter, asJSON); err != nil {
		return err
	}
	if err := s.correctTo(q); err != nil {
		return err
	}
	s.estimate = false
	for _, p := range s.held {
		s.add(p)
	}
	s.held = nil
	return nil
}

// printPriors writes estimated priors: "# prior<TAB>class<TAB>p" lines and
// "# iterations<TAB>n", or one JSON object.
func printPriors(w io.Writer, classes []string, q []float64, iter int, asJSON bool) error {
	if asJSON {
		obj := struct {
			Priors     map[string]float64 `json:"priors"`
			Iterations int                `json:"iterations"`
		}{map[string]float64{}, iter}
		for c, name := range classes {
			obj.Priors[name] = q[c]
		}
		return printJSON(w, obj)
	}
	for c, name := range classes {
		fmt.Fprintf(w, "# prior\t%s\t%.6g\n", name, q[c])
	}
	_, err := fmt.Fprintf(w, "# iterations\t%d\n", iter)
	return err
}
