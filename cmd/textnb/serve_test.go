package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run the command as a process of its own (the test
// binary with $TEXTNB_RUN_MAIN set), to send it signals.
func TestMain(m *testing.M) {
	if os.Getenv("TEXTNB_RUN_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestServeRefusals(t *testing.T) {
	model := trainTo(t, spamTSV)
	empty := filepath.Join(t.TempDir(), "token")
	os.WriteFile(empty, []byte("\n"), 0o600)
	mustFail(t, 2, []string{"need at least one MODEL"}, "serve")
	mustFail(t, 2, []string{"--addr 0.0.0.0:0 is reachable from other machines", "--token-file"}, "serve", "--addr", "0.0.0.0:0", model)
	mustFail(t, 2, []string{"--addr :0 is reachable"}, "serve", "--addr", ":0", model)
	mustFail(t, 1, []string{"the token file is empty"}, "serve", "--token-file", empty, model)
	mustFail(t, 2, []string{"--learn changes the models", "--token-file, even on loopback"}, "serve", "--learn", model)
	mustFail(t, 2, []string{"bad model argument", "use only letters"}, "serve", "a b="+model)
	mustFail(t, 2, []string{`two models named "m"`}, "serve", "m="+model, "m="+model)
	mustFail(t, 1, []string{"missing.model"}, "serve", "--addr", "127.0.0.1:0", filepath.Join(t.TempDir(), "missing.model"))
	for addr, want := range map[string]bool{"127.0.0.1:1": true, "[::1]:1": true, "localhost:1": true, "0.0.0.0:1": false, ":1": false, "192.0.2.1:1": false} {
		if got, err := loopback(addr); err != nil || got != want {
			t.Errorf("loopback(%q) = %v, %v, want %v", addr, got, err, want)
		}
	}
}

// servedProcess is textnb serve running as a process.
type servedProcess struct {
	cmd    *exec.Cmd
	url    string
	stdout *bufio.Scanner
}

func startServe(t *testing.T, args ...string) *servedProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "TEXTNB_RUN_MAIN=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &servedProcess{cmd: cmd, stdout: bufio.NewScanner(out)}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	for p.stdout.Scan() {
		line := p.stdout.Text()
		if u, ok := strings.CutPrefix(line, "textnb serve: listening on "); ok {
			p.url = u
		}
		if line == "textnb serve: ready" {
			return p
		}
	}
	t.Fatalf("textnb serve stopped before it was ready")
	return nil
}

func (p *servedProcess) predict(t *testing.T, token, text string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", p.url+"/v1/models/m/predict", strings.NewReader(fmt.Sprintf(`{"text":%q}`, text)))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	json.NewDecoder(res.Body).Decode(&body)
	return res.StatusCode, body
}

// The command serves with a token, reloads on SIGHUP and, on SIGTERM,
// finishes the request under way before it exits.
func TestServeSignals(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	mustRun(t, "", "train", spamTSV, "-o", model)
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("tok3n\n"), 0o600)
	p := startServe(t, "--token-file", tokenFile, "--no-watch", "m="+model)

	if code, _ := p.predict(t, "", "free prize"); code != 401 {
		t.Errorf("without the token: %d", code)
	}
	code, body := p.predict(t, "tok3n", "free prize")
	if code != 200 || body["label"] != "spam" || body["generation"] != 1.0 {
		t.Fatalf("predict: %d %v", code, body)
	}

	mustRun(t, "", "train", newsTrain, "-o", model) // --no-watch: only SIGHUP reloads
	p.cmd.Process.Signal(syscall.SIGHUP)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, body = p.predict(t, "tok3n", "hockey"); body["generation"] == 2.0 || time.Now().After(deadline) {
			break
		}
	}
	if _, ok := body["proba"].(map[string]any)["sport"]; body["generation"] != 2.0 || !ok {
		t.Fatalf("after SIGHUP: %v", body)
	}

	// A request whose body is still arriving when SIGTERM comes is answered.
	conn, err := net.Dial("tcp", strings.TrimPrefix(p.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := `{"text":"the match went to overtime"}`
	fmt.Fprintf(conn, "POST /v1/models/m/predict HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok3n\r\nContent-Length: %d\r\n\r\n%s", len(req), req[:10])
	time.Sleep(200 * time.Millisecond) // the server is reading the body
	p.cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(200 * time.Millisecond)
	io.WriteString(conn, req[10:])
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the request under way at SIGTERM: %v", err)
	}
	if res.StatusCode != 200 {
		t.Errorf("the request under way at SIGTERM: %d", res.StatusCode)
	}
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("textnb serve after SIGTERM: %v", err)
	}
	if _, err := http.Get(p.url + "/healthz"); err == nil {
		t.Error("still serving after SIGTERM")
	}
}

