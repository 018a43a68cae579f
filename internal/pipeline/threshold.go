package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/textnb/textnb/nb"
)

// Threshold is a two-class model's decision rule: predict Class (an index
// into Model.Classes) iff its probability is at least P, else the other
// class. A model without one predicts its most probable class.
type Threshold struct {
	Class int
	P     float64
}

// ErrThreshold reports a threshold a model cannot take.
var ErrThreshold = errors.New("invalid decision threshold")

// Decide returns the class t decides for a two-class model's
// probabilities.
func (t Threshold) Decide(proba []float64) int {
	if proba[t.Class] >= t.P {
		return t.Class
	}
	return 1 - t.Class
}

// NewThreshold returns the threshold of m's class label at p: m must have
// two classes, label be one of them and p be a probability from 0 to 1.
func (m *Model) NewThreshold(label string, p float64) (Threshold, error) {
	return newThreshold(m.Classes, label, p)
}

func newThreshold(classes []string, label string, p float64) (Threshold, error) {
	c := slices.Index(classes, label)
	switch {
	case len(classes) != 2:
		return Threshold{}, fmt.Errorf("%w: the model has %d classes; a threshold decides between two", ErrThreshold, len(classes))
	case c < 0:
		return Threshold{}, fmt.Errorf("%w: %q is not a class of the model (%s)", ErrThreshold, label, strings.Join(classes, ", "))
	case !(p >= 0 && p <= 1):
		return Threshold{}, fmt.Errorf("%w: %s=%g: want a probability from 0 to 1", ErrThreshold, label, p)
	}
	return Threshold{Class: c, P: p}, nil
}

// parseThreshold reads "LABEL=P" as a threshold of m; LABEL is everything
// before the last "=".
func (m *Model) parseThreshold(s string) (Threshold, error) {
	i := strings.LastIndexByte(s, '=')
	if i < 0 {
		return Threshold{}, fmt.Errorf("%w: %q: want LABEL=P", ErrThreshold, s)
	}
	p, err := strconv.ParseFloat(s[i+1:], 64)
	if err != nil {
		return Threshold{}, fmt.Errorf("%w: %q: want LABEL=P with P a number", ErrThreshold, s)
	}
	return m.NewThreshold(s[:i], p)
}

// String returns t as "LABEL=P", LABEL the class's name in classes and P
// the shortest decimal that reads back as t.P.
func (t Threshold) String(classes []string) string {
	return classes[t.Class] + "=" + strconv.FormatFloat(t.P, 'g', -1, 64)
}

// Decide returns the class m predicts from the probabilities of its
// classes: by its Threshold if it has one, else the most probable (ties:
// the first).
func (m *Model) Decide(proba []float64) int {
	if m.Threshold != nil {
		return m.Threshold.Decide(proba)
	}
	return nb.Argmax(proba)
}

// fileThreshold is a Threshold in a model file's header.
type fileThreshold struct {
	Class string  `json:"class"`
	P     float64 `json:"p"`
}
