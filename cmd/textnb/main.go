// Command textnb trains, applies and evaluates naive Bayes text classifiers.
//
//	textnb train CORPUS -o MODEL [flags]
//	textnb predict -m MODEL [--json] [--top K] PATH…|-
//	textnb eval -m MODEL [--json] CORPUS
//	textnb merge -o OUT MODEL MODEL…
//	textnb inspect [--top N] [--json] MODEL
//	textnb explain -m MODEL [--top N] [--json] TEXT…|-
//	textnb version
//	textnb serve [--addr 127.0.0.1:8080] MODEL…
//	textnb cv [--folds 10] [--seed S] [--json] [train flags] CORPUS
//
// Run "textnb COMMAND --help" for the flags of each command.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"

	"github.com/textnb/textnb/corpus"
)

// errUsage marks errors that come from the command line itself.
var errUsage = errors.New("usage")

type command struct {
	name, summary string
	run           func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"train", "train a model from a labeled corpus", runTrain},
		{"predict", "classify documents with a model", runPredict},
		{"eval", "score a model on a labeled corpus", runEval},
		{"merge", "merge models trained on parts of a corpus", runMerge},
		{"learn", "add documents to a model, or take them away (--unlearn)", runLearn},
		{"stats", "train on parts of a corpus in two passes, exactly (merge, sum, build)", runStats},
		{"inspect", "describe a model: settings, classes, most indicative terms", runInspect},
		{"explain", "show the terms that decided a text's class", runExplain},
		{"version", "print the version and VCS revision of this build", runVersion},
		{"serve", "serve models over an HTTP JSON API", runServe},
		{"cv", "cross-validate a configuration on a labeled corpus", runCV},
	}
}

func main() {
	if os.Getenv("GOGC") == "" {
		tuneGC(gcPercent, gcFloor, gcCeiling) // for the life of the process
	}
	os.Exit(profiled(func() int { return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }))
}

// reserveHugePages calls adviseHugePages once in the process, before
// loading a model of at least largeModel bytes (openClassifier). Training
// does not take the advice: a heap that grows and shrinks as training's
// does makes the kernel compact memory for each huge page it faults in,
// which cost more system time than the pages saved
// (docs/performance.md). Other runs start faster without the reserve,
// which costs an allocation and a collection.
var reserveHugePages = sync.OnceFunc(func() { adviseHugePages() })

// largeModel is the size of a model file whose tables gain from huge pages
// more than the reserve costs (20 Newsgroups' 35 MB model loads into a heap
// of about 110 MB).
const largeModel = 16 << 20

// gcPercent replaces Go's default of 100, which lets the heap grow to twice
// the live data before collecting. Training's live data is mostly large
// pointer-free tables that a collection does not scan, so collecting at
// 1.35× costs little and keeps the peak near the live size (20 Newsgroups:
// about 175 instead of 240 MiB). The next collection comes at the larger of
// gcFloor and 1.35× the live heap (tuneGC): at 35% of a small heap the
// collector would run every megabyte or so. Training's peak comes after
// counting, above the floor, so a floor of 96 rather than 64 MiB spares it
// a few collections while its tables grow, at the same peak; 112 MiB and
// more raise the peak. A large live heap (a big vocabulary being counted)
// gets at most gcCeiling of headroom: collecting a heap of mostly
// pointer-free tables more often costs little, while 35% of a gigabyte
// would be most of the peak's margin, and on a VM that backs memory lazily
// each fresh huge page costs milliseconds: with 32 MiB the default's choice
// on 20 Newsgroups peaks about 35 MB lower (and `--tune` 50) for 8 more
// collections of a few milliseconds (64 MiB gained little). $GOGC still
// overrides all three.
const (
	gcPercent = 35
	gcFloor   = 96 << 20
	gcCeiling = 32 << 20
)

// profiled runs f, writing a CPU profile to $TEXTNB_CPUPROFILE and an
// allocation profile to $TEXTNB_MEMPROFILE if they are set.
func profiled(f func() int) int {
	if mem := os.Getenv("TEXTNB_MEMPROFILE"); mem != "" {
		runtime.MemProfileRate = 64 << 10
		defer writeProfile(mem, pprof.Lookup("allocs"))
	}
	path := os.Getenv("TEXTNB_CPUPROFILE")
	if path == "" {
		return f()
	}
	out, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "textnb:", err)
		return 1
	}
	defer out.Close()
	defer pprof.StopCPUProfile()
	return f()
}

