package bench

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/pipeline"
)

// A Server is a process serving HTTP, as StartServer started it.
type Server struct {
	Cmd  *exec.Cmd
	Addr string // host:port
}

// StartServer runs name args, which prints "listening on http://ADDR" and
// then "ready" on its standard output, and returns once it is ready.
// Errors end the program: this is for benchmarks.
func StartServer(name string, args ...string) *Server {
	cmd := exec.Command(name, args...)
	cmd.Stderr = io.Discard
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	s := &Server{Cmd: cmd}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if _, addr, ok := strings.Cut(line, "listening on http://"); ok {
			s.Addr = addr
		}
		if strings.HasSuffix(line, "ready") {
			go io.Copy(io.Discard, out)
			return s
		}
	}
	log.Fatalf("%s stopped before it was ready", name)
	return nil
}

// Stop sends SIGTERM and waits for the process to end.
func (s *Server) Stop() {
	s.Cmd.Process.Signal(syscall.SIGTERM)
	s.Cmd.Wait()
}

// RSS reads a memory figure of the server (VmRSS, VmHWM) in bytes.
func (s *Server) RSS(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.Cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// Loadavg describes the machine's load average.
func Loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return "load average " + strings.Join(f[:3], " ") + " (2-core machine: 2.0 is full)"
}

// TrainPipeline trains a text model with cfg on docs.
func TrainPipeline(docs []corpus.Document, cfg pipeline.Config) *pipeline.Model {
	tr, err := pipeline.NewTrainer(cfg)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range docs {
		if err := tr.Add(d.Label, d.Text); err != nil {
			log.Fatal(err)
		}
	}
	m, _, err := tr.Finish()
	if err != nil {
		log.Fatal(err)
	}
	return m
}
