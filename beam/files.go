package nbbeam

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/shard"
	"github.com/textnb/textnb/internal/textcore"
	"github.com/textnb/textnb/internal/tokencore"
	"github.com/textnb/textnb/tokenize"
)

// File is one file of a corpus, read as textnb train reads it (package
// corpus): a file of a class folder, whose documents (the file, or a mail
// file's messages) take Label, or, with Label "", a line file (.tsv, .csv,
// .jsonl, .ndjson) whose lines carry their labels. Path is on any Beam
// filesystem.
type File struct {
	Path, Label string
}

// ErrInput: an input names nothing that can be trained on.
var ErrInput = errors.New("nbbeam: input")

// lineFile reports a file read line by line: the formats whose documents
// carry their labels.
func lineFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".tsv", ".csv", ".jsonl", ".ndjson":
		return true
	}
	return false
}

// remote reports a path with a filesystem scheme (gs://, memfs://).
func remote(p string) bool { return strings.Contains(p, "://") }

// ListFiles lists the files of inputs, each a local folder of class
// folders (read as textnb train reads one: sorted, hidden entries and a
// Maildir's tmp skipped), a line file, or a glob of either on any Beam
// filesystem; a glob's files that are not line files are labeled by the
// folder that holds them ("gs://bucket/train/*/*").
func ListFiles(ctx context.Context, inputs []string) ([]File, error) {
	var files []File
	for _, in := range inputs {
		var err error
		switch {
		case strings.ContainsAny(in, "*?["):
			files, err = listGlob(ctx, files, in)
		case remote(in) && lineFile(in):
			files = append(files, File{Path: in})
		case remote(in):
			err = fmt.Errorf("%w: %s: give a line file or a glob of files such as %s/*/*", ErrInput, in, strings.TrimSuffix(in, "/"))
		default:
			files, err = listLocal(files, in)
		}
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

func listGlob(ctx context.Context, dst []File, glob string) ([]File, error) {
	fsys, err := filesystem.New(ctx, glob)
	if err != nil {
		return dst, fmt.Errorf("%w: %s: %v", ErrInput, glob, err)
	}
	defer fsys.Close()
	names, err := fsys.List(ctx, glob)
	if err != nil {
		return dst, fmt.Errorf("%w: %s: %v", ErrInput, glob, err)
	}
	slices.Sort(names)
	n := 0
	for _, name := range names {
		if !remote(name) {
			if info, err := os.Stat(name); err != nil || !info.Mode().IsRegular() || hidden(filepath.Base(name)) {
				continue // folders of a glob such as train/*
			}
		}
		if lineFile(name) {
			dst = append(dst, File{Path: name})
		} else {
			dst = append(dst, File{Path: name, Label: path.Base(path.Dir(filepath.ToSlash(name)))})
		}
		n++
	}
	if n == 0 {
		return dst, fmt.Errorf("%w: %s matches no file", ErrInput, glob)
	}
	return dst, nil
}

func hidden(name string) bool { return strings.HasPrefix(name, ".") }

// listLocal appends the files of the local corpus at p.
func listLocal(dst []File, p string) ([]File, error) {
	info, err := os.Stat(p)
	if err != nil {
		return dst, fmt.Errorf("%w: %v", ErrInput, err)
	}
	if !info.IsDir() {
		if !lineFile(p) {
			return dst, fmt.Errorf("%w: %s: %w: want a folder of class folders, a .tsv, .csv, .jsonl or .ndjson file, or a glob", ErrInput, p, corpus.ErrUnsupported)
		}
		return append(dst, File{Path: p}), nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return dst, fmt.Errorf("%w: %v", ErrInput, err)
	}
	maildir := isMaildir(entries)
	for _, e := range entries {
		if hidden(e.Name()) || maildir && e.Name() == "tmp" {
			continue
		}
		sub := filepath.Join(p, e.Name())
		info, err := os.Stat(sub)
		switch {
		case err != nil:
			return dst, fmt.Errorf("%w: %v", ErrInput, err)
		case info.IsDir():
			n := len(dst)
			if dst, err = listClass(dst, sub, e.Name()); err != nil {
				return dst, err
			}
			if len(dst) == n {
				return dst, fmt.Errorf("%w: %w: %s", ErrInput, corpus.ErrEmptyClass, sub)
			}
		case info.Mode().IsRegular():
			return dst, fmt.Errorf("%w: %w: %s: file in the root of a labeled corpus (put it in a class folder)", ErrInput, corpus.ErrUnsupported, sub)
		}
	}
	return dst, nil
}

// listClass appends the regular files under dir, in name order, as package
// corpus lists a class folder.
func listClass(dst []File, dir, label string) ([]File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return dst, fmt.Errorf("%w: %v", ErrInput, err)
	}
	maildir := isMaildir(entries)
	for _, e := range entries {
		if hidden(e.Name()) || maildir && e.Name() == "tmp" {
			continue
		}
		p := filepath.Join(dir, e.Name())
		info, err := os.Stat(p)
		switch {
		case err != nil:
			return dst, fmt.Errorf("%w: %v", ErrInput, err)
		case info.Mode().IsRegular():
			dst = append(dst, File{Path: p, Label: label})
		case !info.IsDir():
		case e.Type()&fs.ModeSymlink != 0:
			return dst, fmt.Errorf("%w: %w: %s: symlinked folder inside a class folder", ErrInput, corpus.ErrUnsupported, p)
		default:
			if dst, err = listClass(dst, p, label); err != nil {
				return dst, err
			}
		}
	}
	return dst, nil
}

func isMaildir(entries []fs.DirEntry) bool {
	n := 0
	for _, e := range entries {
		if e.IsDir() && (e.Name() == "cur" || e.Name() == "new" || e.Name() == "tmp") {
			n++
		}
	}
	return n == 3
}

// ReadFile calls fn on each document of f, read with opt as textnb train
// reads it. A file on a remote filesystem is copied to a temporary file
// first: package corpus reads local files.
func ReadFile(ctx context.Context, f File, opt corpus.Options, fn func(corpus.Document) error) (corpus.Stats, error) {
	p := f.Path
	if remote(p) {
		tmp, err := localCopy(ctx, p)
		if err != nil {
			return corpus.Stats{}, err
		}
		defer os.Remove(tmp)
		p = tmp
	}
	var (
		st  corpus.Stats
		err error
	)
	if f.Label == "" {
		opt.Unlabeled = false
		st, err = corpus.Walk(p, opt, fn)
	} else {
		whole := opt
		whole.Whole = true
		st, err = corpus.Walk(p, whole, func(d corpus.Document) error {
			d.Label = f.Label
			return fn(d)
		})
	}
	if err != nil && p != f.Path {
		err = fmt.Errorf("%s (copied to %s): %w", f.Path, p, err)
	}
	return st, err
}

// localCopy copies the file at p, on a Beam filesystem, to a temporary
// file with the same extension, and returns its name.
func localCopy(ctx context.Context, p string) (string, error) {
	fsys, err := filesystem.New(ctx, p)
	if err != nil {
		return "", err
	}
	defer fsys.Close()
	r, err := fsys.OpenRead(ctx, p)
	if err != nil {
		return "", fmt.Errorf("nbbeam: %s: %w", p, err)
	}
	defer r.Close()
	w, err := os.CreateTemp("", "textnb-beam-*"+path.Ext(p))
	if err != nil {
		return "", err
	}
	_, err = io.Copy(w, r)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(w.Name())
		return "", fmt.Errorf("nbbeam: copying %s: %w", p, err)
	}
	return w.Name(), nil
}

