// Command textnb-beam trains a textnb model on Apache Beam: on Prism in
// process (the default), or through a job service (Prism, Flink, Spark) or
// Dataflow, with workers in other processes or on other machines.
//
//	textnb-beam train INPUT... -o MODEL [textnb train flags] [Beam flags]
//
// INPUT is what textnb train reads (a folder of class folders, mail
// included; a .tsv, .csv or .jsonl file) or a glob of such files, local or
// on gs://. The model file is textnb's own: textnb predict, eval and
// inspect read it. It is trained with the fixed defaults, as textnb train
// --fast trains them. See docs/beam.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	nbbeam "github.com/textnb/textnb/beam"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/mail"
	"github.com/textnb/textnb/tokenize"
)

const usage = `usage: textnb-beam train INPUT... -o MODEL [flags] [Beam pipeline flags]

INPUT is a folder of class folders, a .tsv, .csv, .jsonl or .ndjson file,
or a glob of files (a glob's other files are labeled by their folder:
"gs://bucket/train/*/*"), on the local filesystem or gs://.

Beam pipeline flags (see docs/beam.md): --runner (prism, the default, runs
in this process; universal, flink, spark, dataflow), --endpoint HOST:PORT,
--environment_type LOOPBACK|PROCESS|EXTERNAL|DOCKER, --environment_config,
--job_name, --project, --region, --temp_location ...

flags of textnb train that apply:
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks errors of the command line.
var errUsage = errors.New("usage")

// flags are defined on flag.CommandLine, beside Beam's, which workers
// read there.
var flags = newTrainFlags(flag.CommandLine)

func run(args []string, stdout, stderr io.Writer) int {
	fs, f := flag.CommandLine, flags
	fs.Init("textnb-beam", flag.ContinueOnError) // errors are reported in one line, below
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		for _, name := range f.names {
			fl := fs.Lookup(name)
			fmt.Fprintf(stderr, "  -%s\n    \t%s\n", fl.Name, fl.Usage)
		}
	}
	if len(args) == 0 || args[0] != "train" {
		// A worker: Beam's runners start this binary with --worker.
		if err := fs.Parse(args); err != nil {
			return 2
		}
		beam.Init()
		if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
			fs.Usage()
			return 0
		}
		fmt.Fprintln(stderr, "textnb-beam: want the command train (textnb-beam train --help)")
		return 2
	}
	pos, err := parse(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "textnb-beam: %v\n", err)
		return 2
	}
	beam.Init()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := train(ctx, f, pos, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "textnb-beam: %v\n", err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

// parse parses flags anywhere among the arguments, as textnb does; an
// error is returned, not printed with the usage (Beam's flags make it long).
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(out)
				usage()
			}
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos, args = append(pos, args[0]), args[1:]
	}
}

// trainFlags are textnb train's flags that training on Beam takes, with
// the same names, defaults and meanings, and those it refuses.
type trainFlags struct {
	names                                    []string // in help order
	out, model, ngrams, charNgrams, stopword *string
	lang, labelField, textField              *string
	weighting                                pipeline.Weighting
	vectorizer                               pipeline.Vectorizer
	input                                    corpus.Input
	features                                 mail.Features
	alpha, maxDF                             *float64
	norm, stem, noStem, fast                 *bool
	nFeatures, minDF, groups                 *int
	refused                                  map[string]string
}

func newTrainFlags(fs *flag.FlagSet) *trainFlags {
	f := &trainFlags{}
	n := func(name string) string { f.names = append(f.names, name); return name }
	f.out = fs.String(n("o"), "", "write the model to this `file` (required): local, created or replaced atomically, or gs://")
	f.model = fs.String(n("model"), "auto", "classifier: auto (mnb for two classes, cnb for more), cnb (Complement NB), mnb (Multinomial), bnb (Bernoulli)")
	f.alpha = fs.Float64(n("alpha"), 0, fmt.Sprintf("additive smoothing (default %g, or %g for --model auto with two classes, as textnb train --fast)",
		pipeline.DefaultAlpha, pipeline.DefaultBinaryAlpha))
	f.fast = fs.Bool(n("fast"), false, "train the fixed defaults without cross-validated choice: always so here (the choice needs every document in one process)")
	fs.TextVar(&f.weighting, n("weighting"), pipeline.TFIDF, "feature weighting: tfidf (sublinear, L2), counts, rennie")
	f.norm = fs.Bool(n("norm"), false, "Complement NB weight normalization (Rennie et al. 2003)")
	fs.TextVar(&f.vectorizer, n("vectorizer"), pipeline.Vocab, "vocab (learned vocabulary) or hash (murmur3 feature hashing: constant memory per worker)")
	f.nFeatures = fs.Int(n("features"), 0, "hash: number of columns (default 2^20); vocab: keep at most N most frequent terms (default all)")
	f.minDF = fs.Int(n("min-df"), 0, "drop terms in fewer than N training documents (default automatic: 1, raised only to bound model size)")
	f.maxDF = fs.Float64(n("max-df"), 0, "drop terms in more than this fraction of documents (default 1.0: keep)")
	f.ngrams = fs.String(n("ngrams"), "1,2", "word n-gram range `MIN,MAX`")
	f.charNgrams = fs.String(n("char-ngrams"), "", "Han character n-gram range `MIN,MAX`, or none (default: 2,3 for Chinese models, none otherwise)")
	f.stem = fs.Bool(n("stem"), false, "stem English words (Snowball)")
	f.noStem = fs.Bool(n("no-stem"), false, "do not stem English words (the default)")
	f.stopword = fs.String(n("stopwords"), "none", "stopword list: none, en, zh, all (en,zh)")
	f.lang = fs.String(n("lang"), "auto", "language: auto (decided by this process from the first 64 KiB of text, as textnb train decides it), en, zh")
	f.groups = fs.Int(n("groups"), 0, "sum the files in `N` groups, each one worker's task with one set of class sums as large as the model: N bounds the sums held at once and the workers kept busy (default: this process's GOMAXPROCS but no more than its CPUs, a LOOPBACK worker's parallelism; on a cluster, the number of workers); with 1 the files are summed in order, as textnb train sums them")
	f.labelField = fs.String(n("label-field"), "label", "label column of .csv/.tsv headers and .jsonl objects")
	f.textField = fs.String(n("text-field"), "text", "text column of .csv/.tsv headers and .jsonl objects")
	fs.TextVar(&f.input, n("input"), corpus.InputAuto, "read files as `auto|text|mail`, as textnb train does")
	fs.TextVar(&f.features, n("mail-features"), mail.AllFeatures, "feature tokens a message adds (docs/mail.md): all, none, or a list of subject, addr, url, struct, hdr")
	f.refused = map[string]string{
		"multi-label": "multi-label training fits per-label thresholds by cross-validation over every document; train it with textnb train --multi-label",
		"tune":        "--tune cross-validates settings over every document in one process; choose with textnb cv or textnb train --tune on a sample",
		"calibrate":   "calibration needs cross-validated scores of every document; calibrate a sample's model with textnb train --calibrate",
		"reweight":    "--reweight N > 0: reweighting rescores every training document after each pass, which training in parts cannot do",
		"unlabeled":   "semi-supervised training rescores every document each round, which training in parts cannot do",
		"stats-only":  "textnb-beam writes the model; document frequencies of parts are textnb train --stats-only's",
		"select":      "feature selection is not offered on Beam: its scores need every class's counts before the vocabulary is fixed",
	}
	for name, why := range f.refused {
		fs.Func(name, "refused: "+why, func(v string) error {
			if n, err := strconv.Atoi(v); name == "reweight" && err == nil && n <= 0 {
				return nil // none, which is what training in parts does
			}
			return fmt.Errorf("%s", why)
		})
	}
	// A boolean refused flag given bare (--multi-label) must parse as one.
	for _, name := range []string{"multi-label", "tune", "calibrate", "stats-only"} {
		fs.Lookup(name).Value = refusedBool{fs.Lookup(name).Value}
	}
	return f
}

// refusedBool is a refused flag that, like the boolean it stands for,
// takes no value.
type refusedBool struct{ flag.Value }

func (refusedBool) IsBoolFlag() bool { return true }

// config returns the pipeline the flags describe, as textnb train reads
// the same flags.
func (f *trainFlags) config(given map[string]bool, stderr io.Writer) (pipeline.Config, error) {
	var cfg pipeline.Config
	a := *f.alpha
	switch {
	case a < 0 || math.IsNaN(a) || math.IsInf(a, 0):
		return cfg, fmt.Errorf("%w: --alpha %g: want a finite value ≥ 0", errUsage, a)
	case given["alpha"] && a < pipeline.MinAlpha:
		fmt.Fprintf(stderr, "textnb-beam: --alpha %g is below %g, the least smoothing; using %g\n", a, pipeline.MinAlpha, pipeline.MinAlpha)
		a = pipeline.MinAlpha
	}
	switch {
	case *f.stem && *f.noStem:
		return cfg, fmt.Errorf("%w: --stem and --no-stem contradict each other", errUsage)
	case *f.minDF < 0:
		return cfg, fmt.Errorf("%w: --min-df %d: want N ≥ 1 (0 and 1 keep every term)", errUsage, *f.minDF)
	case given["max-df"] && !(*f.maxDF > 0 && *f.maxDF <= 1):
		return cfg, fmt.Errorf("%w: --max-df %g: want a fraction of the documents in (0, 1]; 0 would drop every term", errUsage, *f.maxDF)
	case given["features"] && *f.nFeatures < 1:
		return cfg, fmt.Errorf("%w: --features %d: want N ≥ 1", errUsage, *f.nFeatures)
	}
	cfg.Alpha, cfg.Norm, cfg.Fast = a, *f.norm, true
	cfg.Vocab.MinDF, cfg.Vocab.MaxDF = *f.minDF, *f.maxDF
	if given["min-df"] && *f.minDF == 0 {
		cfg.Vocab.MinDF = 1
	}
	if err := cfg.Classifier.UnmarshalText([]byte(*f.model)); err != nil {
		return cfg, fmt.Errorf("%w: --model %q: want auto, cnb, mnb or bnb (numeric tables train with textnb train)", errUsage, *f.model)
	}
	cfg.Weighting, cfg.Vectorizer = f.weighting, f.vectorizer
	if cfg.Vectorizer == pipeline.Hash {
		cfg.HashFeatures = *f.nFeatures
	} else {
		cfg.Vocab.MaxFeatures = *f.nFeatures
	}
	t := &cfg.Tokenize
	var err error
	if t.WordNGrams, err = parseRange("--ngrams", *f.ngrams); err != nil {
		return cfg, err
	}
	if *f.charNgrams != "" && *f.charNgrams != "none" {
		if t.HanChars, err = parseRange("--char-ngrams", *f.charNgrams); err != nil {
			return cfg, err
		}
	}
	stop := *f.stopword
	if stop == "all" {
		stop = "en,zh"
	}
	if err := t.Stopwords.UnmarshalText([]byte(stop)); err != nil {
		return cfg, fmt.Errorf("%w: --stopwords: %v", errUsage, err)
	}
	if err := t.Lang.UnmarshalText([]byte(*f.lang)); err != nil {
		return cfg, fmt.Errorf("%w: --lang: %v", errUsage, err)
	}
	t.Stem = *f.stem
	cfg.NoHanChars = *f.charNgrams == "none"
	return cfg, nil
}

func parseRange(flag, s string) (tokenize.NGramRange, error) {
	lo, hi, ok := strings.Cut(s, ",")
	a, err1 := strconv.Atoi(strings.TrimSpace(lo))
	b, err2 := strconv.Atoi(strings.TrimSpace(hi))
	if !ok || err1 != nil || err2 != nil || a < 1 || b < a {
		return tokenize.NGramRange{}, fmt.Errorf("%w: %s %q: want MIN,MAX with 1 ≤ MIN ≤ MAX", errUsage, flag, s)
	}
	return tokenize.NGramRange{Min: a, Max: b}, nil
}

func train(ctx context.Context, f *trainFlags, inputs []string, stdout, stderr io.Writer) error {
	given := map[string]bool{}
	flag.CommandLine.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	if len(inputs) == 0 || *f.out == "" {
		return fmt.Errorf("%w: need INPUT... and -o MODEL (see --help)", errUsage)
	}
	cfg, err := f.config(given, stderr)
	if err != nil {
		return err
	}
	out := *f.out
	if !strings.Contains(out, "://") {
		if err := modelfile.CheckOutput(out); err != nil {
			return err
		}
		if oi, err := os.Stat(out); err == nil {
			for _, in := range inputs {
				if ii, err := os.Stat(in); err == nil && os.SameFile(oi, ii) {
					return fmt.Errorf("%w: -o %s is the input %s: the model would replace it; name another file", errUsage, out, in)
				}
			}
		}
	}
	opt := corpus.Options{LabelField: *f.labelField, TextField: *f.textField, Input: f.input, Mail: mail.WithFeatures(f.features)}
	var st nbbeam.Stored
	if *f.labelField != "label" {
		st.LabelField = *f.labelField
	}
	if *f.textField != "text" {
		st.TextField = *f.textField
	}
	st.MailInput, st.MailFeatures = f.input.String(), f.features.String()

	start := time.Now()
	files, err := nbbeam.ListFiles(ctx, inputs)
	if err != nil {
		return err
	}
	if cfg.Tokenize.Lang == tokenize.Auto {
		if cfg, err = nbbeam.ResolveLang(ctx, cfg, opt, files); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "textnb-beam: --lang auto decided %v from the first documents\n", cfg.Tokenize.Lang)
	}
	// Workers that are not this process (PROCESS, DOCKER, Dataflow) run
	// this binary; without it the SDK would try to compile the main's
	// source, which an installed command does not have.
	if *jobopts.WorkerBinary == "" && !jobopts.IsLoopback() && runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		if exe, err := os.Executable(); err == nil {
			*jobopts.WorkerBinary = exe
		}
	}
	p, s := beam.NewPipelineWithRoot()
	if err := nbbeam.TrainFiles(s, cfg, opt, files, out, st, *f.groups); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := beamx.Run(ctx, p); err != nil {
		return fmt.Errorf("pipeline failed: %w", err)
	}
	// A LOOPBACK worker ran in this process: collect its garbage before
	// the model is loaded below, rather than add the two.
	debug.FreeOSMemory()
	if strings.Contains(out, "://") {
		fmt.Fprintf(stdout, "trained on %d files in %.1fs; wrote %s\n", len(files), time.Since(start).Seconds(), out)
		return nil
	}
	m, err := pipeline.Load(out)
	if err != nil {
		return fmt.Errorf("the pipeline succeeded but its model does not load: %w", err)
	}
	fmt.Fprintf(stdout, "trained %s (alpha %g) on %d files, %d classes, %d features (min_df %d), lang %v, in %.1fs\nwrote %s\n",
		m.Config.Classifier, m.Config.Alpha, len(files), len(m.Classes), m.NumFeatures(), m.Config.Vocab.MinDF, m.Config.Tokenize.Lang,
		time.Since(start).Seconds(), out)
	return nil
}
