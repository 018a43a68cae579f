package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCLIEvalReport writes an HTML report and checks it is one
// self-contained page holding what eval found, with names escaped.
func TestCLIEvalReport(t *testing.T) {
	model := trainTo(t, newsTrain)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.html")
	text := mustRun(t, "", "eval", "-m", model, "--report", report, newsTest)
	var ev evalReport
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", newsTest)), &ev); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "misclassified documents") {
		t.Error("--report alone lists errors in the text output")
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, bad := range []string{"http://", "https://", "<link", "<script", "src=", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the report is not self-contained: it holds %q", bad)
		}
	}
	wrong := ev.N - correct(ev.Evaluation)
	for _, want := range []string{`<svg id="scores"`, `<svg id="confusion"`, fmt.Sprintf("<b>%.4f</b>", ev.Accuracy),
		fmt.Sprintf("<b>%.4f</b>", ev.MacroF1), fmt.Sprintf("The first %d of %d", wrong, wrong), "= margin of "} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if n := strings.Count(page, `<div class="doc">`); n != wrong {
		t.Errorf("%d misclassified documents shown, want %d", n, wrong)
	}
	// one heat-map cell per pair of classes, each with a title
	if n := strings.Count(page, `stroke="#fff"`); n != len(ev.Labels)*len(ev.Labels) {
		t.Errorf("%d heat-map cells, want %d", n, len(ev.Labels)*len(ev.Labels))
	}

	// Names are escaped; the report may not overwrite an input or a folder.
	evil := `<img src=x onerror=alert(1)>`
	tsv := write(t, map[string]string{"evil.tsv": "label\ttext\n" + strings.Repeat(evil+"\tapple pie\nplain\tbanana split\n", 5)})
	evilModel := trainTo(t, filepath.Join(tsv, "evil.tsv"))
	mustRun(t, "", "eval", "-m", evilModel, "--report", report, filepath.Join(tsv, "evil.tsv"))
	if b, _ := os.ReadFile(report); strings.Contains(string(b), evil) || !strings.Contains(string(b), html.EscapeString(evil)) {
		t.Error("a class name reaches the report unescaped")
	}
	before, _ := os.ReadFile(filepath.Join(tsv, "evil.tsv"))
	mustFail(t, 2, []string{"would overwrite the input"}, "eval", "-m", evilModel, "--report", filepath.Join(tsv, "evil.tsv"), filepath.Join(tsv, "evil.tsv"))
	mustFail(t, 2, []string{"would overwrite the input"}, "eval", "-m", evilModel, "--report", evilModel, filepath.Join(tsv, "evil.tsv"))
	mustFail(t, 2, []string{"not a regular file"}, "eval", "-m", evilModel, "--report", dir, filepath.Join(tsv, "evil.tsv"))
	if after, _ := os.ReadFile(filepath.Join(tsv, "evil.tsv")); string(after) != string(before) {
		t.Error("a refused --report changed the corpus")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the report's folder holds %d entries, want the report alone", len(entries))
	}
}

// chromium returns the path of a headless-capable Chromium, or skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium: the report is not checked in a browser")
	return ""
}

// runChromium runs headless Chromium on a page with extra flags and
// returns its standard output.
func runChromium(t *testing.T, bin, page string, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a guard against a hang, not a speed check
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}, flags...)
	out, err := exec.CommandContext(ctx, bin, append(args, "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium %s: %v", strings.Join(flags, " "), err)
	}
	return string(out)
}

// TestReportInBrowser renders the report in headless Chromium: the page
// loads, its two charts are laid out at their size, and a screenshot shows
// the heat map's colours.
func TestReportInBrowser(t *testing.T) {
	bin := chromium(t)
	model := trainTo(t, newsTrain)
	dir := t.TempDir()
	report := filepath.Join(dir, "report.html")
	mustRun(t, "", "eval", "-m", model, "--report", report, newsTest)
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	// A copy of the page measures its charts as laid out and writes the
	// sizes into the DOM, which --dump-dom prints.
	probe := `<script>document.body.setAttribute("data-svg", JSON.stringify([...document.querySelectorAll("svg")].map(s => {
	const r = s.getBoundingClientRect(); return {id: s.id, w: r.width, h: r.height, rects: s.querySelectorAll("rect").length};
})));</script></body>`
	measured := filepath.Join(dir, "measured.html")
	if err := os.WriteFile(measured, []byte(strings.Replace(string(page), "</body>", probe, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runChromium(t, bin, measured, "--dump-dom")
	m := regexp.MustCompile(`data-svg="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page did not run: no sizes in the DOM:\n%.2000s", dom)
	}
	var svgs []struct {
		ID    string
		W, H  float64
		Rects int
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &svgs); err != nil {
		t.Fatal(err)
	}
	sizes := map[string][2]float64{}
	for _, s := range svgs {
		sizes[s.ID] = [2]float64{s.W, s.H}
		if s.ID == "confusion" && s.Rects != 16 || s.ID == "scores" && s.Rects != 3+4*3 {
			t.Errorf("svg %s has %d rects", s.ID, s.Rects)
		}
	}
	if s := sizes["scores"]; len(svgs) != 2 || s[0] < 400 || s[1] < 100 || sizes["confusion"][0] < 150 || sizes["confusion"][1] < 150 {
		t.Errorf("charts laid out as %+v", svgs)
	}
	if !strings.Contains(dom, "Misclassified documents") || !strings.Contains(dom, "= margin of") {
		t.Error("the rendered page lacks its misclassified documents")
	}

	shot := filepath.Join(dir, "report.png")
	runChromium(t, bin, report, "--window-size=1200,1800", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 1800 {
		t.Fatalf("screenshot is %v", b)
	}
	// The diagonal's blue (#08519c at full share) and the bars' blue
	// (#4e79a7) must be on screen.
	count := map[[3]uint32]int{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			count[[3]uint32{r >> 8, g >> 8, b >> 8}]++
		}
	}
	near := func(c [3]uint32) int {
		n := 0
		for k, v := range count {
			if diff(k[0], c[0]) < 12 && diff(k[1], c[1]) < 12 && diff(k[2], c[2]) < 12 {
				n += v
			}
		}
		return n
	}
	if n := near([3]uint32{0x08, 0x51, 0x9c}); n < 500 {
		t.Errorf("%d pixels of the heat map's diagonal blue", n)
	}
	if n := near([3]uint32{0x4e, 0x79, 0xa7}); n < 500 {
		t.Errorf("%d pixels of the precision bars' blue", n)
	}
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
