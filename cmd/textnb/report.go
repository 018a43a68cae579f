package main

import (
	"cmp"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	facade "github.com/textnb/textnb"
	"github.com/textnb/textnb/metrics"
)

// reportHTML is eval --report's page: one file with its style and charts
// inline, so that it opens anywhere without a network.
//
//go:embed report.html
var reportHTML string

// The report templates are parsed when a report is first written, not at
// every start of the command.
var (
	reportTemplate      = sync.OnceValue(parseReport)
	multiReportTemplate = sync.OnceValue(func() *template.Template {
		return template.Must(parseReport().New("multireport").Parse(multiReportHTML))
	})
)

// parseReport parses report.html, whose style and bar chart the
// multi-label report uses too.
func parseReport() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"add": func(a, b int) int { return a + b },
		"sub": func(a, b int) int { return a - b },
		"barWidth": func(w, maxW float64) int {
			if maxW <= 0 {
				return 0
			}
			return max(1, int(math.Round(120*math.Abs(w)/maxW)))
		},
	}).Parse(reportHTML))
}

// multiReportHTML is the report of a multi-label model; it uses
// report.html's style and bar chart.
//
//go:embed multireport.html
var multiReportHTML string

// Limits of the report's charts: beyond them a chart would be unreadable
// (and, for the matrix, grow with the square of the labels).
const (
	reportBars     = 100 // classes in the score chart
	reportMatrix   = 60  // labels in the heat map
	reportPairs    = 20
	reportErrors   = 25 // misclassified documents, unless --errors says
	reportExcerpt  = 600
	reportNameRune = 28 // runes of a class name on an axis
)

// checkReportPath refuses, before any work, a report path that is not a
// regular file or that names one of the command's inputs.
func checkReportPath(path string, inputs ...string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: --report %s: not a regular file", errUsage, path)
	}
	for _, in := range inputs {
		if other, err := os.Stat(in); err == nil && os.SameFile(fi, other) {
			return fmt.Errorf("%w: --report %s would overwrite the input %s", errUsage, path, in)
		}
	}
	return nil
}

// writeReport writes the HTML report of rep to path.
func writeReport(path, model, corpusPath string, rep evalReport, seen bool) error {
	return writePage(path, reportTemplate(), newReportData(model, corpusPath, rep, seen))
}

// writePage executes t into path through a temporary file in the same
// folder, so that a failed write leaves no half page.
func writePage(path string, t *template.Template, data any) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".textnb-report-*.html")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := t.Execute(f, data); err != nil {
		f.Close()
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

type reportData struct {
	Model, Corpus     string
	N, Classes, Wrong int
	Accuracy, MacroF1 float64
	Unknown           int
	UnknownDocs       int
	UnknownNames      []string
	Bars              barChart
	Heat              *heatMap
	HeatNote          string
	Pairs             []pairRow
	Errors            []misclassified
	Explained         bool
	MaxWeight         float64 // the largest |contribution| listed, for the bars' scale
	Threshold         string
	Proba             *metrics.ProbaScores
	Reliability       *reliabilityChart // nil without probabilities
	ROC               *rocChart         // two-class models
}

type pairRow struct {
	True, Predicted string
	Count           int
	Share           float64 // percent of the true label's documents
}

func newReportData(model, corpusPath string, rep evalReport, seen bool) reportData {
	r := rep.Evaluation
	d := reportData{Model: model, Corpus: corpusPath, N: r.N, Classes: r.Classes, Accuracy: r.Accuracy, MacroF1: r.MacroF1,
		Wrong: r.N - correct(r), Unknown: len(r.UnknownLabels()), UnknownDocs: r.UnknownDocs, Errors: rep.Errors}
	d.UnknownNames = r.UnknownLabels()[:min(d.Unknown, maxNames)]
	d.Threshold, d.Proba = rep.Threshold, r.ProbaScores
	if r.ProbaScores != nil {
		d.Reliability = newReliabilityChart(r.ProbaScores)
	}
	if b := r.BinaryScores; b != nil {
		negatives := 0
		for _, l := range r.Labels[:r.Classes] {
			if l != b.Positive {
				negatives += r.PerClass[l].Support
			}
		}
		d.ROC = newROCChart(b, negatives)
	}
	order := labelOrder(r, seen)
	d.Bars = newBarChart(r, order)
	switch {
	case len(r.Labels) > reportMatrix || r.Confusion == nil:
		d.HeatNote = fmt.Sprintf("%d labels are too many for a readable matrix (at most %d): the most confused pairs follow.", len(r.Labels), reportMatrix)
	default:
		d.Heat = newHeatMap(r, order)
	}
	for _, p := range r.Confused[:min(len(r.Confused), reportPairs)] {
		truth := r.Labels[p.True]
		d.Pairs = append(d.Pairs, pairRow{True: truth, Predicted: r.Labels[p.Predicted], Count: p.Count,
			Share: 100 * float64(p.Count) / float64(r.PerClass[truth].Support)})
	}
	for i, e := range d.Errors {
		d.Errors[i].Excerpt = excerpt(e.text, reportExcerpt)
		if e.Explain != nil {
			d.Explained = true
			for _, c := range e.Explain.Terms {
				d.MaxWeight = max(d.MaxWeight, math.Abs(c.Weight))
			}
		}
	}
	return d
}

// excerpt returns the first n runes of s, marked if cut.
func excerpt(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i] + " …"
}

