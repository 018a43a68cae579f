// Command textnb trains, applies and evaluates naive Bayes text classifiers.
//
//	textnb train CORPUS -o MODEL [flags]
//	textnb predict -m MODEL [--json] [--top K] PATH…|-
//	textnb eval -m MODEL [--json] CORPUS
//	textnb merge -o OUT MODEL MODEL…
//
// Run "textnb COMMAND --help" for the flags of each command.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

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
		{"stats", "train on parts of a corpus in two passes, exactly (merge, sum, build)", runStats},
	}
}

func main() {
	if os.Getenv("GOGC") == "" {
		tuneGC(gcPercent, gcFloor) // for the life of the process
	}
	adviseHugePages()
	os.Exit(profiled(func() int { return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }))
}

// gcPercent replaces Go's default of 100, which lets the heap grow to twice
// the live data before collecting. Training's live data is mostly large
// pointer-free tables that a collection does not scan, so collecting at
// 1.35× costs little and keeps the peak near the live size (20 Newsgroups:
// about 175 instead of 240 MiB). The next collection comes at the larger of
// gcFloor and 1.35× the live heap (tuneGC): at 35% of a small heap the
// collector would run every megabyte or so. Training's peak comes after
// counting, above the floor, so a floor of 96 rather than 64 MiB spares it
// a few collections while its tables grow, at the same peak; 112 MiB and
// more raise the peak. $GOGC still overrides both.
const (
	gcPercent = 35
	gcFloor   = 96 << 20
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
// name it, for every command that reads one.
func fieldHint(err error) string {
	if errors.Is(err, corpus.ErrMissingField) {
		return " (--label-field and --text-field name them)"
	}
	return ""
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
// "textnb train ./corpus -o x.model".
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
