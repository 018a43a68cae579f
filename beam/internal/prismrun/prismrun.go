// Package prismrun runs a Beam job on Prism started as a process of its
// own, the way a job reaches Flink's, Spark's or Dataflow's job service:
// Prism and the launcher are separate processes that speak the job and Fn
// API protocols over gRPC. It is for tests and benchmarks.
//
// Prism (v2.77) has no flag for its listening address and listens on every
// interface. So Run starts, where the kernel allows it, an orchestrator in
// a network namespace of its own (a user namespace maps the caller's uid),
// whose only interface is loopback: Prism, the launcher and the workers
// are reachable from 127.0.0.1 inside it and from nowhere else, and its
// ports never collide with the machine's. The orchestrator is the calling
// binary itself, run again: main (or TestMain) must call Serve first.
package prismrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// Job is one run.
type Job struct {
	// Prism is the path of Prism's binary (see Build).
	Prism string
	// Launcher is the command line of the job's launcher, to which Run
	// appends --runner=universal --endpoint=127.0.0.1:PORT.
	Launcher []string
	// Env is added to the launcher's environment.
	Env []string
	// Timeout stops every process when it passes; 0 means 30 minutes.
	Timeout time.Duration
}

// Proc is what one process cost.
type Proc struct {
	Role   string // "prism", "launcher" or "worker"
	PID    int
	MaxRSS int64 // peak resident set, bytes
}

// Result is what a run cost.
type Result struct {
	Procs []Proc
	// Wall is the launcher's wall time, from its start to its exit.
	Wall time.Duration
	// Private reports that the run had a network namespace of its own;
	// Interfaces are the network interfaces the processes had.
	Private    bool
	Interfaces []string
	// Output is the launcher's standard output and error.
	Output string
}

const envJob = "TEXTNB_PRISMRUN_JOB"

// Build builds Prism from the module cache, at the Beam version of the
// module in dir (beam/), into out.
func Build(ctx context.Context, dir, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, "github.com/apache/beam/sdks/v2/go/cmd/prism")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("prismrun: building prism: %v\n%s", err, b)
	}
	return nil
}

// Run runs job and reports what each process cost. The processes are in
// a process group of their own, killed when ctx is done or the job's
// timeout passes; Run returns only when they are gone.
func Run(ctx context.Context, job Job) (Result, error) {
	if job.Timeout == 0 {
		job.Timeout = 30 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, job.Timeout)
	defer cancel()
	b, err := json.Marshal(job)
	if err != nil {
		return Result{}, err
	}
	self, err := os.Executable()
	if err != nil {
		return Result{}, err
	}
	res, err := orchestrate(ctx, self, string(b), true)
	if errors.Is(err, errNoNamespace) {
		res, err = orchestrate(ctx, self, string(b), false)
	}
	return res, err
}

var errNoNamespace = errors.New("prismrun: no private network namespace")

func orchestrate(ctx context.Context, self, job string, private bool) (Result, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return Result{}, err
	}
	defer r.Close()
	cmd := exec.CommandContext(ctx, self)
	cmd.Env = append(os.Environ(), envJob+"="+job)
	cmd.ExtraFiles = []*os.File{w}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if private {
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
		cmd.SysProcAttr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
		cmd.SysProcAttr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		w.Close()
		if private {
			return Result{}, errNoNamespace
		}
		return Result{}, err
	}
	w.Close()
	report, _ := io.ReadAll(r)
	werr := cmd.Wait()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever of the group is left
	var res Result
	if len(report) == 0 {
		if werr == nil {
			werr = errors.New("no report")
		}
		return res, fmt.Errorf("prismrun: orchestrator: %v\n%s", werr, out.String())
	}
	if err := json.Unmarshal(report, &res); err != nil {
		return res, fmt.Errorf("prismrun: orchestrator report: %v", err)
	}
	res.Private = private
	if werr != nil {
		return res, fmt.Errorf("prismrun: launcher: %v\n%s", werr, res.Output)
	}
	return res, nil
}

