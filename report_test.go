package textnb

import (
	"bytes"
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

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/metrics"
)

// evaluated evaluates m on the corpus at path as textnb eval does, and
// returns the Report that lists its first keep misclassified documents,
// explained.
func evaluated(t *testing.T, m *Model, path string, keep int) Report {
	t.Helper()
	p := m.m.NewPredictor()
	ev := metrics.NewEvaluator(m.Classes())
	rep := Report{Model: "m.model", Corpus: path}
	_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		proba, c := p.Proba(nil, d.Text)
		ev.AddProba(d.Label, c, proba)
		if m.m.Labels()[c] != d.Label && len(rep.Docs) < keep {
			e := p.Explain(d.Text)
			rep.Docs = append(rep.Docs, ReportDoc{Source: d.Source, Text: d.Text, Truth: []string{d.Label}, Predicted: []int{c}, Proba: proba, Explanation: &e})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rep.Eval = ev.Result()
	return rep
}

// page writes r as WriteTo does, checks it is self-contained, and
// returns it.
func page(t *testing.T, r Report) string {
	t.Helper()
	var b bytes.Buffer
	n, err := r.WriteTo(&b)
	if err != nil || n != int64(b.Len()) {
		t.Fatalf("WriteTo: %d bytes of %d, %v", n, b.Len(), err)
	}
	for _, bad := range []string{"http://", "https://", "<link", "<script", "src=", "url("} {
		if strings.Contains(b.String(), bad) {
			t.Errorf("the report is not self-contained: it holds %q", bad)
		}
	}
	return b.String()
}

// TestReport writes the report of an evaluation and checks it is one
// self-contained page holding what the evaluation found, with names
// escaped.
func TestReport(t *testing.T) {
	r := evaluated(t, newsModel(t), "testdata/news/test", 25)
	ev := r.Eval
	wrong := ev.Misclassified()
	if wrong == 0 || wrong > 25 {
		t.Fatalf("%d misclassified: the test wants a few", wrong)
	}
	p := page(t, r)
	for _, want := range []string{`<svg id="scores"`, `<svg id="confusion"`, `<svg id="reliability"`, fmt.Sprintf("<b>%.4f</b>", ev.Accuracy),
		fmt.Sprintf("<b>%.4f</b>", ev.MacroF1), fmt.Sprintf("The first %d of %d", wrong, wrong), "= margin of "} {
		if !strings.Contains(p, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(p, `<svg id="roc"`) {
		t.Error("a multi-class report has an ROC curve")
	}
	if n := strings.Count(p, `<div class="doc">`); n != wrong {
		t.Errorf("%d misclassified documents shown, want %d", n, wrong)
	}
	// one heat-map cell per pair of classes, each with a title
	if n := strings.Count(p, `stroke="#fff"`); n != len(ev.Labels)*len(ev.Labels) {
		t.Errorf("%d heat-map cells, want %d", n, len(ev.Labels)*len(ev.Labels))
	}
	// each explanation lists its 8 largest terms, then what the rest sum to
	d := r.Docs[0]
	x := d.Explanation
	rest := 0.0
	for _, c := range x.Terms[8:] {
		rest += c.Weight
	}
	for _, want := range []string{fmt.Sprintf("<div class=\"src\">%s</div>", html.EscapeString(d.Source)),
		strings.ReplaceAll(fmt.Sprintf("<td class=\"num\">%+.4f</td><td></td><td>(%d other terms)</td>", rest, len(x.Terms)-8), "+", "&#43;"), // as html/template escapes it
		fmt.Sprintf("runner-up %s p %.3f", x.RunnerUpLabel, d.Proba[x.RunnerUp])} {
		if !strings.Contains(p, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if n := strings.Count(p, `<span class="bar `); n != 8*wrong {
		t.Errorf("%d contribution bars, want 8 for each of %d documents", n, wrong)
	}

	// names are escaped
	evil := `<img src=x onerror=alert(1)>`
	e := metrics.NewEvaluator([]string{evil, "plain"})
	e.AddProba(evil, 1, []float64{0.4, 0.6})
	e.AddProba("plain", 1, []float64{0.3, 0.7})
	var b strings.Builder
	if _, err := (Report{Model: evil, Corpus: evil, Eval: e.Result(),
		Docs: []ReportDoc{{Source: evil, Text: evil, Truth: []string{evil}, Predicted: []int{1}, Proba: []float64{0.4, 0.6}}}}).WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), evil) || !strings.Contains(b.String(), html.EscapeString(evil)) {
		t.Error("a class name reaches the report unescaped")
	}
}

// TestReportProba checks the report's reliability diagram and a
// two-class model's ROC curve against the evaluation, and the decision
// threshold it names.
func TestReportProba(t *testing.T) {
	var train []Document
	var test strings.Builder
	test.WriteString("label\ttext\n")
	for i, d := range spamTSV(t) {
		if i%3 == 2 {
			fmt.Fprintf(&test, "%s\t%s\n", d.Label, d.Text)
		} else {
			train = append(train, Document{Label: d.Label, Text: d.Text})
		}
	}
	testPath := filepath.Join(t.TempDir(), "test.tsv")
	if err := os.WriteFile(testPath, []byte(test.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Train(train, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SetThreshold("spam", 0.7); err != nil {
		t.Fatal(err)
	}
	r := evaluated(t, m, testPath, 25)
	r.Threshold = "spam=0.7"
	ev := r.Eval
	p := page(t, r)
	bins := 0
	for _, bin := range ev.Reliability {
		if bin.Count > 0 {
			bins++
		}
	}
	for _, want := range []string{`<svg id="reliability"`, `<svg id="roc"`, "ROC curve (positive class spam)",
		fmt.Sprintf("AUC %.4f", ev.ROCAUC), fmt.Sprintf("recall %.3f at FPR ≤ 0.1%%", ev.RecallAtFPR["0.001"]),
		fmt.Sprintf("recall %.3f at FPR ≤ 1%%", ev.RecallAtFPR["0.01"]), fmt.Sprintf("ECE %.4f", ev.ECE),
		fmt.Sprintf("<b>%.4f</b><span>log loss", ev.LogLoss), "decision threshold spam=0.7"} {
		if !strings.Contains(p, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if n := strings.Count(p, `<g class="bin">`); n != bins || bins == 0 {
		t.Errorf("%d reliability bars, want %d (the bins with documents)", n, bins)
	}
	if n := strings.Count(p, `<g class="mark">`); n != 2 {
		t.Errorf("%d recall marks on the ROC, want 2", n)
	}
	// ROC points: one per distinct score and the origin, each drawn in both plots
	scores := map[float64]bool{}
	spam := slices.Index(m.Classes(), "spam")
	for d, err := range ReadCorpus(testPath) {
		if err != nil {
			t.Fatal(err)
		}
		proba, _ := m.m.NewPredictor().Proba(nil, d.Text)
		scores[proba[spam]] = true
	}
	if got := regexp.MustCompile(`class="roc" points="([^"]*)"`).FindStringSubmatch(p); got == nil || len(strings.Fields(got[1])) != len(scores)+1 {
		t.Errorf("ROC path %q for %d distinct scores", got, len(scores))
	}

	bin := chromium(t)
	path := filepath.Join(t.TempDir(), "spam.html")
	if err := SaveFile(path, r); err != nil {
		t.Fatal(err)
	}
	svgs, _ := measureSVGs(t, bin, path)
	sizes := map[string][2]float64{}
	for _, s := range svgs {
		sizes[s.ID] = [2]float64{s.W, s.H}
	}
	if r, roc := sizes["reliability"], sizes["roc"]; r[0] < 300 || r[1] < 300 || roc[0] < 700 || roc[1] < 300 {
		t.Errorf("charts laid out as %+v", svgs)
	}
	near := screenshot(t, bin, path, 2200)
	for _, c := range []struct {
		what string
		rgb  [3]uint32
		min  int
	}{{"ROC curve blue", [3]uint32{0x1f, 0x77, 0xb4}, 300}, {"recall marks' orange", [3]uint32{0xff, 0x7f, 0x0e}, 100},
		{"reliability dots' red", [3]uint32{0xe1, 0x57, 0x59}, 50}} {
		if n := near(c.rgb); n < c.min {
			t.Errorf("%d pixels of the %s, want at least %d", n, c.what, c.min)
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
// loads, its charts are laid out at their size, and a screenshot shows
// the heat map's colours.
func TestReportInBrowser(t *testing.T) {
	bin := chromium(t)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := SaveFile(path, evaluated(t, newsModel(t), "testdata/news/test", 25)); err != nil {
		t.Fatal(err)
	}
	svgs, dom := measureSVGs(t, bin, path)
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

	near := screenshot(t, bin, path, 1800)
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

// multiEvaluated evaluates the multi-label model file at model on
// testdata/multilabel.jsonl, listing every document with label errors.
func multiEvaluated(t *testing.T, model string) Report {
	t.Helper()
	c, err := Open(model)
	if err != nil {
		t.Fatal(err)
	}
	mm := c.(*MultiLabel).Pipeline()
	p := mm.NewPredictor()
	ev := metrics.NewMultiEvaluator(mm.Labels)
	rep := Report{Model: model, Corpus: "testdata/multilabel.jsonl", Known: len(mm.Labels)}
	_, err = corpus.WalkMulti(rep.Corpus, corpus.Options{}, func(d corpus.MultiDocument) error {
		proba := p.Proba(nil, d.Text)
		labels := p.Decide(nil, proba)
		ev.Add(d.Labels, labels, proba)
		var names []string
		for _, l := range labels {
			names = append(names, mm.Labels[l])
		}
		if slices.Compare(slices.Sorted(slices.Values(names)), slices.Compact(slices.Sorted(slices.Values(d.Labels)))) != 0 {
			rep.Docs = append(rep.Docs, ReportDoc{Source: d.Source, Truth: d.Labels, Predicted: labels, Proba: proba})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	r := ev.Result()
	rep.Multi = &r
	return rep
}

// TestMultiReport writes the report of a multi-label evaluation and
// checks its scores, bars and documents.
func TestMultiReport(t *testing.T) {
	rep := multiEvaluated(t, "testdata/models/multilabel-v2.model")
	r := rep.Multi
	wrong := len(rep.Docs)
	if wrong == 0 || wrong != r.N-int(math.Round(r.SubsetAccuracy*float64(r.N))) {
		t.Fatalf("%d documents with errors, subset accuracy %v of %d: the test wants a model that gets some wrong", wrong, r.SubsetAccuracy, r.N)
	}
	p := page(t, rep)
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
		if !strings.Contains(p, w) {
			t.Errorf("the report lacks %q", w)
		}
	}
	if n := strings.Count(p, `<rect x=`); n != 3+3*len(r.Labels) {
		t.Errorf("%d rects in the bar chart, want %d", n, 3+3*len(r.Labels))
	}
	// every document is listed once, in order, with its count of errors
	rows := regexp.MustCompile(`<td class="src">([^<]*)</td><td class="num">(\d+)</td>`).FindAllStringSubmatch(p, -1)
	if len(rows) != wrong {
		t.Fatalf("%d documents listed, want %d", len(rows), wrong)
	}
	for i, row := range rows {
		if row[1] != html.EscapeString(rep.Docs[i].Source) || row[2] == "0" {
			t.Errorf("row %d: document %s with %s errors, want %s with some", i, row[1], row[2], rep.Docs[i].Source)
		}
	}
	if strings.Contains(p, "labels the model does not know") {
		t.Error("the report finds labels the model does not know")
	}

	// a document's errors: a repeated true label counts once, missed ones
	// are struck through, wrong predicted ones red
	e := metrics.NewMultiEvaluator([]string{"a", "b", "c"})
	docs := []ReportDoc{{Source: "d1", Truth: []string{"a", "a", "new"}, Predicted: []int{0, 2}, Proba: []float64{0.9, 0.1, 0.6}}}
	for _, d := range docs {
		e.Add(d.Truth, d.Predicted, d.Proba)
	}
	m := e.Result()
	p = page(t, Report{Multi: &m, Known: 3, Docs: docs})
	for _, w := range []string{`<td class="src">d1</td><td class="num">2</td><td><span class="truth">a</span>, <span class="missed">new</span></td>` +
		`<td><span class="truth">a</span> 0.900, <span class="wrong">c</span> 0.600</td>`, "1 labels the model does not know: new",
		"<b>1</b><span>documents with errors</span>"} {
		if !strings.Contains(p, w) {
			t.Errorf("the report lacks %q", w)
		}
	}
}

// TestMultiReportInBrowser renders the multi-label report in headless
// Chromium: its bar chart is laid out with bars as wide as the scores.
func TestMultiReportInBrowser(t *testing.T) {
	bin := chromium(t)
	rep := multiEvaluated(t, "testdata/models/multilabel-v2.model")
	r := rep.Multi
	path := filepath.Join(t.TempDir(), "multireport.html")
	if err := SaveFile(path, rep); err != nil {
		t.Fatal(err)
	}
	svgs, dom := measureSVGs(t, bin, path)
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
	near := screenshot(t, bin, path, 1400)
	for _, c := range [][3]uint32{{0x4e, 0x79, 0xa7}, {0xf2, 0x8e, 0x2b}, {0x59, 0xa1, 0x4f}} {
		if n := near(c); n < 1000 {
			t.Errorf("%d pixels of the bars' colour %x", n, c)
		}
	}
}
