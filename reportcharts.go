package textnb

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/textnb/textnb/metrics"
)

// The probability charts of eval --report: a reliability diagram for
// every model with probabilities, and the ROC curve of a two-class model,
// each a square plot of plotSize pixels.
const (
	plotSize  = 300
	plotLeft  = 56
	plotTop   = 16
	rocPoints = 1000 // at most, drawn
)

type reliabilityChart struct {
	W, H, X0, Y0, X1, Y1 int // the plot's corners: (X0, Y0) top left
	ECE                  float64
	Bins                 []reliabilityBar
	Ticks                []tick
	Curve                string // the bins' (confidence, accuracy) points joined
}

type reliabilityBar struct {
	X, Y, W, H, DotX, DotY, TX, TY int
	Count                          int
	Lo, Hi, Confidence, Accuracy   float64
}

type tick struct {
	X, Y  int // along the x axis: X; along the y axis: Y
	Label string
}

// px maps v in [0, 1] onto the plot from a to b.
func px(v float64, a, b int) int { return a + int(math.Round(v*float64(b-a))) }

func newReliabilityChart(p *metrics.ProbaScores) *reliabilityChart {
	c := &reliabilityChart{X0: plotLeft, Y0: plotTop, X1: plotLeft + plotSize, Y1: plotTop + plotSize, ECE: p.ECE}
	c.W, c.H = c.X1+20, c.Y1+46
	c.Ticks = axisTicks(c.X0, c.Y0, c.X1, c.Y1)
	var curve []string
	for _, b := range p.Reliability {
		if b.Count == 0 {
			continue
		}
		x0, x1 := px(b.Lo, c.X0, c.X1), px(b.Hi, c.X0, c.X1)
		y := px(b.Accuracy, c.Y1, c.Y0)
		bar := reliabilityBar{X: x0 + 1, Y: y, W: x1 - x0 - 2, H: c.Y1 - y, Count: b.Count, Lo: b.Lo, Hi: b.Hi,
			Confidence: b.Confidence, Accuracy: b.Accuracy, DotX: px(b.Confidence, c.X0, c.X1), DotY: y}
		bar.TX, bar.TY = (x0+x1)/2, max(y-5, c.Y0+10)
		c.Bins = append(c.Bins, bar)
		curve = append(curve, fmt.Sprintf("%d,%d", bar.DotX, bar.DotY))
	}
	c.Curve = strings.Join(curve, " ")
	return c
}

// axisTicks marks 0, 0.25, … 1 on both axes of a plot.
func axisTicks(x0, y0, x1, y1 int) []tick {
	var ts []tick
	for k := 0; k <= 4; k++ {
		v := float64(k) / 4
		ts = append(ts, tick{X: px(v, x0, x1), Y: px(v, y1, y0), Label: strconv.FormatFloat(v, 'g', -1, 64)})
	}
	return ts
}

type rocChart struct {
	W, H, X0, Y0, X1, Y1 int // the linear plot
	LX0, LX1             int // the plot of log FPR beside it, same height
	Positive             string
	AUC                  float64
	Ticks, LogTicks      []tick
	Path, LogPath        string
	Marks                []rocMark
}

type rocMark struct {
	FPR, Recall      float64
	X, Y, LX, TX, TY int
	Label            string
}

func newROCChart(b *metrics.BinaryScores, negatives int) *rocChart {
	c := &rocChart{X0: plotLeft, Y0: plotTop, X1: plotLeft + plotSize, Y1: plotTop + plotSize, Positive: b.Positive, AUC: b.ROCAUC}
	c.LX0 = c.X1 + 90
	c.LX1 = c.LX0 + plotSize
	c.W, c.H = c.LX1+20, c.Y1+46
	c.Ticks = axisTicks(c.X0, c.Y0, c.X1, c.Y1)
	// log10 FPR from lo, a decade below 0.1% and below one false
	// positive, so that both show inside; FPR 0 sits on the left edge
	lo := -3.0
	if negatives > 0 {
		lo = min(lo, math.Floor(math.Log10(1/float64(negatives))))
	}
	lo--
	logX := func(f float64) int {
		if f <= 0 {
			return c.LX0
		}
		return px((math.Log10(f)-lo)/-lo, c.LX0, c.LX1)
	}
	for e := lo; e <= 0; e++ {
		c.LogTicks = append(c.LogTicks, tick{X: logX(math.Pow(10, e)), Label: strconv.FormatFloat(math.Pow(10, e), 'g', -1, 64)})
	}
	roc := b.ROC
	step := max(1, (len(roc)+rocPoints-1)/rocPoints)
	var lin, lg []string
	for i, p := range roc {
		if i%step != 0 && i != len(roc)-1 {
			continue
		}
		y := px(p.TPR, c.Y1, c.Y0)
		lin = append(lin, fmt.Sprintf("%d,%d", px(p.FPR, c.X0, c.X1), y))
		lg = append(lg, fmt.Sprintf("%d,%d", logX(p.FPR), y))
	}
	c.Path, c.LogPath = strings.Join(lin, " "), strings.Join(lg, " ")
	for k, f := range metrics.RecallFPRs {
		r := b.RecallAtFPR[strconv.FormatFloat(f, 'g', -1, 64)]
		m := rocMark{FPR: f, Recall: r, X: px(f, c.X0, c.X1), Y: px(r, c.Y1, c.Y0), LX: logX(f),
			Label: fmt.Sprintf("recall %.3f at FPR ≤ %g%%", r, 100*f)}
		m.TX, m.TY = c.LX1-8, c.Y1-12-16*(len(metrics.RecallFPRs)-1-k)
		c.Marks = append(c.Marks, m)
	}
	return c
}
