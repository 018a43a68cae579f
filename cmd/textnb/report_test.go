package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/metrics"
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
	selfContained(t, page)
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

// selfContained fails t if page would fetch or run anything.
func selfContained(t *testing.T, page string) {
	t.Helper()
	for _, bad := range []string{"http://", "https://", "<link", "<script", "src=", "url("} {
		if strings.Contains(page, bad) {
			t.Errorf("the report is not self-contained: it holds %q", bad)
		}
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
	svgs, dom := measureSVGs(t, bin, report)
	sizes := map[string][2]float64{}
	for _, s := range svgs {
		sizes[s.ID] = [2]float64{s.W, s.H}
		if s.ID == "confusion" && s.Rects != 16 || s.ID == "scores" && s.Rects != 3+4*3 {
			t.Errorf("svg %s has %d rects", s.ID, s.Rects)
		}
	}
	if s := sizes["scores"]; len(svgs) != 3 || s[0] < 400 || s[1] < 100 || sizes["confusion"][0] < 150 || sizes["confusion"][1] < 150 {
		t.Errorf("charts laid out as %+v", svgs)
	}
	if !strings.Contains(dom, "Misclassified documents") || !strings.Contains(dom, "= margin of") {
		t.Error("the rendered page lacks its misclassified documents")
	}

	near := screenshot(t, bin, report, 1800)
	// The diagonal's blue (#08519c at full share) and the bars' blue
	// (#4e79a7) must be on screen.
	if n := near([3]uint32{0x08, 0x51, 0x9c}); n < 500 {
		t.Errorf("%d pixels of the heat map's diagonal blue", n)
	}
	if n := near([3]uint32{0x4e, 0x79, 0xa7}); n < 500 {
		t.Errorf("%d pixels of the precision bars' blue", n)
	}
}

// svgSize is an SVG chart as laid out in the browser.
type svgSize struct {
	ID    string
	W, H  float64
	Rects int
	Bars  []float64 // the widths of its rects
}

// measureSVGs renders a copy of page with a probe that measures its
// charts as laid out and writes the sizes into the DOM, which
// --dump-dom prints; it returns them and the DOM.
func measureSVGs(t *testing.T, bin, page string) ([]svgSize, string) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := `<script>document.body.setAttribute("data-svg", JSON.stringify([...document.querySelectorAll("svg")].map(s => {
	const r = s.getBoundingClientRect(); return {id: s.id, w: r.width, h: r.height, rects: s.querySelectorAll("rect").length,
		bars: [...s.querySelectorAll("rect")].map(b => b.getBoundingClientRect().width)};
})));</script></body>`
	measured := filepath.Join(t.TempDir(), "measured.html")
	if err := os.WriteFile(measured, []byte(strings.Replace(string(b), "</body>", probe, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := runChromium(t, bin, measured, "--dump-dom")
	m := regexp.MustCompile(`data-svg="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page did not run: no sizes in the DOM:\n%.2000s", dom)
	}
	var svgs []svgSize
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &svgs); err != nil {
		t.Fatal(err)
	}
	return svgs, dom
}

// screenshot renders page at 1200×h and returns a count of its pixels
// near a colour; with $TEXTNB_SCREENSHOTS set it keeps the picture there.
func screenshot(t *testing.T, bin, page string, h int) func(c [3]uint32) int {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "report.png")
	runChromium(t, bin, page, fmt.Sprintf("--window-size=1200,%d", h), "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != h {
		t.Fatalf("screenshot is %v", b)
	}
	if dir := os.Getenv("TEXTNB_SCREENSHOTS"); dir != "" { // to look at them
		if b, err := os.ReadFile(shot); err == nil {
			os.WriteFile(filepath.Join(dir, filepath.Base(page)+".png"), b, 0o644)
		}
	}
	count := map[[3]uint32]int{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			count[[3]uint32{r >> 8, g >> 8, b >> 8}]++
		}
	}
	return func(c [3]uint32) int {
		n := 0
		for k, v := range count {
			if diff(k[0], c[0]) < 12 && diff(k[1], c[1]) < 12 && diff(k[2], c[2]) < 12 {
				n += v
			}
		}
		return n
	}
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestCLIEvalMultiReport writes the report of a multi-label model and
// checks its scores, bars and documents against eval --json.
func TestCLIEvalMultiReport(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	mustRun(t, "", "train", "--multi-label", "--reweight", "0", multiJSONL, "-o", model) // plain counts leave errors to list
	report := filepath.Join(dir, "multi.html")
	text := mustRun(t, "", "eval", "-m", model, "--report", report, multiJSONL)
	if !strings.Contains(text, "subset accuracy") {
		t.Errorf("--report changed the text output:\n%s", text)
	}
	var r metrics.MultiEvaluation
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", multiJSONL)), &r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	selfContained(t, page)
	wrong := r.N - int(math.Round(r.SubsetAccuracy*float64(r.N)))
	if wrong == 0 {
		t.Fatal("the test wants a model that gets some documents wrong")
	}
	want := []string{`<svg id="scores"`, fmt.Sprintf("<b>%d</b><span>documents</span>", r.N),
		fmt.Sprintf("<b>%d</b><span>documents with errors</span>", wrong)}
	for _, v := range []float64{r.MicroF1, r.MacroF1, r.SubsetAccuracy, r.HammingLoss, r.MicroBreakeven} {
		want = append(want, fmt.Sprintf("<b>%.4f</b>", v))
	}
	for _, v := range []float64{r.MicroPrecision, r.MicroRecall, r.MacroPrecision, r.MacroRecall, r.MacroBreakeven} {
		want = append(want, fmt.Sprintf(`<td class="num">%.4f</td>`, v))
	}
	for _, l := range r.Labels {
		s := r.PerLabel[l]
		want = append(want, fmt.Sprintf("<title>%s: precision %.4f, recall %.4f, F1 %.4f, support %d</title>", l, s.Precision, s.Recall, s.F1, s.Support),
			fmt.Sprintf(`text-anchor="end">%d</text>`, s.Support))
	}
	for _, w := range want {
		if !strings.Contains(page, w) {
			t.Errorf("the report lacks %q", w)
		}
	}
	if n := strings.Count(page, `<rect x=`); n != 3+3*len(r.Labels) {
		t.Errorf("%d rects in the bar chart, want %d", n, 3+3*len(r.Labels))
	}
	// every document with an error is listed once (fewer than 25), none twice
	rows := regexp.MustCompile(`<td class="src">([^<]*)</td><td class="num">(\d+)</td>`).FindAllStringSubmatch(page, -1)
	if len(rows) != wrong {
		t.Errorf("%d documents listed, want %d", len(rows), wrong)
	}
	seen := map[string]bool{}
	for _, row := range rows {
		if seen[row[1]] || row[2] == "0" {
			t.Errorf("document %s listed twice or with no error (%s)", row[1], row[2])
		}
		seen[row[1]] = true
	}
	// --errors N lists N; bad paths are refused before any work
	mustRun(t, "", "eval", "-m", model, "--report", report, "--errors", "2", multiJSONL)
	if b, _ := os.ReadFile(report); strings.Count(string(b), `<td class="src">`) != 2 {
		t.Error("--errors 2 does not list 2 documents")
	}
	mustFail(t, 2, []string{"would overwrite the input"}, "eval", "-m", model, "--report", model, multiJSONL)
	mustFail(t, 2, []string{"not a regular file"}, "eval", "-m", model, "--report", dir, multiJSONL)
	if _, err := facade.LoadMultiLabelPipeline(model); err != nil {
		t.Errorf("a refused --report harmed the model: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the report's folder holds %d entries, want the model and the report", len(entries))
	}
}

// TestWorstDocs checks the order of the documents with the most label
// errors: most errors first, earlier documents first among equals.
func TestWorstDocs(t *testing.T) {
	labels := []string{"a", "b", "c"}
	w := &worstDocs{k: 2}
	for _, d := range []struct {
		truth []string
		pred  []int
	}{
		{[]string{"a"}, []int{0}},         // exact
		{[]string{"a"}, []int{1}},         // 2 errors
		{[]string{"a", "a"}, []int{0, 1}}, // 1: a repeated true label counts once
		{[]string{"a", "b"}, []int{2}},    // 3
		{nil, []int{2, 1}},                // 2, after the second document
	} {
		w.add(labels, facade.MultiLabelPrediction{Source: fmt.Sprint(w.n + 1), Truth: d.truth, Labels: d.pred, Proba: []float64{0.1, 0.2, 0.3}})
	}
	var got []string
	for _, e := range w.docs {
		got = append(got, fmt.Sprintf("%s:%d", e.Source, e.Count))
	}
	if strings.Join(got, " ") != "4:3 2:2" || w.wrong != 4 {
		t.Errorf("worst documents %v, %d wrong", got, w.wrong)
	}
	if e := w.docs[0]; len(e.Truth) != 2 || e.Truth[0].OK || len(e.Predicted) != 1 || e.Predicted[0].OK || e.Predicted[0].P != 0.3 {
		t.Errorf("document 4: %+v", e)
	}
}

// TestMultiReportInBrowser renders the multi-label report in headless
// Chromium: its bar chart is laid out with bars as wide as the scores.
func TestMultiReportInBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	model := filepath.Join(dir, "m.model")
	mustRun(t, "", "train", "--multi-label", "--reweight", "0", multiJSONL, "-o", model) // plain counts leave errors to list
	report := filepath.Join(dir, "multireport.html")
	mustRun(t, "", "eval", "-m", model, "--report", report, multiJSONL)
	var r metrics.MultiEvaluation
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", multiJSONL)), &r); err != nil {
		t.Fatal(err)
	}
	svgs, dom := measureSVGs(t, bin, report)
	if len(svgs) != 1 || svgs[0].ID != "scores" || svgs[0].W < 600 || svgs[0].H < 28+34*float64(len(r.Labels)) {
		t.Fatalf("charts laid out as %+v", svgs)
	}
	// 3 legend squares, then precision, recall and F1 of each label, at
	// 520 px for a score of 1
	bars := svgs[0].Bars
	if len(bars) != 3+3*len(r.Labels) {
		t.Fatalf("%d rects, want %d", len(bars), 3+3*len(r.Labels))
	}
	var scores []float64
	for _, l := range r.Labels {
		s := r.PerLabel[l]
		scores = append(scores, s.Precision, s.Recall, s.F1)
	}
	slices.Sort(scores)
	widths := slices.Clone(bars[3:])
	slices.Sort(widths)
	for i, v := range scores {
		if math.Abs(widths[i]-520*v) > 1.5 {
			t.Errorf("bar widths %v do not follow the scores %v", widths, scores)
			break
		}
	}
	if !strings.Contains(dom, "Documents with the most label errors") || !strings.Contains(dom, `class="missed"`) {
		t.Error("the rendered page lacks its documents with errors")
	}
	near := screenshot(t, bin, report, 1400)
	for _, c := range [][3]uint32{{0x4e, 0x79, 0xa7}, {0xf2, 0x8e, 0x2b}, {0x59, 0xa1, 0x4f}} {
		if n := near(c); n < 1000 {
			t.Errorf("%d pixels of the bars' colour %x", n, c)
		}
	}
}
