package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	facade "github.com/textnb/textnb"
)

// serveFlags are the settings of textnb serve.
type serveFlags struct {
	addr, tokenFile                        string
	insecure, noWatch, learn               bool
	maxBody                                int64
	maxBatch                               int
	readTimeout, writeTimeout, idleTimeout time.Duration
	drain                                  time.Duration
	compactEvery                           time.Duration
	compactSize                            int64
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "serve [--addr 127.0.0.1:8080] [flags] MODEL…\n\n"+
		"MODEL is PATH or NAME=PATH (text, table or multi-label model); the name, by default the file name less its\n"+
		"extension, is the {name} of POST /v1/models/{name}/predict. A model reloads on SIGHUP and when its\n"+
		"file is replaced; SIGTERM or SIGINT drain the requests under way and stop. --learn adds\n"+
		"POST /v1/models/{name}/learn and /unlearn, journaled beside each model file. See docs/serve.md", stderr)
	var f serveFlags
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "listen on `host:port`")
	fs.StringVar(&f.tokenFile, "token-file", "", "require the bearer token in this `file` (needed to listen beyond loopback)")
	fs.BoolVar(&f.insecure, "insecure-no-token", false, "listen beyond loopback without a token")
	fs.BoolVar(&f.noWatch, "no-watch", false, "do not reload models when their files change (SIGHUP still does)")
	fs.Int64Var(&f.maxBody, "max-body", facade.DefaultMaxBody, "largest request body in `bytes`")
	fs.IntVar(&f.maxBatch, "max-batch", facade.DefaultMaxBatch, "most documents or rows in one request")
	fs.DurationVar(&f.readTimeout, "read-timeout", 30*time.Second, "time to read a request")
	fs.DurationVar(&f.writeTimeout, "write-timeout", 60*time.Second, "time to answer a request, from the end of its headers")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", 120*time.Second, "how long an idle keep-alive connection stays open")
	fs.DurationVar(&f.drain, "drain", 30*time.Second, "on SIGTERM or SIGINT, how long requests under way may take to finish")
	fs.BoolVar(&f.learn, "learn", false, "take POST /v1/models/{name}/learn and /unlearn (needs --token-file, even on loopback)")
	fs.DurationVar(&f.compactEvery, "compact-every", facade.DefaultCompactEvery, "with --learn, how often a model's journal is written into its file")
	fs.Int64Var(&f.compactSize, "compact-size", facade.DefaultCompactBytes, "with --learn, also write a journal into its model file once it has this many `bytes`")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("%w: need at least one MODEL (see --help)", errUsage)
	}
	if f.maxBody < 1 || f.maxBatch < 1 {
		return fmt.Errorf("%w: --max-body and --max-batch must be at least 1", errUsage)
	}
	if f.compactEvery <= 0 || f.compactSize < 1 {
		return fmt.Errorf("%w: --compact-every and --compact-size must be positive", errUsage)
	}
	if f.learn && f.tokenFile == "" {
		return fmt.Errorf("%w: --learn changes the models: give --token-file, even on loopback", errUsage)
	}
	models := make([]facade.Served, len(pos))
	for i, p := range pos {
		if models[i], err = facade.ParseServed(p); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	opt := facade.ServeOptions{MaxBody: f.maxBody, MaxBatch: f.maxBatch, Watch: !f.noWatch,
		Log:   slog.New(slog.NewTextHandler(stderr, nil)),
		Learn: f.learn, CompactEvery: f.compactEvery, CompactBytes: f.compactSize}
	if f.tokenFile != "" {
		if opt.Token, err = readToken(f.tokenFile); err != nil {
			return err
		}
	}
	loop, err := loopback(f.addr)
	if err != nil {
		return fmt.Errorf("%w: --addr %s: %v", errUsage, f.addr, err)
	}
	if !loop && opt.Token == "" && !f.insecure {
		return fmt.Errorf("%w: --addr %s is reachable from other machines: give --token-file (or --insecure-no-token to serve anyone)", errUsage, f.addr)
	}
	srv, err := facade.NewServer(opt, models...)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return serveOn(ctx, ln, srv, f, hup, opt.Log, stdout)
}

// serveOn serves on ln: it answers health checks at once, loads the models
// (/readyz turns 200 when they are loaded and warm), reloads them on hup
// (and as their files change, unless --no-watch), and drains when ctx is
// done.
func serveOn(ctx context.Context, ln net.Listener, srv *facade.Server, f serveFlags, hup <-chan os.Signal, log *slog.Logger, stdout io.Writer) error {
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: min(f.readTimeout, 10*time.Second),
		ReadTimeout:       f.readTimeout,
		WriteTimeout:      f.writeTimeout,
		IdleTimeout:       f.idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(stdout, "textnb serve: listening on http://%s\n", ln.Addr())
	if err := srv.Load(); err != nil {
		hs.Close()
		srv.Close()
		return err
	}
	fmt.Fprintf(stdout, "textnb serve: ready\n")
	for {
		select {
		case err := <-served:
			srv.Close()
			return err
		case <-hup:
			log.Info("SIGHUP: reloading every model")
			srv.Reload() // failures are logged, and the old versions serve
		case <-ctx.Done():
			log.Info("draining", "timeout", f.drain)
			sctx, cancel := context.WithTimeout(context.Background(), f.drain)
			defer cancel()
			err := hs.Shutdown(sctx)
			// Then the watch stops and the journals go into the model
			// files (with --learn).
			if cerr := srv.Close(); cerr != nil {
				log.Error("writing the journals into the model files", "err", cerr)
			}
			if err != nil {
				return fmt.Errorf("drain: %w", err)
			}
			return nil
		}
	}
}

// readToken reads a bearer token: the file's first line, which must not be
// empty.
func readToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok, _, _ := strings.Cut(string(b), "\n")
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", fmt.Errorf("%s: the token file is empty", path)
	}
	return tok, nil
}

// loopback reports whether addr can be reached from this machine only:
// its host is a loopback address or a name that resolves only to such.
func loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if host == "" {
		return false, nil // every interface
	}
	ips := []net.IP{net.ParseIP(host)}
	if ips[0] == nil {
		if ips, err = net.LookupIP(host); err != nil {
			return false, err
		}
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false, nil
		}
	}
	return len(ips) > 0, nil
}
