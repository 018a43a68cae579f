// Command startup measures textnb as a command, start-up included: "textnb
// help", an eval of the SMS Spam Collection, a 20 Newsgroups training, an
// eval with its model and a prediction of one line, as whole processes,
// with medians of wall and CPU time and of peak memory.
// With -base it alternates this build with another binary run for run, and
// for each it counts the runs whose peak memory passed twice its median.
//
//	go run ./benchmarks/startup [-runs 100] [-train-runs 30] [-base /tmp/textnb-start]
//
// Peak memory comes from GNU time (/usr/bin/time), whose own small process
// is what the kernel counts before the exec: a Go parent's would be counted
// in every child's peak.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
)

func main() {
	runs := flag.Int("runs", 100, "runs of help and eval per build")
	trainRuns := flag.Int("train-runs", 30, "runs of train per build")
	base := flag.String("base", "", "another textnb binary to alternate with")
	flag.Parse()
	log.SetFlags(0)
	tmp, bin, cleanup := bench.Workdir("textnb-startup-")
	defer cleanup()
	sms, err := bench.LinkSMS(tmp)
	if err != nil {
		log.Fatal(err)
	}
	train, test, err := bench.Unpack20News(tmp)
	if err != nil {
		log.Fatal(err)
	}
	smsModel := filepath.Join(tmp, "sms.model")
	if _, err := bench.Run(nil, bin, "train", sms, "-o", smsModel, "--quiet"); err != nil {
		log.Fatal(err)
	}
	line := filepath.Join(tmp, "line.txt")
	if err := os.WriteFile(line, []byte("the space shuttle launch was delayed by the weather\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	newsModel := filepath.Join(tmp, "20ng.model")
	builds := []string{bin}
	if *base != "" {
		builds = append(builds, *base)
	}
	fmt.Printf("| command | build | wall ms | CPU ms | peak MiB | runs | runs over 2× the median peak |\n|---|---|---|---|---|---|---|\n")
	for _, c := range []struct {
		name string
		runs int
		args []string
	}{
		{"help", *runs, []string{"help"}},
		{"eval SMS", *runs, []string{"eval", "-m", smsModel, sms}},
		{"train 20 Newsgroups", *trainRuns, []string{"train", train, "-o", newsModel}},
		{"eval 20 Newsgroups", *trainRuns, []string{"eval", "-m", newsModel, test}},
		{"predict one line, 20 Newsgroups model", *runs, []string{"predict", "-m", newsModel, line}},
	} {
		walls, cpus, peaks := make([][]float64, len(builds)), make([][]float64, len(builds)), make([][]float64, len(builds))
		for range c.runs {
			for i, b := range builds {
				r, err := bench.Run(nil, b, c.args...)
				if err != nil {
					log.Fatal(err)
				}
				walls[i] = append(walls[i], ms(r.Wall))
				cpus[i] = append(cpus[i], ms(r.CPU))
				peaks[i] = append(peaks[i], peakMiB(b, c.args))
			}
		}
		for i, b := range builds {
			name := "this"
			if i > 0 {
				name = b
			}
			m := median(peaks[i])
			over := 0
			for _, p := range peaks[i] {
				if p > 2*m {
					over++
				}
			}
			fmt.Printf("| %s | %s | %.1f | %.1f | %.1f | %d | %d (largest %.0f MiB) |\n",
				c.name, name, median(walls[i]), median(cpus[i]), m, c.runs, over, slices.Max(peaks[i]))
		}
	}
}

// peakMiB runs bin with args under GNU time and returns its peak resident
// memory.
func peakMiB(bin string, args []string) float64 {
	out, err := os.CreateTemp("", "textnb-time-")
	if err != nil {
		log.Fatal(err)
	}
	out.Close()
	defer os.Remove(out.Name())
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", out.Name(), bin}, args...)...)
	if err := cmd.Run(); err != nil {
		log.Fatalf("/usr/bin/time %s: %v", bin, err)
	}
	data, err := os.ReadFile(out.Name())
	if err != nil {
		log.Fatal(err)
	}
	f := strings.Fields(string(data))
	kb, err := strconv.ParseFloat(f[len(f)-1], 64)
	if err != nil {
		log.Fatal(err)
	}
	return kb / 1024
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	return s[len(s)/2]
}