// Serve is the orchestrator: when this process was started by Run, it
// runs the job, reports and exits; otherwise it returns at once.
func Serve() {
	spec, ok := os.LookupEnv(envJob)
	if !ok {
		return
	}
	os.Unsetenv(envJob)
	var job Job
	report := os.NewFile(3, "report")
	res, err := func() (Result, error) {
		if err := json.Unmarshal([]byte(spec), &job); err != nil {
			return Result{}, err
		}
		return serve(job)
	}()
	if err != nil && res.Output == "" {
		res.Output = err.Error()
	}
	json.NewEncoder(report).Encode(res)
	report.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func serve(job Job) (Result, error) {
	var res Result
	if err := loopbackUp(); err != nil {
		return res, err
	}
	ifs, err := net.Interfaces()
	if err != nil {
		return res, err
	}
	for _, i := range ifs {
		res.Interfaces = append(res.Interfaces, i.Name)
	}
	port, err := freePort()
	if err != nil {
		return res, err
	}
	prism := exec.Command(job.Prism, "-job_port="+strconv.Itoa(port), "-serve_http=false", "-log_level=warn")
	prism.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var prismOut strings.Builder
	prism.Stdout, prism.Stderr = &prismOut, &prismOut
	if err := prism.Start(); err != nil {
		return res, fmt.Errorf("starting prism: %w", err)
	}
	defer prism.Process.Kill()
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if err := waitListening(addr, time.Minute); err != nil {
		return res, fmt.Errorf("prism: %v\n%s", err, prismOut.String())
	}

	args := append(job.Launcher[1:len(job.Launcher):len(job.Launcher)], "--runner=universal", "--endpoint="+addr)
	launcher := exec.Command(job.Launcher[0], args...)
	launcher.Env = append(os.Environ(), job.Env...)
	launcher.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var out strings.Builder
	launcher.Stdout, launcher.Stderr = &out, &out
	start := time.Now()
	if err := launcher.Start(); err != nil {
		return res, err
	}
	done := make(chan error, 1)
	go func() { done <- launcher.Wait() }()
	workers := map[int]int64{}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	var lerr error
wait:
	for {
		select {
		case lerr = <-done:
			break wait
		case <-tick.C:
			sampleWorkers(workers, prism.Process.Pid, launcher.Process.Pid)
		}
	}
	res.Wall = time.Since(start)
	res.Output = out.String()
	sampleWorkers(workers, prism.Process.Pid, launcher.Process.Pid)

	prism.Process.Signal(syscall.SIGTERM)
	pdone := make(chan struct{})
	go func() { prism.Wait(); close(pdone) }()
	select {
	case <-pdone:
	case <-time.After(5 * time.Second):
		prism.Process.Kill()
		<-pdone
	}
	res.Procs = append(res.Procs, Proc{"prism", prism.Process.Pid, maxRSS(prism.ProcessState)},
		Proc{"launcher", launcher.Process.Pid, maxRSS(launcher.ProcessState)})
	for pid, hwm := range workers {
		res.Procs = append(res.Procs, Proc{"worker", pid, hwm})
	}
	if lerr != nil {
		return res, fmt.Errorf("launcher: %v\n%s\nprism:\n%s", lerr, res.Output, prismOut.String())
	}
	return res, nil
}

// maxRSS returns a waited process's peak resident set in bytes.
func maxRSS(st *os.ProcessState) int64 {
	if st == nil {
		return 0
	}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // kilobytes on Linux
	}
	return 0
}

// sampleWorkers records the peak resident set (VmHWM) of every process
// descended from prism or the launcher but those two: the SDK workers
// Prism starts (PROCESS environments), and what they start.
func sampleWorkers(hwm map[int]int64, roots ...int) {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces.
		s := string(b)
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			if f := strings.Fields(s[i+1:]); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
	}
	root := map[int]bool{}
	for _, r := range roots {
		root[r] = true
	}
	for pid := range parent {
		if root[pid] {
			continue
		}
		for p := parent[pid]; p > 1; p = parent[p] {
			if root[p] {
				if v := vmHWM(pid); v > hwm[pid] {
					hwm[pid] = v
				}
				break
			}
		}
	}
}

func vmHWM(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func waitListening(addr string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not listening on %s after %v: %v", addr, limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// loopbackUp brings up the loopback interface, which a new network
// namespace has down; in the machine's namespace it is up already.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr struct {
		name  [16]byte
		flags uint16
		_     [22]byte
	}
	copy(ifr.name[:], "lo")
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCGIFFLAGS, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return fmt.Errorf("prismrun: reading lo's flags: %v", e)
	}
	if ifr.flags&syscall.IFF_UP != 0 {
		return nil
	}
	ifr.flags |= syscall.IFF_UP
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return fmt.Errorf("prismrun: bringing lo up: %v", e)
	}
	return nil
}
