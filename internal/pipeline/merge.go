package pipeline

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/textnb/textnb/internal/compact"
	"github.com/textnb/textnb/internal/vocab"
)

// ErrMerge: models cannot be merged (different settings, or weights that
// depend on the whole corpus).
var ErrMerge = fmt.Errorf("%w: models cannot be merged", ErrConfig)

// Merge combines models trained with the same configuration on disjoint
// parts of a corpus into the model trained on their union: counts add up
// exactly, and the classifier is refitted from them. Vocabulary models are
// remapped onto the union of their vocabularies; hashing models share their
// columns already. Classes are the union of the models' classes, in order
// of first appearance.
//
// Only models whose counts do not depend on corpus-wide statistics merge:
// raw counts (Weighting RawCounts, or Bernoulli), no pruning by document
// frequency (min_df 1, no max_df or max_features). The merged model is
// not calibrated, whether the models were or not.
func Merge(models ...*Model) (*Model, error) {
	if len(models) == 0 {
		return nil, fmt.Errorf("%w: nothing to merge", ErrMerge)
	}
	for i, m := range models {
		if err := m.readLocked(func() {}); err != nil { // counts of what it learned
			return nil, err
		}
		if err := checkClassNames(m.Classes); err != nil {
			return nil, fmt.Errorf("%w: model %d: %v", ErrMerge, i+1, err)
		}
		if err := mergeable(m); err != nil {
			return nil, fmt.Errorf("model %d: %w", i+1, err)
		}
		if setting, v1, v := configDifference(models[0], m); setting != "" {
			return nil, fmt.Errorf("%w: %s is %v in model 1 but %v in model %d", ErrMerge, setting, v1, v, i+1)
		}
	}
	out := &Model{Config: models[0].Config, an: models[0].an, hash: models[0].hash}
	out.Config.Calibrate = false // a calibration is of its model's scores, not of the merged counts'
	for _, m := range models {
		for _, c := range m.Classes {
			if !slices.Contains(out.Classes, c) {
				out.Classes = append(out.Classes, c)
			}
		}
	}
	var err error
	for _, m := range models {
		if out.counts, err = out.add(m); err != nil {
			return nil, err
		}
	}
	if err := out.refit(); err != nil {
		return nil, err
	}
	// Counts that each load can sum beyond float64's range together.
	if err := out.lin.CheckWeights(); err != nil {
		return nil, fmt.Errorf("%w: the merged counts give %v", ErrMerge, err)
	}
	return out, nil
}

// mergeable reports why m's counts cannot be added to another model's.
func mergeable(m *Model) error {
	v := m.Config.Vocab
	switch {
	case m.reweighted():
		return fmt.Errorf("%w (%d passes); train the parts with --reweight none", ErrReweighted, m.Config.Reweight)
	case m.weight != nil:
		return fmt.Errorf("%w: it is weighted by %v, whose IDF depends on the whole corpus; train the parts with --weighting counts",
			ErrMerge, m.Config.Weighting)
	case m.vocab != nil && (v.MinDF > 1 || v.MaxDF != 0 && v.MaxDF < 1 || v.MaxFeatures > 0):
		return fmt.Errorf("%w: its vocabulary was pruned (min_df %d, max_df %g, max_features %d); train the parts with --min-df 1",
			ErrMerge, v.MinDF, v.MaxDF, v.MaxFeatures)
	}
	return nil
}

// configDifference names the first setting in which a and b differ, with
// its value in each.
func configDifference(a, b *Model) (setting string, va, vb any) {
	if a.Config.Tokenize.Lang != b.Config.Tokenize.Lang {
		return "language", a.Config.Tokenize.Lang, b.Config.Tokenize.Lang
	}
	ca, cb := a.Config, b.Config
	ca.Calibrate, cb.Calibrate = false, false // Merge drops calibrations
	if setting, va, vb = fieldDifference("", reflect.ValueOf(ca), reflect.ValueOf(cb)); setting != "" {
		return setting, va, vb
	}
	if a.NumFeatures() != b.NumFeatures() && a.vocab == nil {
		return "hashing columns", a.NumFeatures(), b.NumFeatures()
	}
	return "", nil, nil
}

// fieldDifference compares two structs field by field, into the fields of
// nested structs that do not print themselves.
func fieldDifference(prefix string, a, b reflect.Value) (string, any, any) {
	for i := 0; i < a.NumField(); i++ {
		fa, fb := a.Field(i).Interface(), b.Field(i).Interface()
		if reflect.DeepEqual(fa, fb) {
			continue
		}
		name := prefix + a.Type().Field(i).Name
		if _, ok := fa.(fmt.Stringer); !ok && a.Field(i).Kind() == reflect.Struct {
			return fieldDifference(name+".", a.Field(i), b.Field(i))
		}
		return name, fa, fb
	}
	return "", nil, nil
}

// add returns out's counts plus m's, remapping m's classes and columns.
func (out *Model) add(m *Model) (*compact.Counts, error) {
	c, err := m.fittedCounts()
	if err != nil {
		return nil, err
	}
	classMap := make([]int, len(m.Classes))
	for i, name := range m.Classes {
		classMap[i] = slices.Index(out.Classes, name)
	}
	if c, err = c.RemapClasses(len(out.Classes), classMap); err != nil {
		return nil, err
	}
	if out.counts == nil && m.vocab == nil {
		return c, nil
	}
	if m.vocab == nil {
		return compact.Merge(out.counts, c)
	}
	if out.vocab == nil {
		out.vocab = m.vocab
		return c, nil
	}
	union, fromOut, fromM := vocab.MergeVocabularies(out.vocab, m.vocab)
	mine, err := out.counts.Remap(union.Len(), fromOut)
	if err != nil {
		return nil, err
	}
	theirs, err := c.Remap(union.Len(), fromM)
	if err != nil {
		return nil, err
	}
	out.vocab = union
	return compact.Merge(mine, theirs)
}
