package nbbeam

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/shard"
)

// The second pass's class sums can be as large as the model: with the
// hashing vectorizer nearly every cell of a large corpus is non-zero (20
// classes × 2^20 columns: 160 MB). So they do not travel through the
// runner as elements, which it would hold for the shuffle and which the
// SDK encodes again to sample their size: each part's sums are written to
// a file beside the model, and only its name travels; the build adds the
// files into one table, one at a time, and removes them once the model
// is written.

// sumsFn weights each bundle's documents with the merged document
// frequencies and writes their class sums.
type sumsFn struct {
	// Out is the model's path; Job tells this pipeline's files of sums
	// from another's beside the same model.
	Out, Job string
	df       []byte
	p        *shard.Prepared
	sum      *shard.Summer
}

// ProcessElement adds d to the bundle's sums, which go out in FinishBundle.
func (f *sumsFn) ProcessElement(_ context.Context, d Doc, df []byte, _ func([]string)) error {
	return f.add(d, df)
}

func (f *sumsFn) add(d Doc, df []byte) error {
	if f.p == nil || !bytes.Equal(f.df, df) {
		dfs, err := shard.ReadDocFreqs(bytes.NewReader(df))
		if err != nil {
			return err
		}
		if f.p, err = dfs.Prepare(); err != nil {
			return err
		}
		f.df = df
	}
	if f.sum == nil {
		f.sum = f.p.NewSummer()
	}
	return f.sum.Add(d.Label, d.Text)
}

func (f *sumsFn) FinishBundle(ctx context.Context, _ []byte, emit func([]string)) error {
	return f.flush(ctx, rand.Text(), emit)
}

// flush writes the sums so far to the file of part id and emits its name.
func (f *sumsFn) flush(ctx context.Context, id string, emit func([]string)) error {
	if f.sum == nil {
		return nil
	}
	s, err := f.sum.Sums()
	f.sum = nil
	if err != nil {
		return err
	}
	p := f.Out + ".sums-" + f.Job + "-" + id
	if err := writeModel(ctx, p, s); err != nil {
		removeSums(ctx, []string{p})
		return fmt.Errorf("nbbeam: writing class sums %s: %w", p, err)
	}
	emit([]string{p})
	collect()
	return nil
}

// collect runs the garbage collector where a table as large as the model
// has just become garbage: otherwise the heap would grow by as much again
// before the collector ran (GOGC), and a worker's peak with it.
func collect() { runtime.GC() }

// newJobID returns a name for one pipeline's files of sums.
func newJobID() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// joinPaths gathers the names of the files of sums.
func joinPaths(a, b []string) []string { return append(slices.Clip(a), b...) }

// readSums reads the file of sums p.
func readSums(ctx context.Context, p string) (*shard.ClassSums, error) {
	var r io.ReadCloser
	if remote(p) {
		fsys, err := filesystem.New(ctx, p)
		if err != nil {
			return nil, err
		}
		defer fsys.Close()
		if r, err = fsys.OpenRead(ctx, p); err != nil {
			return nil, err
		}
	} else {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("nbbeam: class sums: %w", err)
		}
		r = f
	}
	defer r.Close()
	s, err := shard.ReadClassSums(r)
	if err != nil {
		return nil, fmt.Errorf("nbbeam: %s: %w", p, err)
	}
	return s, nil
}

// removeSums removes the files of sums, where the filesystem can.
func removeSums(ctx context.Context, paths []string) {
	for _, p := range paths {
		if !remote(p) {
			os.Remove(p)
			continue
		}
		fsys, err := filesystem.New(ctx, p)
		if err != nil {
			continue
		}
		if rm, ok := fsys.(filesystem.Remover); ok {
			rm.Remove(ctx, p)
		}
		fsys.Close()
	}
}

// buildFn builds the model from the files of sums and writes it.
type buildFn struct {
	Out string
}

func (f *buildFn) ProcessElement(ctx context.Context, sums []string, df []byte) error {
	m, err := build(ctx, sums, df)
	if err != nil {
		return err
	}
	if err := writeModel(ctx, f.Out, m); err != nil {
		return err
	}
	removeSums(ctx, sums)
	return nil
}

// build makes the model from the files of sums, added in name order, and
// the encoded document frequencies.
func build(ctx context.Context, sums []string, df []byte) (*pipeline.Model, error) {
	dfs, err := shard.ReadDocFreqs(bytes.NewReader(df))
	if err != nil {
		return nil, err
	}
	p, err := dfs.Prepare()
	if err != nil {
		return nil, err
	}
	sums = slices.Sorted(slices.Values(sums))
	var total *shard.ClassSums
	for _, path := range sums {
		s, err := readSums(ctx, path)
		if err != nil {
			return nil, err
		}
		if total == nil {
			total = s
			continue
		}
		if err := total.Add(s); err != nil {
			return nil, err
		}
		collect()
	}
	return p.Build(total) // none: Build says so
}
