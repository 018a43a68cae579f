package pipeline

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
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
// raw counts (Weighting Counts, or Bernoulli), no pruning by document
// frequency (min_df 1, no max_df or max_features).
func Merge(models ...*Model) (*Model, error) {
	if len(models) == 0 {
		return nil, fmt.Errorf("%w: nothing to merge", ErrMerge)
	}
	for i, m := range models {
		if err := mergeable(m); err != nil {
			return nil, fmt.Errorf("model %d: %w", i+1, err)
		}
		if d := configDifference(models[0], m); d != "" {
			return nil, fmt.Errorf("%w: model %d differs from model 1 in %s", ErrMerge, i+1, d)
		}
	}
	out := &Model{Config: models[0].Config, an: models[0].an, hash: models[0].hash}
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
	return out, out.refit()
}

// mergeable reports why m's counts cannot be added to another model's.
func mergeable(m *Model) error {
	v := m.Config.Vocab
	switch {
	case m.weight != nil:
		return fmt.Errorf("%w: it is weighted by %v, whose IDF depends on the whole corpus; train the parts with --weighting counts",
			ErrMerge, m.Config.Weighting)
	case m.vocab != nil && (v.MinDF > 1 || v.MaxDF != 0 && v.MaxDF < 1 || v.MaxFeatures > 0):
		return fmt.Errorf("%w: its vocabulary was pruned (min_df %d, max_df %g, max_features %d); train the parts with --min-df 1",
			ErrMerge, v.MinDF, v.MaxDF, v.MaxFeatures)
	}
	return nil
}

// configDifference names the first setting in which a and b differ.
func configDifference(a, b *Model) string {
	if a.Lang() != b.Lang() {
		return fmt.Sprintf("language (%v, %v)", a.Lang(), b.Lang())
	}
	if d := fieldDifference(a.Config, b.Config); d != "" {
		return d
	}
	if a.NumFeatures() != b.NumFeatures() && a.vocab == nil {
		return fmt.Sprintf("hashing columns (%d, %d)", a.NumFeatures(), b.NumFeatures())
	}
	return ""
}

// fieldDifference names the first field in which a and b differ.
func fieldDifference(a, b Config) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := 0; i < va.NumField(); i++ {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return fmt.Sprintf("%s (%v, %v)", va.Type().Field(i).Name, va.Field(i).Interface(), vb.Field(i).Interface())
		}
	}
	return ""
}

// add returns out's counts plus m's, remapping m's classes and columns.
func (out *Model) add(m *Model) (*nb.SparseCounts, error) {
	c, err := m.Counts()
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
		return out.counts.Merge(c)
	}
	if out.vocab == nil {
		out.vocab = m.vocab
		return c, nil
	}
	union, fromOut, fromM := vectorize.MergeVocabularies(out.vocab, m.vocab)
	mine, err := out.counts.Remap(union.Len(), fromOut)
	if err != nil {
		return nil, err
	}
	theirs, err := c.Remap(union.Len(), fromM)
	if err != nil {
		return nil, err
	}
	out.vocab = union
	return mine.Merge(theirs)
}
