package pipeline_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/testkit"
	"github.com/textnb/textnb/internal/textcore"
)

// core is pipeline's machinery, whose multi-label decoder gives the
// text model of a multi-label model file, and so its terms.
var core = textcore.Get[pipeline.Config, *pipeline.Model, *pipeline.Trainer]()

// The model-file tests reach package multilabel through
// pipeline.MultiLabel.
func init() {
	pipeline.MultiLabel.Files = multiFiles
	pipeline.MultiLabel.Decode = func(data []byte) error { _, err := decodeMulti(data); return err }
	pipeline.MultiLabel.Check = checkMultiFile
}

func multiFiles(t testing.TB, docs []corpus.MultiDocument) map[string][]byte {
	out := map[string][]byte{}
	for name, c := range map[string]struct {
		cfg pipeline.Config
		mc  multilabel.Config
	}{
		"multi-complement": {pipeline.Config{}, multilabel.Config{Folds: 2}},
		"multi-odds": {pipeline.Config{Classifier: pipeline.Multinomial, Weighting: pipeline.RawCounts},
			multilabel.Config{Score: multilabel.OddsScore, Folds: 2, AllowEmpty: true}},
	} {
		tr, err := multilabel.NewTrainer(c.cfg, c.mc)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if err := tr.Add(d.Labels, d.Text); err != nil {
				t.Fatal(err)
			}
		}
		mm, _, err := tr.Finish()
		if err != nil {
			t.Fatal(err)
		}
		out[name] = testkit.Encode(t, mm)
	}
	return out
}

// decodeMulti decodes a multi-label model file through a file, as
// multilabel.Load reads one.
func decodeMulti(data []byte) (*multilabel.Model, error) {
	dir, err := os.MkdirTemp("", "multi")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "m.model")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return nil, err
	}
	return multilabel.Load(path)
}

func checkMultiFile(data []byte) (decodeErr, bad error) {
	mm, err := decodeMulti(data)
	if err != nil {
		return err, nil
	}
	k := len(mm.Labels)
	if len(mm.Thresholds) != k || slices.ContainsFunc(mm.Thresholds, hostile.NotProbability) {
		return nil, fmt.Errorf("thresholds %v for %d labels", mm.Thresholds, k)
	}
	docs := []string{"", "the team won the game", "salt salt salt pepper chip"}
	if m, _, _, err := core.DecodeMulti(data); err == nil && m.Terms() != nil {
		docs = append(docs, strings.Join(m.Terms(), " "))
	}
	p := mm.NewPredictor()
	for _, doc := range docs {
		proba := p.Proba(nil, doc)
		var sum float64
		for _, v := range proba {
			sum += v
		}
		if len(proba) != k || slices.ContainsFunc(proba, hostile.NotProbability) ||
			mm.Multi.Score == multilabel.ComplementScore && (sum < 1-1e-6 || sum > 1+1e-6) {
			return nil, fmt.Errorf("%q: %d probabilities %v for %d labels, summing to %g", doc, len(proba), proba, k, sum)
		}
		got := p.Decide(nil, proba)
		seen := make([]bool, k)
		for _, l := range got {
			if l < 0 || l >= k || seen[l] {
				return nil, fmt.Errorf("%q: decided %v of %d labels", doc, got, k)
			}
			seen[l] = true
		}
		if len(got) == 0 && !mm.Multi.AllowEmpty {
			return nil, fmt.Errorf("%q: no label decided, %v", doc, proba)
		}
	}
	// What decodes encodes again (unless its counts, decoded only now, are
	// damaged) to a file that decodes.
	var b bytes.Buffer
	if _, err := mm.WriteTo(&b); err == nil {
		if _, err := decodeMulti(b.Bytes()); err != nil {
			return nil, fmt.Errorf("encoded again: %v", err)
		}
	} else if !errors.Is(err, pipeline.ErrDamaged) {
		return nil, fmt.Errorf("WriteTo: %v", err)
	}
	return nil, nil
}
