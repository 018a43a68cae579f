package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	facade "github.com/textnb/textnb"
)

// thresholdValue is a --threshold: a bare probability P (multi-label
// models; train's snb self-training), or LABEL=P, the decision threshold
// of a two-class text model: LABEL iff p(LABEL) ≥ P, else the other class.
type thresholdValue struct {
	label string // "" for a bare P
	p     float64
	given bool
}

func (v *thresholdValue) String() string {
	if v == nil || !v.given {
		return ""
	}
	s := strconv.FormatFloat(v.p, 'g', -1, 64)
	if v.label != "" {
		s = v.label + "=" + s
	}
	return s
}

func (v *thresholdValue) Set(s string) error {
	label, num := "", s
	if i := strings.LastIndexByte(s, '='); i >= 0 {
		label, num = s[:i], s[i+1:]
		if label == "" {
			return errors.New("want LABEL=P or P")
		}
	}
	p, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return errors.New("want LABEL=P or P, P a number")
	}
	*v = thresholdValue{label: label, p: p, given: true}
	return nil
}

// thresholdFlag is predict's and eval's --threshold.
func thresholdFlag(fs *flag.FlagSet) *thresholdValue {
	return newThresholdFlag(fs, "`LABEL=P`: a two-class text model predicts LABEL iff its probability is at least P, else the other class, "+
		"instead of the most probable class or the threshold train stored; P alone, for multi-label models: "+
		"every label with at least this probability instead of those above their learned thresholds")
}

// decisionFlag is train's --threshold: snb's, or the model's decision
// threshold.
func decisionFlag(fs *flag.FlagSet) *thresholdValue {
	return newThresholdFlag(fs, "`LABEL=P`: store the decision threshold of a two-class model in it: predict, eval and serve then "+
		"predict LABEL iff its probability is at least P, else the other class; P alone: snb's minimum top probability "+
		"to pseudo-label a document (default 0.9)")
}

func newThresholdFlag(fs *flag.FlagSet, usage string) *thresholdValue {
	v := new(thresholdValue)
	fs.Var(v, "threshold", usage)
	return v
}

// storeDecision gives m train's decision threshold, if --threshold LABEL=P
// named one.
func storeDecision(v *thresholdValue, m *facade.Pipeline) error {
	if v.label == "" {
		return nil
	}
	return v.apply(m)
}

// apply gives the text model m the decision threshold v names, if v gives
// one.
func (v *thresholdValue) apply(m *facade.Pipeline) error {
	switch {
	case !v.given:
		return nil
	case v.label == "" && len(m.Classes) != 2:
		return fmt.Errorf("%w: --threshold %g: P alone applies to multi-label models, LABEL=P to two-class text models; this one has %d classes",
			errUsage, v.p, len(m.Classes))
	case v.label == "":
		return fmt.Errorf("%w: --threshold %g: P alone applies to multi-label models; a two-class text model takes LABEL=P, as --threshold %s=%g",
			errUsage, v.p, plain(m.Classes[0]), v.p)
	}
	t, err := m.NewThreshold(v.label, v.p)
	if err != nil {
		return fmt.Errorf("%w: --threshold: %v", errUsage, err)
	}
	m.Threshold = &t
	return nil
}

// refuseThreshold refuses --threshold for a model that takes none.
func refuseThreshold(v *thresholdValue) error {
	if v.given {
		return fmt.Errorf("%w: --threshold applies to text models", errUsage)
	}
	return nil
}

// lookupThreshold returns fs's --threshold, if it has one.
func lookupThreshold(fs *flag.FlagSet) (*thresholdValue, bool) {
	if f := fs.Lookup("threshold"); f != nil {
		v, ok := f.Value.(*thresholdValue)
		return v, ok
	}
	return nil, false
}