// ResolveLang returns cfg with Lang Auto decided as a pipeline.Trainer
// decides it from the same documents in the same order: from the first
// documents of files, until 64 KiB of text.
func ResolveLang(ctx context.Context, cfg pipeline.Config, opt corpus.Options, files []File) (pipeline.Config, error) {
	if cfg.Tokenize.Lang != tokenize.Auto {
		return cfg, nil
	}
	limit := textcore.Get[pipeline.Config, *pipeline.Model, *pipeline.Trainer]().LangSample
	var sample strings.Builder
	errEnough := errors.New("enough")
	for _, f := range files {
		_, err := ReadFile(ctx, f, opt, func(d corpus.Document) error {
			sample.WriteString(d.Text)
			if sample.Len() >= limit {
				return errEnough
			}
			return nil
		})
		if errors.Is(err, errEnough) {
			break
		}
		if err != nil {
			return cfg, err
		}
	}
	d := tokencore.Get[*tokenize.Analyzer, tokenize.Lang]().NewLangDetector()
	d.Add(sample.String())
	cfg.Tokenize.Lang = d.Lang()
	return cfg, nil
}

// Stored is what a model records of how its corpus was read (see
// pipeline.Model): the fields of line files that are not the defaults,
// and the input mode and feature tokens of mail, recorded only when some
// documents were read as mail.
type Stored struct {
	LabelField, TextField   string
	MailInput, MailFeatures string
}

