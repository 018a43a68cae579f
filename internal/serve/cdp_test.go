package serve

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// browser is headless Chromium driven over the DevTools protocol on a
// pipe (--remote-debugging-pipe: commands on its fd 3, answers on fd 4,
// each a JSON message ended by a NUL byte), attached to one page.
type browser struct {
	cmd     *exec.Cmd
	w       io.WriteCloser
	r       *bufio.Reader
	id      int
	session string
}

// openBrowser starts Chromium on url; the test is skipped when Chromium is
// not installed, and Chromium is killed at the end of the test or after
// two minutes, whichever comes first.
func openBrowser(t *testing.T, url string) *browser {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed")
	}
	toChrome, ourEnd, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	theirEnd, fromChrome, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+profileDir(t), "--window-size=900,800", "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome} // fds 3 and 4
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toChrome.Close()
	fromChrome.Close()
	kill := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	b := &browser{cmd: cmd, w: ourEnd, r: bufio.NewReader(theirEnd)}
	t.Cleanup(func() {
		// Browser.close lets Chromium end its helper processes itself.
		b.session = ""
		b.id++
		fmt.Fprintf(ourEnd, `{"id":%d,"method":"Browser.close"}`+"\x00", b.id)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		kill.Stop()
		ourEnd.Close()
		theirEnd.Close()
	})
	var target struct{ TargetID string }
	b.call(t, "Target.createTarget", map[string]any{"url": url}, &target)
	var attached struct{ SessionID string }
	b.call(t, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	return b
}

// call sends a command and decodes its result into out, skipping events.
func (b *browser) call(t *testing.T, method string, params, out any) {
	t.Helper()
	b.id++
	msg := map[string]any{"id": b.id, "method": method, "params": params}
	if b.session != "" {
		msg["sessionId"] = b.session
	}
	data, _ := json.Marshal(msg)
	if _, err := b.w.Write(append(data, 0)); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	for {
		line, err := b.r.ReadBytes(0)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		var res struct {
			ID     int
			Result json.RawMessage
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(line[:len(line)-1], &res); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if res.ID != b.id {
			continue // an event, or another session's message
		}
		if res.Error != nil {
			t.Fatalf("%s: %s", method, res.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(res.Result, out); err != nil {
				t.Fatalf("%s: %v", method, err)
			}
		}
		return
	}
}

// eval evaluates a JavaScript expression in the page and returns its
// value as JSON.
func (b *browser) eval(t *testing.T, expr string) string {
	t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage
		}
		ExceptionDetails *struct{ Text string }
	}
	b.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &res)
	if res.ExceptionDetails != nil {
		t.Fatalf("%s: %s", expr, res.ExceptionDetails.Text)
	}
	return string(res.Result.Value)
}

// waitFor evaluates expr until it is true; an exception, as while the page
// is still loading, counts as false.
func (b *browser) waitFor(t *testing.T, expr string) {
	t.Helper()
	safe := "(() => { try { return " + expr + " } catch (e) { return false } })()"
	for deadline := time.Now().Add(time.Minute); b.eval(t, safe) != "true"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", expr)
		}
	}
}

// screenshot returns the page as PNG.
func (b *browser) screenshot(t *testing.T) []byte {
	t.Helper()
	var shot struct{ Data string }
	b.call(t, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		t.Fatal(err)
	}
	return png
}

func jsString(s string) string { return fmt.Sprintf("%q", s) } // Go's quoting is valid JavaScript for these texts

// profileDir returns a Chromium profile folder, removed after the test.
// Chromium's helper processes may still write to it for a moment after the
// browser has exited, so removal is retried, and a leftover is no failure.
func profileDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "textnb-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove %s", dir)
	})
	return dir
}