// post sends body to path of the served process and decodes the answer.
func (p *servedProcess) post(t *testing.T, path, body string, out any) int {
	t.Helper()
	res, err := http.Post(p.url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode
}

// multiPrediction is a multi-label prediction as predict --json prints it
// and serve answers it (less predict's source).
type multiPrediction struct {
	Labels []jsonClass        `json:"labels"`
	Proba  map[string]float64 `json:"proba"`
	Label  *string            `json:"label"`
}

// textnb serve answers for a multi-label model file what textnb predict
// --json prints for it, with the same options, and serves the new file
// after SIGHUP.
func TestServeMultiLabel(t *testing.T) {
	model := filepath.Join(t.TempDir(), "topics.model")
	mustRun(t, "", "train", multiJSONL, "--multi-label", "-o", model)
	texts := []string{
		"broadcasters paid record fees for match rights and the club's stock jumped",
		"The chip maker's stock jumped as revenue from servers beat forecasts",
		"the nurses warned of a hard flu season",
		"zzz qqq",
	}
	// predicted returns predict --json's lines for texts, without sources.
	predicted := func(flags ...string) []multiPrediction {
		t.Helper()
		out := mustRun(t, strings.Join(texts, "\n")+"\n", append([]string{"predict", "-m", model, "--json"}, append(flags, "-")...)...)
		var got []multiPrediction
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var p multiPrediction
			if err := json.Unmarshal([]byte(line), &p); err != nil {
				t.Fatalf("predict --json %v: %q: %v", flags, line, err)
			}
			got = append(got, p)
		}
		return got
	}
	p := startServe(t, "--no-watch", model)
	compare := func(options string, flags ...string) {
		t.Helper()
		js, _ := json.Marshal(texts)
		var got struct{ Predictions []multiPrediction }
		if code := p.post(t, "/v1/models/topics/predict", `{"texts":`+string(js)+options+`}`, &got); code != 200 {
			t.Fatalf("predict %s: %d", options, code)
		}
		want := predicted(flags...)
		if len(got.Predictions) != len(texts) || len(want) != len(texts) {
			t.Fatalf("%s: %d served predictions and %d printed for %d texts", options, len(got.Predictions), len(want), len(texts))
		}
		for i := range texts {
			g, w := got.Predictions[i], want[i]
			if g.Label != nil || fmt.Sprint(g.Labels) != fmt.Sprint(w.Labels) || fmt.Sprint(g.Proba) != fmt.Sprint(w.Proba) {
				t.Errorf("%q%s: served %+v, predict --json %v prints %+v", texts[i], options, g, flags, w)
			}
		}
	}
	compare("")
	compare(`,"top":2`, "--top", "2")
	compare(`,"threshold":0.2`, "--threshold", "0.2")

	mustRun(t, "", "train", multiJSONL, "--multi-label", "--allow-empty", "-o", model)
	p.cmd.Process.Signal(syscall.SIGHUP)
	var info struct {
		Generation int
		Kind       string
		Multi      struct {
			AllowEmpty bool `json:"allow_empty"`
		}
	}
	for deadline := time.Now().Add(time.Minute); info.Generation != 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		res, err := http.Get(p.url + "/v1/models/topics")
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(res.Body).Decode(&info)
		res.Body.Close()
	}
	if info.Generation != 2 || info.Kind != "multi-label" || !info.Multi.AllowEmpty {
		t.Fatalf("after SIGHUP: %+v, want generation 2 of the allow-empty model", info)
	}
	compare("")
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("textnb serve after SIGTERM: %v", err)
	}
}
