// Package nbbeam trains textnb models with Apache Beam: on Prism in
// process, or on Flink, Spark or Dataflow (see docs/beam.md). It runs the
// two passes of training in parts (package shard, docs/scale.md): the
// document frequencies of every bundle, combined; then, with their merge
// as a side input, the weighted class sums of each bundle (or group of
// files), written to files beside the model; then the model, built from
// their sum and written to one file through any Beam filesystem.
package nbbeam

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/shard"
	"github.com/textnb/textnb/internal/textfile"
	"github.com/textnb/textnb/tokenize"
)

// Doc is one labeled document.
type Doc struct {
	Label, Text string
}

func init() {
	register.DoFn2x1[string, func(Doc), error](&parseLineFn{})
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(Doc), error](&readFileFn{})
	register.Emitter1[Doc]()
	register.DoFn2x1[Doc, func([]byte), error](&docFreqsFn{})
	register.DoFn4x1[context.Context, Doc, []byte, func([]string), error](&sumsFn{})
	register.Emitter1[[]byte]()
	register.Emitter1[[]string]()
	register.Combiner3[[]byte, []byte, []byte](&mergeDocFreqsFn{})
	register.Function2x1(joinPaths)
	register.DoFn3x1[context.Context, []string, []byte, error](&buildFn{})
}

// ReadLines reads line files: each line is a label, a tab and the text;
// a first line "label<TAB>text" is a header and skipped.
func ReadLines(s beam.Scope, glob string) beam.PCollection {
	s = s.Scope("ReadLines")
	return beam.ParDo(s, &parseLineFn{}, textio.Read(s, glob))
}

// ReadFolders reads one document per file, labeled with the name of the
// folder that holds it, decoded as textnb train decodes it (UTF-8, GB18030
// or Latin-1): glob is like "gs://bucket/train/*/*".
func ReadFolders(s beam.Scope, glob string) beam.PCollection {
	s = s.Scope("ReadFolders")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob))
	return beam.ParDo(s, &readFileFn{}, files)
}

type parseLineFn struct{}

func (*parseLineFn) ProcessElement(line string, emit func(Doc)) error {
	label, text, ok := strings.Cut(line, "\t")
	switch {
	case !ok:
		return fmt.Errorf("nbbeam: line %.40q has no tab between label and text", line)
	case label == "label" && text == "text":
		return nil // a header
	}
	emit(Doc{label, text})
	return nil
}

type readFileFn struct{}

func (*readFileFn) ProcessElement(ctx context.Context, f fileio.ReadableFile, emit func(Doc)) error {
	b, err := f.Read(ctx)
	if err != nil {
		return fmt.Errorf("nbbeam: %s: %w", f.Metadata.Path, err)
	}
	text, _ := textfile.Decode(b) // as textnb train decodes files
	emit(Doc{path.Base(path.Dir(f.Metadata.Path)), text})
	return nil
}

// Train adds the transforms that train a model with cfg on docs (a
// PCollection of Doc) and write it to out. cfg's language must be set
// (bundles could decide Lang Auto differently); semi-supervised training is
// refused.
func Train(s beam.Scope, cfg pipeline.Config, docs beam.PCollection, out string) error {
	if cfg.Tokenize.Lang == tokenize.Auto {
		return fmt.Errorf("nbbeam: set Config.Tokenize.Lang: bundles could decide auto differently")
	}
	if _, err := shard.NewDocFreqCounter(cfg); err != nil {
		return err
	}
	s = s.Scope("TrainTextNB")
	partDF := beam.ParDo(s, &docFreqsFn{Config: cfg}, docs)
	df := beam.Combine(s, &mergeDocFreqsFn{}, partDF)
	partSums := beam.ParDo(s, &sumsFn{Out: out, Job: newJobID()}, docs, beam.SideInput{Input: df})
	sums := beam.Combine(s, joinPaths, partSums)
	beam.ParDo0(s, &buildFn{Out: out}, sums, beam.SideInput{Input: df})
	return nil
}

// docFreqsFn counts the document frequencies of each bundle.
type docFreqsFn struct {
	Config pipeline.Config
	c      *shard.DocFreqCounter
}

func (f *docFreqsFn) StartBundle(_ func([]byte)) error {
	var err error
	f.c, err = shard.NewDocFreqCounter(f.Config)
	return err
}

// ProcessElement counts d; the bundle's statistics go out in FinishBundle.
func (f *docFreqsFn) ProcessElement(d Doc, _ func([]byte)) error {
	return f.c.Add(d.Label, d.Text)
}

func (f *docFreqsFn) FinishBundle(emit func([]byte)) error {
	d, err := f.c.DocFreqs()
	if err != nil {
		return err
	}
	f.c = nil
	if d.Docs() == 0 {
		return nil
	}
	b, err := encode(d)
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// mergeDocFreqsFn merges encoded DocFreqs. The accumulators are encoded
// too, so that they need no coder of their own.
type mergeDocFreqsFn struct{}

func (*mergeDocFreqsFn) CreateAccumulator() []byte { return nil }

func (f *mergeDocFreqsFn) AddInput(acc, in []byte) ([]byte, error) {
	return f.MergeAccumulators(acc, in)
}

func (*mergeDocFreqsFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	return mergeEncoded(a, b, shard.ReadDocFreqs, shard.MergeDocFreqs)
}

func (*mergeDocFreqsFn) ExtractOutput(acc []byte) ([]byte, error) {
	if len(acc) == 0 {
		return nil, nil
	}
	d, err := shard.ReadDocFreqs(bytes.NewReader(acc))
	if err != nil {
		return nil, err
	}
	sortClasses(d) // Beam merges bundles in no fixed order
	return encode(d)
}

// sortClasses puts d's classes in name order.
func sortClasses(d *shard.DocFreqs) {
	docs := map[string]int64{}
	for i, c := range d.Classes {
		docs[c] = d.ClassDocs[i]
	}
	slices.Sort(d.Classes)
	for i, c := range d.Classes {
		d.ClassDocs[i] = docs[c]
	}
}

// mergeEncoded decodes the accumulators a and b with read, merges them and
// encodes the result; an empty accumulator is the identity.
func mergeEncoded[T io.WriterTo](a, b []byte, read func(io.Reader) (T, error), merge func(T, T) (T, error)) ([]byte, error) {
	if len(a) == 0 {
		return b, nil
	}
	if len(b) == 0 {
		return a, nil
	}
	da, err := read(bytes.NewReader(a))
	if err != nil {
		return nil, err
	}
	db, err := read(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	d, err := merge(da, db)
	if err != nil {
		return nil, err
	}
	return encode(d)
}

func encode(v io.WriterTo) ([]byte, error) {
	var b bytes.Buffer
	_, err := v.WriteTo(&b)
	return b.Bytes(), err
}