// short cuts a name for an axis; the chart gives the whole name as a title.
func short(name string) string {
	if utf8.RuneCountInString(name) <= reportNameRune {
		return name
	}
	return excerpt(name, reportNameRune-2)
}

// textWidth estimates the pixels of an 11px label.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		if r > 0x2e80 { // CJK and wider
			w += 11
		} else {
			w += 7
		}
	}
	return w
}

type barChart struct {
	W, H, Top, Bottom, AxisY, LabelX, PlotX int
	SupportX                                int // where the documents column ends; 0: none
	Note                                    string
	Legend                                  []legendItem
	Grid                                    []gridLine
	Rows                                    []barRow
}

type legendItem struct {
	X, TX      int
	Fill, Name string
}

type gridLine struct {
	X     int
	Label string
}

type barRow struct {
	Name, Short string
	P, R, F     float64
	Support     int
	TextY       int
	Bars        []bar
}

type bar struct {
	Y, W, H, TX, TY int
	V               float64
	Fill            string
}

var scoreColors = [3]string{"#4e79a7", "#f28e2b", "#59a14f"}

func newBarChart(r metrics.Evaluation, order []int) barChart {
	rows := make([]barRow, 0, min(len(order), reportBars))
	for _, i := range order[:min(len(order), reportBars)] {
		s := r.PerClass[r.Labels[i]]
		rows = append(rows, barRow{Name: r.Labels[i], P: s.Precision, R: s.Recall, F: s.F1, Support: s.Support})
	}
	return barsOf(rows, len(r.Labels), false)
}

// barsOf lays out the chart of rows (Name, P, R, F and Support set), the
// first reportBars of total labels, with a documents column if support.
func barsOf(rows []barRow, total int, support bool) barChart {
	const plotW, rowH, barH = 520, 34, 9
	rows = rows[:min(len(rows), reportBars)]
	c := barChart{Top: 28}
	if total > reportBars {
		c.Note = fmt.Sprintf("The first %d of %d labels.", reportBars, total)
	}
	label := 40
	for _, row := range rows {
		label = max(label, textWidth(short(row.Name)))
	}
	c.LabelX = label + 10
	c.PlotX = c.LabelX + 8
	c.W = c.PlotX + plotW + 40
	if support {
		c.SupportX = c.W + 40
		c.W += 50
	}
	for k, name := range []string{"precision", "recall", "F1"} {
		x := c.PlotX + k*100
		c.Legend = append(c.Legend, legendItem{X: x, TX: x + 16, Fill: scoreColors[k], Name: name})
	}
	y := c.Top
	for _, row := range rows {
		row.Short, row.TextY = short(row.Name), y+rowH/2+2
		for k, v := range []float64{row.P, row.R, row.F} {
			w := int(math.Round(v * plotW))
			by := y + 3 + k*(barH+1)
			row.Bars = append(row.Bars, bar{Y: by, W: w, H: barH, TX: c.PlotX + w + 4, TY: by + barH - 1, V: v, Fill: scoreColors[k]})
		}
		c.Rows = append(c.Rows, row)
		y += rowH
	}
	c.Bottom = y
	c.AxisY = y + 14
	c.H = y + 22
	for k := 0; k <= 4; k++ {
		c.Grid = append(c.Grid, gridLine{X: c.PlotX + k*plotW/4, Label: strconv.FormatFloat(float64(k)/4, 'f', 2, 64)})
	}
	return c
}

type heatMap struct {
	W, H, Cell, Font, PredX, TrueY, ColY, RowX int
	Note                                       string
	Cols                                       []axisLabel
	RowLabels                                  []axisLabel
	Cells                                      []heatCell
}

type axisLabel struct {
	X, Y        int
	Name, Short string
}

type heatCell struct {
	X, Y, TX, TY           int
	Fill, Ink, Text, Title string
}

