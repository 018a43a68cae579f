// Command pgo writes cmd/textnb/default.pgo, the CPU profile that go build
// uses for profile-guided optimization of textnb: it profiles training and
// evaluation on 20 Newsgroups (twice, the main workload), the SMS Spam
// Collection and ChnSentiCorp with a binary built without PGO, and merges
// the profiles. Rerun it after large changes to the hot code.
//
//	go run ./benchmarks/pgo [-o FILE]
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/textnb/textnb/benchmarks/internal/bench"
)

func main() {
	out := flag.String("o", "", "where to write the merged profile (default cmd/textnb/default.pgo in the module)")
	flag.Parse()
	log.SetFlags(0)
	if *out == "" {
		*out = filepath.Join(bench.Root(), "cmd", "textnb", "default.pgo")
	}
	tmp, bin, cleanup := bench.Workdir("textnb-pgo-", "-pgo=off") // profile code built without a profile
	n, err := run(tmp, bin, *out)
	cleanup() // before log.Fatal, which skips deferred calls
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %s from %d profiles\n", *out, n)
}

// run profiles the workloads of bin in tmp and writes the merged profile
// to out, returning the number of profiles merged.
func run(tmp, bin, out string) (int, error) {
	newsTrain, newsTest, err := bench.Unpack20News(tmp)
	if err != nil {
		return 0, err
	}
	sms, err := bench.LinkSMS(tmp)
	if err != nil {
		return 0, err
	}
	zh := filepath.Join(bench.Shared(), "data", "chnsenticorp")
	runs := []struct {
		train, test string
		args        []string
	}{
		{newsTrain, newsTest, nil},
		{newsTrain, newsTest, nil},
		{sms, sms, nil},
		{filepath.Join(zh, "train.tsv"), filepath.Join(zh, "dev.tsv"), []string{"--text-field", "text_a"}},
	}
	var profiles []string
	for i, r := range runs {
		model := filepath.Join(tmp, "m.model")
		train := append([]string{"train", r.train, "-o", model}, r.args...)
		eval := append([]string{"eval", "-m", model, r.test}, r.args...)
		for j, args := range [][]string{train, eval} {
			p := filepath.Join(tmp, fmt.Sprintf("%d-%d.prof", i, j))
			cmd := exec.Command(bin, args...)
			cmd.Env = append(os.Environ(), "TEXTNB_CPUPROFILE="+p)
			cmd.Stderr = os.Stderr
			if err := cmd.Run(); err != nil {
				return 0, fmt.Errorf("textnb %s: %v", strings.Join(args, " "), err)
			}
			profiles = append(profiles, p)
		}
	}
	merged, err := exec.Command("go", append([]string{"tool", "pprof", "-proto"}, profiles...)...).Output()
	if err != nil {
		return 0, fmt.Errorf("merging profiles: %v", err)
	}
	return len(profiles), os.WriteFile(out, merged, 0o644)
}
