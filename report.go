package textnb

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/textnb/textnb/internal/modelfile"

	"github.com/textnb/textnb/internal/pipeline"
	"github.com/textnb/textnb/internal/tally"
	"github.com/textnb/textnb/metrics"
)

// Report is an evaluation to write as one self-contained HTML page, with
// its style and charts inline so that it opens anywhere without a network;
// textnb eval --report writes it. The page of a single-label model shows
// the scores, per-class bars, the confusion matrix as a heat map, the most
// confused pairs, the reliability diagram, a two-class model's ROC curve
// and the documents listed with the terms that decided them; that of a
// multi-label model the micro and macro scores, per-label bars and the
// documents listed with their label errors.
type Report struct {
	Model, Corpus string // named on the page
	// Eval is a single-label model's evaluation; Multi, if set, is a
	// multi-label model's instead, of which the model knows the first
	// Known labels (0: all).
	Eval  metrics.Evaluation
	Multi *metrics.MultiEvaluation
	Known int
	// Threshold names the decision threshold that decided Eval's
	// predictions, as LABEL=P; "": the most probable class did.
	Threshold string
	// ModelOrder lists Eval's classes in the model's order; false: by name.
	ModelOrder bool
	// Docs are the documents to list, in order: some misclassified ones,
	// or some with label errors (textnb eval lists the first 25, or the 25
	// with the most label errors).
	Docs []ReportDoc
}

// ReportDoc is a document that a Report lists.
type ReportDoc struct {
	Source string
	// Text, if set, is shown cut to its first 600 characters.
	Text string
	// Truth are its true labels: one for a single-label model.
	Truth []string
	// Predicted are the classes or labels predicted, as indices of the
	// model's; Proba is the model's probability of each of them.
	Predicted []int
	Proba     []float64
	// Explanation, if set, tells why a single-label model predicted its
	// class; the page lists its 8 largest terms.
	Explanation *Explanation
}

// WriteTo writes the page to w; SaveFile saves it to a file as a model.
func (r Report) WriteTo(w io.Writer) (int64, error) {
	cw := &modelfile.Counter{W: w}
	var err error
	if r.Multi != nil {
		err = multiReportTemplate().Execute(cw, newMultiReportData(r))
	} else {
		err = reportTemplate().Execute(cw, newReportData(r))
	}
	if err != nil {
		return cw.N, fmt.Errorf("writing the report: %w", err)
	}
	return cw.N, nil
}

//go:embed report.html
var reportHTML string

// The report templates are parsed when a report is first written, not at
// every start of a program.
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
	reportTerms    = 8 // of an explanation
	reportExcerpt  = 600
	reportNames    = 5  // unknown labels named
	reportNameRune = 28 // runes of a class name on an axis
)

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
	Errors            []reportError
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

// reportError is a misclassified document as the page shows it.
type reportError struct {
	Source, Truth, Predicted string
	P                        float64 // of the predicted class
	Explain                  *reportExplained
	Excerpt                  string
}

// reportExplained is an Explanation cut to its top terms:
// Bias + Σ Terms[i].Weight + Rest = Margin.
type reportExplained struct {
	Label, RunnerUp string
	P, PRunnerUp    float64
	Margin, Bias    float64
	Terms           []pipeline.Contribution
	Rest            float64 // the contributions of the terms left out
	RestTerms       int     // how many they are
}

func newReportData(rep Report) reportData {
	r := rep.Eval
	d := reportData{Model: rep.Model, Corpus: rep.Corpus, N: r.N, Classes: r.Classes, Accuracy: r.Accuracy, MacroF1: r.MacroF1,
		Wrong: r.Misclassified(), Unknown: len(r.UnknownLabels()), UnknownDocs: r.UnknownDocs}
	d.UnknownNames = r.UnknownLabels()[:min(d.Unknown, reportNames)]
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
	order := r.LabelOrder(rep.ModelOrder)
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
	for _, doc := range rep.Docs {
		c := doc.Predicted[0]
		e := reportError{Source: doc.Source, Truth: doc.Truth[0], Predicted: r.Labels[c], P: doc.Proba[c], Excerpt: excerpt(doc.Text, reportExcerpt)}
		if x := doc.Explanation; x != nil {
			e.Explain = &reportExplained{Label: x.Label, P: doc.Proba[x.Class], RunnerUp: x.RunnerUpLabel, PRunnerUp: doc.Proba[x.RunnerUp],
				Margin: x.Margin, Bias: x.Bias}
			e.Explain.Terms, e.Explain.Rest, e.Explain.RestTerms = x.Top(reportTerms)
			d.Explained = true
			for _, c := range e.Explain.Terms {
				d.MaxWeight = max(d.MaxWeight, math.Abs(c.Weight))
			}
		}
		d.Errors = append(d.Errors, e)
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
}

type errLabel struct {
	Name string
	OK   bool    // true and predicted
	P    float64 // predicted labels: the probability
}

func newMultiReportData(rep Report) multiReportData {
	r := *rep.Multi
	known := cmp.Or(rep.Known, len(r.Labels))
	d := multiReportData{Model: rep.Model, Corpus: rep.Corpus, R: r, Wrong: r.N - int(math.Round(r.SubsetAccuracy*float64(r.N))),
		Unknown: len(r.Labels) - known}
	d.UnknownNames = r.Labels[known:min(len(r.Labels), known+reportNames)]
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
	for _, doc := range rep.Docs {
		truth := slices.Compact(slices.Sorted(slices.Values(doc.Truth)))
		e := multiError{Source: doc.Source}
		for _, l := range doc.Predicted {
			ok := slices.Contains(truth, r.Labels[l])
			e.Predicted = append(e.Predicted, errLabel{Name: r.Labels[l], OK: ok, P: doc.Proba[l]})
			e.Count += tally.BoolInt(!ok)
		}
		for _, t := range truth {
			ok := slices.ContainsFunc(e.Predicted, func(l errLabel) bool { return l.Name == t })
			e.Truth = append(e.Truth, errLabel{Name: t, OK: ok})
			e.Count += tally.BoolInt(!ok)
		}
		d.Errors = append(d.Errors, e)
	}
	return d
}
