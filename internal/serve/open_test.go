package serve_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/hostile"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/multilabel"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/serve"
	"github.com/textnb/textnb/internal/table"
	"github.com/textnb/textnb/internal/testkit"
)

// trainText returns a text model trained on testdata/news/train.
func trainText(t testing.TB) *pipeline.Model {
	t.Helper()
	tr, err := pipeline.NewTrainer(pipeline.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.Walk("../../testdata/news/train", corpus.Options{}, func(d corpus.Document) error {
		tr.Add(d.Label, d.Text)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	m, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// trainTable returns a table model trained on testdata/models/iris.csv.
func trainTable(t testing.TB, cfg table.Config) *table.Table {
	t.Helper()
	data, err := table.Read("../../testdata/models/iris.csv", "species")
	if err != nil {
		t.Fatal(err)
	}
	m, err := table.Train(data, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A table model is written as version 1, which it has not outgrown, so
// that builds older than version 2 still read it; a text model as the
// newest version.
func TestVersionWrittenPerKind(t *testing.T) {
	m := trainText(t)
	for _, c := range []struct {
		model io.WriterTo
		want  uint32
	}{{m, modelfile.FormatVersion}, {trainTable(t, table.Config{Kind: table.Gaussian}), 1}} {
		if got := binary.LittleEndian.Uint32(testkit.Encode(t, c.model)[len(modelfile.Magic):]); got != c.want {
			t.Errorf("%T written as version %d, want %d", c.model, got, c.want)
		}
	}
}

func TestPeekKind(t *testing.T) {
	dir := t.TempDir()
	text, tablePath, other := filepath.Join(dir, "text.model"), filepath.Join(dir, "table.model"), filepath.Join(dir, "notes.txt")
	m := trainText(t)
	if err := modelfile.Save(text, m); err != nil {
		t.Fatal(err)
	}
	if err := modelfile.Save(tablePath, trainTable(t, table.Config{Kind: table.Gaussian})); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte("not a model, though long enough"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]modelfile.Kind{text: modelfile.TextModel, tablePath: modelfile.TableModel} {
		if got, err := modelfile.PeekKind(path); got != want || err != nil {
			t.Errorf("modelfile.PeekKind(%s) = %v, %v; want %v", path, got, err, want)
		}
	}
	if _, err := modelfile.PeekKind(other); !errors.Is(err, modelfile.ErrFormat) || !strings.Contains(err.Error(), other) {
		t.Errorf("PeekKind of a text file: %v, want modelfile.ErrFormat naming it", err)
	}
	if _, err := modelfile.PeekKind(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("PeekKind of a missing file: %v, want fs.ErrNotExist", err)
	}
}

func TestOpenEitherKind(t *testing.T) {
	dir := t.TempDir()
	text, tablePath := filepath.Join(dir, "text.model"), filepath.Join(dir, "table.model")
	m := trainText(t)
	tab := trainTable(t, table.Config{Kind: table.Gaussian})
	if err := modelfile.Save(text, m); err != nil {
		t.Fatal(err)
	}
	if err := modelfile.Save(tablePath, tab); err != nil {
		t.Fatal(err)
	}
	a, err := serve.Open(text)
	gotM, gotT := a.Text, a.Table
	if err != nil || gotM == nil || gotT != nil || a.Multi != nil || !slices.Equal(gotM.Classes, m.Classes) {
		t.Fatalf("serve.Open(text model) = %+v, %v", a, err)
	}
	const doc = "the engine needs oil and the game went to overtime"
	if a, b := fmt.Sprint(m.NewPredictor().Proba(nil, doc)), fmt.Sprint(gotM.NewPredictor().Proba(nil, doc)); a != b {
		t.Errorf("opened text model gives %s, trained %s", b, a)
	}
	a, err = serve.Open(tablePath)
	gotM, gotT = a.Text, a.Table
	if err != nil || gotM != nil || gotT == nil || a.Multi != nil || !slices.Equal(gotT.Classes, tab.Classes) {
		t.Fatalf("serve.Open(table model) = %+v, %v", a, err)
	}
	x := []float64{5, 3, 1, 2}
	want, wantBest, errA := tab.Proba(nil, x)
	got, gotBest, errB := gotT.Proba(nil, x)
	if errA != nil || errB != nil || gotBest != wantBest || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("opened table model gives %v (%d, %v), trained %v (%d, %v)", got, gotBest, errB, want, wantBest, errA)
	}
	// A container of a kind this build does not know is refused by kind; a
	// checked container of a known kind whose payload is not a model fails
	// in decoding. Either error names the file.
	for _, tc := range []struct {
		kind    modelfile.Kind
		payload string
		want    error
	}{{modelfile.Kind(7), "", modelfile.ErrKind}, {modelfile.TextModel, "not a model", modelfile.ErrFormat}, {modelfile.TableModel, "not a model", modelfile.ErrFormat}} {
		path := writeContainer(t, dir, tc.kind, tc.payload)
		if a, err := serve.Open(path); a != (serve.Any{}) || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("serve.Open(%v holding %q) = %+v, %v; want %v naming the file", tc.kind, tc.payload, a, err, tc.want)
		}
	}
}

// writeContainer writes hostile.Container into a file in dir.
func writeContainer(t *testing.T, dir string, kind modelfile.Kind, payload string) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("kind%d.model", kind))
	if err := os.WriteFile(path, hostile.Container(t, kind, payload), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Open refuses what is not a model of a known kind as Load does, naming
// the file.
func TestOpenRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := testkit.Encode(t, trainText(t))
	flip := bytes.Clone(good)
	flip[len(flip)/2] ^= 0x40
	version := bytes.Clone(good)
	version[len(modelfile.Magic)] = 99
	// A text model's payload in a container that says multi-label: Open
	// reads the kind, whose decoding finds no multi-label header.
	multi := bytes.Clone(good)
	binary.LittleEndian.PutUint32(multi[len(modelfile.Magic)+4:], uint32(modelfile.MultiLabelModel))
	binary.LittleEndian.PutUint32(multi[len(multi)-4:], modelfile.Checksum(multi[:len(multi)-4]))
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, modelfile.ErrNotModel},
		{"foreign", []byte("#!/bin/sh\necho this is not a model\n"), modelfile.ErrNotModel},
		{"truncated", good[:len(good)/3], modelfile.ErrChecksum},
		{"magic only", []byte(modelfile.Magic), modelfile.ErrDamaged},
		{"corrupted", flip, modelfile.ErrChecksum},
		{"future version", version, modelfile.ErrVersion},
		{"text labelled multi-label", multi, modelfile.ErrDamaged},
	} {
		path := filepath.Join(dir, "bad.model")
		if err := os.WriteFile(path, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if a, err := serve.Open(path); !errors.Is(err, tc.want) || a != (serve.Any{}) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Open = %+v, %v; want %v naming the file", tc.name, a, err, tc.want)
		}
	}
	if _, err := serve.Open(dir); !errors.Is(err, modelfile.ErrNotModel) || !strings.Contains(err.Error(), dir) {
		t.Errorf("Open of a folder: %v, want ErrNotModel naming it", err)
	}
	if _, err := serve.Open(filepath.Join(dir, "missing.model")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing file: %v", err)
	}
	if _, err := table.Load(dir); !errors.Is(err, modelfile.ErrNotModel) {
		t.Errorf("table.Load of a folder: %v, want ErrNotModel", err)
	}
}

// trainMulti returns a multi-label model trained on testdata/multilabel.jsonl.
func trainMulti(t testing.TB) *multilabel.Model {
	t.Helper()
	tr, err := multilabel.NewTrainer(pipeline.Config{}, multilabel.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := corpus.WalkMulti("../../testdata/multilabel.jsonl", corpus.Options{}, func(d corpus.MultiDocument) error {
		return tr.Add(d.Labels, d.Text)
	}); err != nil {
		t.Fatal(err)
	}
	mm, _, err := tr.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return mm
}

// Open reads the three kinds.
func TestOpenMultiLabel(t *testing.T) {
	dir := t.TempDir()
	multi, text := filepath.Join(dir, "multi.model"), filepath.Join(dir, "text.model")
	mm := trainMulti(t)
	if err := modelfile.Save(multi, mm); err != nil {
		t.Fatal(err)
	}
	if err := modelfile.Save(text, trainText(t)); err != nil {
		t.Fatal(err)
	}
	a, err := serve.Open(multi)
	if err != nil || a.Multi == nil || a.Text != nil || a.Table != nil || !slices.Equal(a.Multi.Labels, mm.Labels) ||
		!slices.Equal(a.Multi.Thresholds, mm.Thresholds) {
		t.Fatalf("Open(multi-label model) = %+v, %v", a, err)
	}
	const doc = "the striker scored a late goal in the cup final"
	if want, got := fmt.Sprint(mm.NewPredictor().Proba(nil, doc)), fmt.Sprint(a.Multi.NewPredictor().Proba(nil, doc)); got != want {
		t.Errorf("opened multi-label model gives %s, trained %s", got, want)
	}
	if a, err := serve.Open(text); err != nil || a.Text == nil || a.Multi != nil {
		t.Errorf("Open(text model) = %+v, %v", a, err)
	}
	for _, tc := range []struct {
		kind    modelfile.Kind
		payload string
		want    error
	}{{modelfile.Kind(7), "", modelfile.ErrKind}, {modelfile.MultiLabelModel, "not a model", modelfile.ErrFormat}} {
		path := writeContainer(t, dir, tc.kind, tc.payload)
		if a, err := serve.Open(path); a != (serve.Any{}) || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("Open(%v holding %q) = %+v, %v; want %v naming the file", tc.kind, tc.payload, a, err, tc.want)
		}
	}
}