func writeProfile(path string, p *pprof.Profile) {
	if f, err := os.Create(path); err == nil {
		p.WriteTo(f, 0)
		f.Close()
	}
}

// run executes one command line and returns the exit code: 0 on success,
// 2 for a usage error, 1 for any other failure.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdin, stdout, stderr)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			fmt.Fprintf(stderr, "textnb %s: %v\n", c.name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "textnb %s: %v%s\n", c.name, err, fieldHint(err))
			return 1
		}
	}
	fmt.Fprintf(stderr, "textnb: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

// fieldHint points a column or field that a corpus lacks at the flags that
// name it, for every command that reads one; for a table, it says what the
// header row holds, or that the file seems to have none.
func fieldHint(err error) string {
	if !errors.Is(err, corpus.ErrMissingField) {
		return ""
	}
	var mf *corpus.MissingFieldError
	if errors.As(err, &mf) { // predict's own fields
		switch mf.Role {
		case "id":
			return " (--id-field)"
		case "":
			return " (--keep-fields)"
		}
	}
	const flags = "--label-field and --text-field name them"
	var pe *corpus.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		return " (" + flags + ")"
	}
	head := firstRecord(pe.File)
	if len(head) == 0 {
		return " (" + flags + ")"
	}
	quoted := make([]string, len(head))
	data := false
	for i, h := range head {
		quoted[i] = strconv.Quote(shorten(h, 30))
		data = data || looksLikeText(h)
	}
	sep := ","
	if strings.HasSuffix(strings.ToLower(pe.File), ".tsv") {
		sep = `\t`
	}
	if data {
		return fmt.Sprintf("\n%s seems to have no header row (its first row is %s): add one naming the columns, such as label%stext",
			pe.File, strings.Join(quoted, ", "), sep)
	}
	return fmt.Sprintf("\nits first row, read as the header, is %s: %s, or add a header row (such as label%stext) if that row is data",
		strings.Join(quoted, ", "), flags, sep)
}

// firstRecord returns the fields of the first line of a .csv or .tsv file,
// or nil.
func firstRecord(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	r := csv.NewReader(io.LimitReader(f, 64<<10))
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	if strings.HasSuffix(strings.ToLower(path), ".tsv") {
		r.Comma = '\t'
	} else if !strings.HasSuffix(strings.ToLower(path), ".csv") {
		return nil
	}
	rec, err := r.Read()
	if err != nil {
		return nil
	}
	return rec
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "textnb: naive Bayes text classification\n\nUsage: textnb COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"textnb COMMAND --help\" for a command's flags.")
}

// newFlags returns a FlagSet that reports errors instead of exiting.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: textnb %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse reads flags and positional arguments in any order, as users type
// "textnb train ./corpus -o x.model". It prints the flags for --help only:
// a mistake gets one line (flagError), not the whole list.
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
				return nil, err
			}
			return nil, flagError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagError rewords the flag package's errors in one line, with the flag
// meant when one is unknown.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = "unknown flag " + dashed(name)
		if near := nearestFlag(fs, name); near != "" {
			msg += "; did you mean " + dashed(near) + "?"
		}
	} else if i := strings.LastIndex(msg, " -"); i >= 0 {
		name, rest, _ := strings.Cut(msg[i+2:], ":")
		if fs.Lookup(name) != nil {
			msg = msg[:i+1] + dashed(name) + strings.TrimSuffix(":"+rest, ":")
		}
	}
	return fmt.Errorf("%w: %s (textnb %s --help lists the flags)", errUsage, msg, fs.Name())
}

// dashed spells a flag as the help does: -o, --model.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// nearestFlag returns the flag a mistyped name most likely meant: the
// closest in edit distance (ignoring case) if close enough to be a typo,
// else one whose name contains it or is contained in it; "" if none.
func nearestFlag(fs *flag.FlagSet, name string) string {
	if len(name) < 3 {
		return ""
	}
	typed := strings.ToLower(name)
	best, bestD := "", 1+min(2, max(1, len(typed)/4))
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(typed, f.Name)
		if d >= bestD && len(f.Name) >= 3 && (strings.Contains(typed, f.Name) || strings.Contains(f.Name, typed)) {
			d = bestD - 1
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the optimal string alignment distance between a and b
// in bytes: insertions, deletions, substitutions and transpositions.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
