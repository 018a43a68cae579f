package serve

import (
	"bytes"
	"image"
	"image/png"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/textnb/textnb/internal/multilabel"
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
		"--user-data-dir=" + profileDir(t), "--virtual-time-budget=10000"}
	out, err := exec.Command(bin, append(base, args...)...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return string(out)
}

// A user picks a model, types a text and presses Classify: the page shows
// the label, one bar per class and the terms highlighted.
func TestPageTyped(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium is not installed")
	}
	s, err := Static(Options{Log: quiet}, Named{Name: "news", Text: train(t, newsTrain)}, Named{Name: "spam", Text: train(t, spamTSV)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	b := openBrowser(t, hs.URL+"/")
	b.waitFor(t, `document.getElementById("model").options.length === 2`)
	b.eval(t, `(() => {
		const sel = document.getElementById("model");
		sel.value = "spam";
		sel.dispatchEvent(new Event("change"));
		document.getElementById("text").value = `+jsString("WINNER! Claim your free prize now")+`;
		document.getElementById("submit").click();
		return true;
	})()`)
	b.waitFor(t, `document.body.dataset.state === "done"`)
	for expr, want := range map[string]string{
		`document.getElementById("label").textContent`:                    `"spam"`,
		`document.querySelectorAll("#bars .bar").length`:                  `2`,
		`document.querySelector("#bars .bar.best .name").textContent`:     `"spam"`,
		`document.querySelectorAll("#highlighted mark").length > 2`:       `true`,
		`document.getElementById("explain").hidden`:                       `false`,
		`document.getElementById("info").textContent`:                     `"2 classes, version 1"`,
		`document.querySelector("#highlighted mark").title.split(":")[0]`: `"winner"`,
	} {
		if got := b.eval(t, expr); got != want {
			t.Errorf("%s = %s, want %s", expr, got, want)
		}
	}
	shot := b.screenshot(t)
	keep(t, "serve-page-typed.png", shot)
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if n := pixels(img, 0x2a, 0x9d, 0x55); n < 100 {
		t.Errorf("the screenshot shows %d pixels of the best class's green bar", n)
	}
}

// The page at ?model=…&text=… classifies the text by itself: a link to a
// result.
func TestPageLink(t *testing.T) {
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
	if n := pixels(img, 0x2a, 0x9d, 0x55); img.Bounds().Dx() != 900 || n < 100 {
		t.Errorf("screenshot %v with %d pixels of the best class's green bar", img.Bounds(), n)
	}
	data, _ := os.ReadFile(shot)
	keep(t, "serve-page-link.png", data)
}

// pixels counts the pixels of colour r, g, b in every other row and column.
func pixels(img image.Image, r, g, b uint32) int {
	n := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if pr>>8 == r && pg>>8 == g && pb>>8 == b {
				n++
			}
		}
	}
	return n
}

