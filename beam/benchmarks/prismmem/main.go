// Command prismmem measures textnb-beam train on Prism running as a
// process of its own: the wall time and each process's peak resident set
// (Prism's job server, the launcher, which hosts the SDK worker with
// --environment_type=LOOPBACK, and any worker process), for each
// vectorizer and worker parallelism, beside textnb train --fast on the same
// corpus. It prints a Markdown table.
//
//	go build -o /tmp/tb/prism github.com/apache/beam/sdks/v2/go/cmd/prism
//	go build -o /tmp/tb/textnb-beam ./cmd/textnb-beam
//	go build -o /tmp/tb/textnb github.com/textnb/textnb/cmd/textnb
//	go run ./benchmarks/prismmem -prism /tmp/tb/prism -launcher /tmp/tb/textnb-beam \
//	    -textnb /tmp/tb/textnb -whole /work/scale/scale48.tsv -out /tmp/tb/models '/work/scale/parts/*.tsv'
//
// Prism (v2.77) starts one SDK worker per environment and job, so the
// parallelism of a run is the worker's GOMAXPROCS (-procs), the goroutines
// that run its bundles at once, not a count of worker processes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/textnb/textnb/beam/internal/prismrun"
	"github.com/textnb/textnb/internal/pipeline"
)

func main() {
	prismrun.Serve()
	prism := flag.String("prism", "", "Prism's `binary` (required)")
	launcher := flag.String("launcher", "", "textnb-beam's `binary` (required)")
	textnb := flag.String("textnb", "", "textnb's `binary`, to time textnb train --fast beside (optional)")
	whole := flag.String("whole", "", "the corpus as one `path` for textnb train, which takes one (default: the one INPUT)")
	outDir := flag.String("out", "", "`folder` for the models (required)")
	procs := flag.String("procs", "1,2,4", "worker parallelism (GOMAXPROCS of the process hosting the worker), a list")
	vectorizers := flag.String("vectorizer", "hash,vocab", "vectorizers, a list")
	lang := flag.String("lang", "en", "--lang of every run")
	env := flag.String("env", "", "`VAR=VALUE ...` added to the launcher's environment (GOMEMLIMIT=900MiB)")
	groups := flag.String("groups", "", "textnb-beam's --groups (default: its own, the worker parallelism)")
	flag.Parse()
	if *prism == "" || *launcher == "" || *outDir == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: prismmem -prism BIN -launcher BIN -out DIR [-textnb BIN] INPUT...")
		os.Exit(2)
	}
	ctx := context.Background()
	fmt.Println("| vectorizer | run | wall s | Prism peak RSS MiB | launcher + worker peak RSS MiB | other worker processes MiB | model |")
	fmt.Println("|---|---|---:|---:|---:|---:|---|")
	for _, v := range strings.Split(*vectorizers, ",") {
		if *textnb != "" {
			out := filepath.Join(*outDir, v+".local.model")
			in := *whole
			if in == "" {
				in = flag.Arg(0)
			}
			args := []string{"train", in, "-o", out, "--fast", "--quiet", "--lang", *lang, "--vectorizer", v}
			start := time.Now()
			cmd := exec.CommandContext(ctx, *textnb, args...)
			b, err := cmd.CombinedOutput()
			if err != nil {
				fmt.Fprintf(os.Stderr, "textnb %q: %v\n%s", args, err, b)
				os.Exit(1)
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
			fmt.Printf("| %s | textnb train --fast (one process) | %.0f | – | %s (textnb) | – | %s |\n", v, time.Since(start).Seconds(), mib(rss), describe(out))
		}
		for _, p := range strings.Split(*procs, ",") {
			out := filepath.Join(*outDir, v+".beam"+p+".model")
			args := append([]string{*launcher, "train"}, flag.Args()...)
			args = append(args, "-o", out, "--lang", *lang, "--vectorizer", v, "--environment_type=LOOPBACK")
			if *groups != "" {
				args = append(args, "--groups", *groups)
			}
			res, err := prismrun.Run(ctx, prismrun.Job{Prism: *prism, Launcher: args,
				Env: append([]string{"GOMAXPROCS=" + p}, strings.Fields(*env)...), Timeout: 2 * time.Hour})
			if err != nil {
				fmt.Fprintf(os.Stderr, "%v\n", err)
				os.Exit(1)
			}
			var prismRSS, launcherRSS int64
			var others []string
			for _, pr := range res.Procs {
				switch pr.Role {
				case "prism":
					prismRSS = pr.MaxRSS
				case "launcher":
					launcherRSS = pr.MaxRSS
				default:
					others = append(others, mib(pr.MaxRSS))
				}
			}
			if len(others) == 0 {
				others = []string{"none"}
			}
			where := "private netns"
			if !res.Private {
				where = "machine's netns"
			}
			fmt.Printf("| %s | Prism process, LOOPBACK worker, GOMAXPROCS=%s (%s) | %.0f | %s | %s | %s | %s |\n", v, p, where,
				res.Wall.Seconds(), mib(prismRSS), mib(launcherRSS), strings.Join(others, ", "), describe(out))
		}
	}
}

func mib(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 0, 64) }

// describe loads the model at path and names its size.
func describe(path string) string {
	m, err := pipeline.Load(path)
	if err != nil {
		return "does not load: " + err.Error()
	}
	return fmt.Sprintf("%d classes × %d features", len(m.Classes), m.NumFeatures())
}
