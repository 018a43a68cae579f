package serve

import (
	"image/png"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// chromium runs headless Chromium with args and returns its standard
// output; the test is skipped when Chromium is not installed.
func chromium(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed")
	}
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--virtual-time-budget=10000"}
	out, err := exec.Command(bin, append(base, args...)...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return string(out)
}

// The page loads the models, classifies a text as submitted from its
// form, and shows the label, one bar per class and the highlighted terms.
func TestPageInChromium(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium is not installed")
	}
	s, err := Static(Options{Log: quiet}, Named{Name: "flowers", Table: flowers(t)}, Named{Name: "spam", Text: train(t, spamTSV)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	page := hs.URL + "/?model=spam&text=" + url.QueryEscape("WINNER! Claim your free prize now, call 09061701461")

	dom := chromium(t, "--dump-dom", page)
	for _, want := range []string{
		`data-state="done"`,
		`<span id="label">spam</span>`,
		`<option value="spam">spam</option>`,
		`<div class="bar best"><span class="name" title="spam">spam</span>`,
		`<span class="name" title="ham">ham</span>`,
		`<mark title="prize: `,
		`<span class="toward" id="toward">spam</span>`,
	} {
		if !strings.Contains(dom, want) {
			t.Errorf("the page after classifying lacks %s:\n%s", want, dom)
		}
	}
	if strings.Contains(dom, `value="flowers"`) {
		t.Error("the page offers a table model, which it cannot classify text with")
	}

	shot := filepath.Join(t.TempDir(), "page.png")
	chromium(t, "--window-size=900,800", "--screenshot="+shot, page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// The best class's bar is drawn in green (#2a9d55) somewhere.
	green := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 == 0x2a && g>>8 == 0x9d && bl>>8 == 0x55 {
				green++
			}
		}
	}
	if b.Dx() != 900 || green < 100 {
		t.Errorf("screenshot %v with %d pixels of the best class's bar", b, green)
	}
	if dir := os.Getenv("TEXTNB_SCREENSHOT_DIR"); dir != "" { // to look at it
		data, _ := os.ReadFile(shot)
		os.WriteFile(filepath.Join(dir, "serve-page.png"), data, 0o644)
	}
}