// keep copies a screenshot to $TEXTNB_SCREENSHOT_DIR, if set, to look at.
func keep(t *testing.T, name string, png []byte) {
	if dir := os.Getenv("TEXTNB_SCREENSHOT_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// With a multi-label model the page shows the labels above their
// thresholds, every label's bar with its threshold marked, and no
// explanation; a text model after it shows one label again.
func TestPageMultiLabel(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium is not installed")
	}
	mm := trainMulti(t, multilabel.Config{})
	s, err := Static(Options{Log: quiet}, Named{Name: "topics", Multi: mm}, Named{Name: "spam", Text: train(t, spamTSV)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	const text = "broadcasters paid record fees for match rights and the club's stock jumped"
	p := mm.NewPredictor()
	proba := p.Proba(nil, text)
	var want []string
	for _, l := range p.Decide(nil, proba) {
		want = append(want, mm.Labels[l])
	}
	if len(want) < 2 {
		t.Fatalf("%q gets labels %v: the test wants a text of several", text, want)
	}
	b := openBrowser(t, hs.URL+"/?model=topics")
	b.waitFor(t, `document.getElementById("model").options.length === 2`)
	classify := func(model, text string) {
		t.Helper()
		b.eval(t, `(() => {
			document.body.dataset.state = "";
			const sel = document.getElementById("model");
			sel.value = `+jsString(model)+`;
			sel.dispatchEvent(new Event("change"));
			document.getElementById("text").value = `+jsString(text)+`;
			document.getElementById("submit").click();
			return true;
		})()`)
		b.waitFor(t, `document.body.dataset.state === "done"`)
	}
	classify("topics", text)
	checks := map[string]string{
		`document.getElementById("label-heading").textContent`:       `"Labels"`,
		`document.getElementById("label").textContent`:               jsString(strings.Join(want, ", ")),
		`document.getElementById("info").textContent`:                `"4 labels, version 1"`,
		`document.querySelectorAll("#bars .bar").length`:             `4`,
		`document.querySelectorAll("#bars .bar.best").length`:        strconv.Itoa(len(want)),
		`document.querySelectorAll("#bars .threshold").length`:       `4`,
		`document.getElementById("multi-note").hidden`:               `false`,
		`document.getElementById("explain").hidden`:                  `true`,
		`document.getElementById("error").hidden`:                    `true`,
		`document.querySelector("#bars .bar .name").textContent`:     jsString(want[0]),
		`document.querySelector("#bars .bar .threshold").style.left`: jsString(strconv.FormatFloat(100*mm.Thresholds[slices.Index(mm.Labels, want[0])], 'f', 1, 64) + "%"),
		`document.querySelector("#bars .bar .p").textContent`:        jsString(strconv.FormatFloat(100*proba[slices.Index(mm.Labels, want[0])], 'f', 1, 64) + "%"),
	}
	for expr, want := range checks {
		if got := b.eval(t, expr); got != want {
			t.Errorf("%s = %s, want %s", expr, got, want)
		}
	}
	shot := b.screenshot(t)
	keep(t, "serve-page-multilabel.png", shot)
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if n := pixels(img, 0x2a, 0x9d, 0x55); n < 100 {
		t.Errorf("the screenshot shows %d pixels of the predicted labels' green bars", n)
	}

	classify("spam", "WINNER! Claim your free prize now")
	for expr, want := range map[string]string{
		`document.getElementById("label-heading").textContent`: `"Label"`,
		`document.getElementById("label").textContent`:         `"spam"`,
		`document.querySelectorAll("#bars .threshold").length`: `0`,
		`document.getElementById("multi-note").hidden`:         `true`,
		`document.getElementById("explain").hidden`:            `false`,
	} {
		if got := b.eval(t, expr); got != want {
			t.Errorf("after the text model: %s = %s, want %s", expr, got, want)
		}
	}
}

// The page goes by the answer, not by the model list it loaded: a model
// whose file a reload replaced with a multi-label model shows its labels.
func TestPageModelChangesKind(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium is not installed")
	}
	path := save(t, filepath.Join(t.TempDir(), "m.model"), train(t, spamTSV))
	s, url := start(t, Options{Log: quiet}, Spec{"m", path})
	b := openBrowser(t, url+"/?model=m")
	b.waitFor(t, `document.getElementById("model").options.length === 1`)
	classify := func(text string) {
		t.Helper()
		b.eval(t, `(() => {
			document.body.dataset.state = "";
			document.getElementById("text").value = `+jsString(text)+`;
			document.getElementById("submit").click();
			return true;
		})()`)
		b.waitFor(t, `document.body.dataset.state === "done"`)
	}
	classify("WINNER! Claim your free prize now")
	if got := b.eval(t, `document.getElementById("label").textContent`); got != `"spam"` {
		t.Fatalf("the text model's label: %s", got)
	}
	mm := trainMulti(t, multilabel.Config{})
	save(t, path, mm)
	if err := s.ReloadModel("m"); err != nil {
		t.Fatal(err)
	}
	const text = "broadcasters paid record fees for match rights and the club's stock jumped"
	p := mm.NewPredictor()
	var want []string
	for _, l := range p.Decide(nil, p.Proba(nil, text)) {
		want = append(want, mm.Labels[l])
	}
	classify(text)
	for expr, w := range map[string]string{
		`document.getElementById("label-heading").textContent`: `"Labels"`,
		`document.getElementById("label").textContent`:         jsString(strings.Join(want, ", ")),
		`document.querySelectorAll("#bars .bar").length`:       strconv.Itoa(len(mm.Labels)),
		`document.querySelectorAll("#bars .bar.best").length`:  strconv.Itoa(len(want)),
		`document.getElementById("error").hidden`:              `true`,
	} {
		if got := b.eval(t, expr); got != w {
			t.Errorf("after the reload: %s = %s, want %s", expr, got, w)
		}
	}
}