// TrainFiles adds the transforms that train a model with cfg on the
// documents of files, read with opt as textnb train reads them, and write
// it to out with what st records. Each pass reads the files again, so that
// no runner holds the documents between the passes; a file is read by one
// worker, so a corpus in one large line file is best split into several.
// cfg's language must be set (see ResolveLang).
//
// The second pass sums the files in groups consecutive groups, each read
// by one worker into one set of class sums, which can be as large as the
// model (the hashing vectorizer's nearly always are): groups bounds how
// many of them the workers and the runner hold, and how many workers the
// pass can keep busy. 0 means the parallelism of a worker that the process
// building the pipeline hosts (LOOPBACK): runtime.GOMAXPROCS(0), but no
// more than its CPUs, since a group beyond them costs a table and sums no
// sooner. On a cluster, give the number of workers. With one group the
// files are summed in order, as textnb train sums them.
func TrainFiles(s beam.Scope, cfg pipeline.Config, opt corpus.Options, files []File, out string, st Stored, groups int) error {
	if cfg.Tokenize.Lang == tokenize.Auto {
		return fmt.Errorf("nbbeam: set Config.Tokenize.Lang (see ResolveLang): bundles could decide auto differently")
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: no files", ErrInput)
	}
	if groups < 0 {
		return fmt.Errorf("%w: %d groups", ErrInput, groups)
	}
	if groups == 0 {
		groups = min(runtime.GOMAXPROCS(0), runtime.NumCPU())
	}
	if _, err := shard.NewDocFreqCounter(cfg); err != nil {
		return err
	}
	s = s.Scope("TrainTextNBFiles")
	in := beam.Reshuffle(s, beam.CreateList(s, files))
	partDF, partMail := beam.ParDo2(s, &fileDocFreqsFn{docFreqsFn: docFreqsFn{Config: cfg}, Options: opt}, in)
	df := beam.Combine(s, &mergeDocFreqsFn{}, partDF)
	mails := beam.Combine(s, addInts, partMail)
	grouped := beam.Reshuffle(s, beam.CreateList(s, groupFiles(files, groups)))
	partSums := beam.ParDo(s, &fileSumsFn{sumsFn: sumsFn{Out: out, Job: newJobID()}, Options: opt}, grouped, beam.SideInput{Input: df})
	sums := beam.Combine(s, joinPaths, partSums)
	beam.ParDo0(s, &fileBuildFn{buildFn: buildFn{Out: out}, Stored: st}, sums,
		beam.SideInput{Input: df}, beam.SideInput{Input: mails})
	return nil
}

// fileGroup is files that one worker sums in order, the Index-th group.
type fileGroup struct {
	Index int
	Files []File
}

