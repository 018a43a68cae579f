package shard

import (
	"errors"
	"testing"

	"github.com/textnb/textnb/internal/pipeline"
)

// Issue 22: every Add that takes labels refuses an empty one, as the CLI
// does.
func TestAddRefusesEmptyLabel(t *testing.T) {
	tinyDocs := []labeled{{"sport", "the team won the game"}, {"tech", "the new chip runs faster"}}
	c, err := NewDocFreqCounter(pipeline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Add("", "no label"); !errors.Is(err, pipeline.ErrEmptyLabel) {
		t.Errorf("DocFreqCounter.Add: %v, want pipeline.ErrEmptyLabel", err)
	}
	for _, d := range tinyDocs {
		if err := c.Add(d.label, d.text); err != nil {
			t.Fatal(err)
		}
	}
	d, err := c.DocFreqs()
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.NewSummer().Add("", "no label"); !errors.Is(err, pipeline.ErrEmptyLabel) {
		t.Errorf("Summer.Add: %v, want pipeline.ErrEmptyLabel", err)
	}
}
