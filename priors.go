package textnb

import "github.com/textnb/textnb/internal/priors"

// ErrPriors: a list of class priors is malformed or does not fit the
// model's classes.
var ErrPriors = priors.ErrPriors

// ParsePriors reads class priors written as "spam=0.1,ham=0.9" (the
// --priors of textnb predict and eval) in the order of classes. Every
// class is given once, with a finite prior above 0; a sum off 1 by at most
// 0.01 is rescaled, a larger one is refused. A name ends at the last "=".
// Errors wrap ErrPriors. nb.NewPriorShift corrects a model's probabilities
// (which assume Model.Priors or Table.Priors) for them.
func ParsePriors(s string, classes []string) ([]float64, error) { return priors.Parse(s, classes) }

// Priors returns the class priors that m's probabilities assume: its
// training class frequencies, or uniform for Complement NB, whose scores
// leave the prior out.
func (m *Model) Priors() []float64 { return m.m.PosteriorPriors() }

// Priors returns the class priors that t's probabilities assume: its
// training class frequencies.
func (t *Table) Priors() []float64 { return t.t.TrainingPriors() }