// groupFiles splits files into at most n consecutive groups of nearly
// equal counts.
func groupFiles(files []File, n int) []fileGroup {
	n = min(n, len(files))
	groups := make([]fileGroup, n)
	for i := range n {
		groups[i] = fileGroup{i, files[i*len(files)/n : (i+1)*len(files)/n]}
	}
	return groups
}

func init() {
	register.DoFn4x1[context.Context, File, func([]byte), func(int), error](&fileDocFreqsFn{})
	register.DoFn4x1[context.Context, fileGroup, []byte, func([]string), error](&fileSumsFn{})
	register.DoFn4x1[context.Context, []string, []byte, int, error](&fileBuildFn{})
	register.Emitter1[int]()
	register.Function2x1(addInts)
	beam.RegisterType(reflect.TypeFor[File]())
	beam.RegisterType(reflect.TypeFor[fileGroup]())
}

func addInts(a, b int) int { return a + b }

// fileDocFreqsFn counts the document frequencies of each bundle's files
// and the documents read as mail.
type fileDocFreqsFn struct {
	docFreqsFn
	Options corpus.Options
	mail    int
}

func (f *fileDocFreqsFn) StartBundle(_ context.Context, emit func([]byte), _ func(int)) error {
	f.mail = 0
	return f.docFreqsFn.StartBundle(emit)
}

func (f *fileDocFreqsFn) ProcessElement(ctx context.Context, file File, _ func([]byte), _ func(int)) error {
	st, err := ReadFile(ctx, file, f.Options, func(d corpus.Document) error {
		if err := f.c.Add(d.Label, d.Text); err != nil {
			return fmt.Errorf("%s: %w", d.Source, err)
		}
		return nil
	})
	f.mail += st.Mail
	return err
}

func (f *fileDocFreqsFn) FinishBundle(_ context.Context, emit func([]byte), mails func(int)) error {
	mails(f.mail)
	return f.docFreqsFn.FinishBundle(emit)
}

// fileSumsFn weights each group's files with the merged document
// frequencies and emits its class sums.
type fileSumsFn struct {
	sumsFn
	Options corpus.Options
}

func (f *fileSumsFn) ProcessElement(ctx context.Context, g fileGroup, df []byte, emit func([]string)) error {
	for _, file := range g.Files {
		_, err := ReadFile(ctx, file, f.Options, func(d corpus.Document) error {
			if err := f.add(Doc{d.Label, d.Text}, df); err != nil {
				return fmt.Errorf("%s: %w", d.Source, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	// A group's sums go out now, not with the bundle's, named by its
	// index, so that the build adds the groups in order.
	return f.flush(ctx, fmt.Sprintf("%06d", g.Index), emit)
}

func (f *fileSumsFn) FinishBundle(ctx context.Context, df []byte, emit func([]string)) error {
	return f.sumsFn.FinishBundle(ctx, df, emit)
}

// fileBuildFn builds the model and records how its corpus was read.
type fileBuildFn struct {
	buildFn
	Stored Stored
}

func (f *fileBuildFn) ProcessElement(ctx context.Context, sums []string, df []byte, mails int) error {
	m, err := build(ctx, sums, df)
	if err != nil {
		return err
	}
	m.LabelField, m.TextField = f.Stored.LabelField, f.Stored.TextField
	if mails > 0 {
		m.MailInput, m.MailFeatures = f.Stored.MailInput, f.Stored.MailFeatures
	}
	if err := writeModel(ctx, f.Out, m); err != nil {
		return err
	}
	removeSums(ctx, sums)
	return nil
}

// writeModel writes m (a model, or a part's class sums) to out: a local
// file atomically, as textnb train saves one (never half-written), or
// through out's Beam filesystem.
func writeModel(ctx context.Context, out string, m io.WriterTo) error {
	if !remote(out) {
		return modelfile.Save(out, m)
	}
	fsys, err := filesystem.New(ctx, out)
	if err != nil {
		return err
	}
	defer fsys.Close()
	w, err := fsys.OpenWrite(ctx, out)
	if err != nil {
		return err
	}
	if _, err := m.WriteTo(w); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