func newHeatMap(r metrics.Evaluation, order []int) *heatMap {
	n := len(order)
	h := &heatMap{Cell: min(44, max(16, 640/max(n, 1)))}
	h.Font = min(12, max(8, h.Cell/3))
	label := 40
	for _, i := range order {
		label = max(label, textWidth(short(r.Labels[i])))
	}
	left := 30 + label + 8 // the axis title, the row names
	top := 24 + label*87/100 + 8
	h.RowX = left - 6
	h.ColY = top - 6
	size := n * h.Cell
	h.W, h.H = left+size+label/2+10, top+size+10
	h.PredX, h.TrueY = left+size/2, top+size/2
	for k, i := range order {
		name := r.Labels[i]
		h.Cols = append(h.Cols, axisLabel{X: left + k*h.Cell + h.Cell/2, Name: name, Short: short(name)})
		h.RowLabels = append(h.RowLabels, axisLabel{Y: top + k*h.Cell + h.Cell/2, Name: name, Short: short(name)})
	}
	for a, i := range order {
		support := r.PerClass[r.Labels[i]].Support
		for b, j := range order {
			v := r.Confusion[i][j]
			share := 0.0
			if support > 0 {
				share = float64(v) / float64(support)
			}
			c := heatCell{X: left + b*h.Cell, Y: top + a*h.Cell, Fill: heatColor(share, i == j), Ink: "#1f2328",
				Title: fmt.Sprintf("true %s → predicted %s: %d (%.1f%% of %s)", r.Labels[i], r.Labels[j], v, 100*share, r.Labels[i])}
			if share > 0.55 {
				c.Ink = "#ffffff"
			}
			if v > 0 && h.Cell >= 18 {
				c.Text = strconv.Itoa(v)
				c.TX, c.TY = c.X+h.Cell/2, c.Y+h.Cell/2+1
			}
			h.Cells = append(h.Cells, c)
		}
	}
	return h
}

// heatColor shades a cell from white by share: blue on the diagonal
// (right), red off it (wrong), so errors stand out.
func heatColor(share float64, diagonal bool) string {
	if share <= 0 {
		return "#f6f8fa"
	}
	to := [3]float64{8, 81, 156} // #08519c
	if !diagonal {
		to = [3]float64{165, 15, 21} // #a50f15
	}
	t := 0.12 + 0.88*math.Sqrt(min(share, 1))
	var c [3]int
	for k := range c {
		c[k] = int(math.Round(255 + (to[k]-255)*t))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

type multiReportData struct {
	Model, Corpus string
	R             metrics.MultiEvaluation
	Wrong         int // documents whose label set is not predicted exactly
	Unknown       int
	UnknownNames  []string
	Bars          barChart
	Errors        []multiError
}

// multiError is a document with label errors: missed and wrong labels.
type multiError struct {
	Source           string
	Count            int
	Truth, Predicted []errLabel
	n                int // the document's rank in the corpus
}

type errLabel struct {
	Name string
	OK   bool    // true and predicted
	P    float64 // predicted labels: the probability
}

// worstDocs keeps the k documents with the most label errors (earlier
// documents first among equals), in O(k) per document with errors.
type worstDocs struct {
	k, n, wrong int
	docs        []multiError
}

func (w *worstDocs) add(labels []string, p facade.MultiLabelPrediction) {
	w.n++
	truth := slices.Compact(slices.Sorted(slices.Values(p.Truth)))
	e := multiError{Source: p.Source, n: w.n}
	for _, l := range p.Labels {
		ok := slices.Contains(truth, labels[l])
		e.Predicted = append(e.Predicted, errLabel{Name: labels[l], OK: ok, P: p.Proba[l]})
		if !ok {
			e.Count++
		}
	}
	for _, t := range truth {
		ok := slices.ContainsFunc(e.Predicted, func(l errLabel) bool { return l.Name == t })
		e.Truth = append(e.Truth, errLabel{Name: t, OK: ok})
		if !ok {
			e.Count++
		}
	}
	if e.Count == 0 {
		return
	}
	w.wrong++
	if len(w.docs) == w.k && w.docs[w.k-1].Count >= e.Count {
		return
	}
	i, _ := slices.BinarySearchFunc(w.docs, e, func(a, b multiError) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.n, b.n))
	})
	w.docs = slices.Insert(w.docs, i, e)
	w.docs = w.docs[:min(len(w.docs), w.k)]
}

// writeMultiReport writes the HTML report of a multi-label evaluation;
// known is the number of the model's labels (the first of r.Labels).
func writeMultiReport(path, model, corpusPath string, r metrics.MultiEvaluation, known int, worst *worstDocs) error {
	d := multiReportData{Model: model, Corpus: corpusPath, R: r, Wrong: worst.wrong, Errors: worst.docs,
		Unknown: len(r.Labels) - known}
	d.UnknownNames = r.Labels[known:min(len(r.Labels), known+maxNames)]
	order := slices.Clone(r.Labels)
	slices.SortStableFunc(order, func(a, b string) int {
		return cmp.Or(cmp.Compare(r.PerLabel[b].Support, r.PerLabel[a].Support), cmp.Compare(a, b))
	})
	rows := make([]barRow, 0, min(len(order), reportBars))
	for _, l := range order[:min(len(order), reportBars)] {
		s := r.PerLabel[l]
		rows = append(rows, barRow{Name: l, P: s.Precision, R: s.Recall, F: s.F1, Support: s.Support})
	}
	d.Bars = barsOf(rows, len(order), true)
	return writePage(path, multiReportTemplate(), d)
}
