package pipeline

import (
	"errors"
	"testing"
)

// Issue 22: every Add that takes labels refuses an empty one, as the CLI
// does, and a trainer used after Finish says so.
func TestAddRefusesEmptyLabel(t *testing.T) {
	tr, err := NewTrainer(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Add("", "no label"); !errors.Is(err, ErrEmptyLabel) {
		t.Errorf("Trainer.Add: %v, want ErrEmptyLabel", err)
	}
	for _, d := range tinyDocs {
		if err := tr.Add(d.Label, d.Text); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := tr.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := tr.Add("sport", "late"); !errors.Is(err, ErrFinished) {
		t.Errorf("Trainer.Add after Finish: %v, want ErrFinished", err)
	}
}
