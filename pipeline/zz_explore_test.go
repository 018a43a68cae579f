package pipeline

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/nb"
	"github.com/textnb/textnb/vectorize"
)

type exploreData struct {
	m      *Model
	X, XT  *vectorize.CSR
	y, yT  []int
	labels []string
}

func exploreLoad(t *testing.T, cfg Config) exploreData {
	train, err := corpus.ReadAll("/tmp/20ng/20news-bydate-train", corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	test, err := corpus.ReadAll("/tmp/20ng/20news-bydate-test", corpus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := NewTrainer(cfg)
	for _, d := range train {
		tr.Add(d.Label, d.Text)
	}
	tr.flush()
	for _, s := range tr.shards {
		close(s.in)
	}
	tr.wg.Wait()
	m := &Model{Config: tr.cfg, Classes: tr.names, Lang: tr.lang, an: tr.an}
	X, _, err := tr.features(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.fitWeighting(X); err != nil {
		t.Fatal(err)
	}
	d := exploreData{m: m, X: X, y: tr.y}
	for _, doc := range train {
		d.labels = append(d.labels, doc.Label)
	}
	p := m.NewPredictor()
	d.XT = vectorize.NewCSR(X.Cols)
	for _, doc := range test {
		d.XT.AppendRow(p.Row(doc.Text))
		d.yT = append(d.yT, tr.classes[doc.Label])
	}
	return d
}

func acc(m nb.Model, X *vectorize.CSR, y []int) float64 {
	n := 0
	for i, p := range nb.PredictCSR(m, X) {
		if p == y[i] {
			n++
		}
	}
	return float64(n) / float64(len(y))
}

type semiFitter interface {
	Fit(nb.Estimator, *vectorize.CSR, []int, *vectorize.CSR, int) (nb.Result, error)
}

func TestZZExplore(t *testing.T) {
	if os.Getenv("EXPLORE") == "" {
		t.Skip()
	}
	var cfg Config
	switch os.Getenv("W") {
	case "counts":
		cfg.Weighting = Counts
	}
	d := exploreLoad(t, cfg)
	t.Logf("X %d×%d", d.X.Rows, d.X.Cols)
	ests := map[string]func() nb.Estimator{
		"cnb": func() nb.Estimator { return &nb.Complement{Alpha: 0.3} },
		"mnb": func() nb.Estimator { return &nb.Multinomial{Alpha: 0.3} },
		"mnb.01": func() nb.Estimator { return &nb.Multinomial{Alpha: 0.01} },
	}
	methods := map[string]semiFitter{
		"none":        nb.SelfTraining{Rounds: -1},
		"nsnb":        nb.SelfTraining{},
		"nsnb.k.05x40": nb.SelfTraining{K: 0.05, Rounds: 40},
		"nsnb.k200x60": nb.SelfTraining{K: 200, Rounds: 60},
		"em":          nb.EM{},
		"em.l1":       nb.EM{Lambda: 1},
		"em.l.3":       nb.EM{Lambda: 0.3},
	}
	if os.Getenv("M") != "" {
		for k := range methods {
			if k != "none" && !contains(os.Getenv("M"), k) {
				delete(methods, k)
			}
		}
	}
	for rep := 0; rep < 2; rep++ {
		lab, _ := corpus.StratifiedSample(d.labels, 1.0/51, uint64(50000+rep))
		isL := make([]bool, d.X.Rows)
		for _, i := range lab {
			isL[i] = true
		}
		y := make([]int, len(d.y))
		for i := range y {
			y[i] = d.y[i]
			if !isL[i] {
				y[i] = -1
			}
		}
		L, yl, U := splitLabeled(d.X, y)
		var yu []int
		for i := range y {
			if y[i] < 0 {
				yu = append(yu, d.y[i])
			}
		}
		for en, mk := range ests {
			for mn, meth := range methods {
				est := mk()
				start := time.Now()
				var res nb.Result
				var err error
				if mn == "none" {
					c := nb.NewCountsFor(est, 20, d.X.Cols)
					c.Add(L, yl)
					err = est.Fit(c)
				} else {
					res, err = meth.Fit(est, L, yl, U, 20)
				}
				if err != nil {
					t.Fatal(err)
				}
				pl, pn := 0, 0
				for i, l := range res.Labels {
					if l >= 0 {
						pn++
						if l == yu[i] {
							pl++
						}
					}
				}
				fmt.Printf("rep %d %-7s %-14s acc %.4f  rounds %d added %d pseudo-acc %.3f conv %v  %.1fs\n", rep, en, mn, acc(est, d.XT, d.yT), res.Rounds, res.Added, float64(pl)/float64(max(pn, 1)), res.Converged, time.Since(start).Seconds())
			}
		}
	}
}

func contains(list, k string) bool {
	for _, s := range splitComma(list) {
		if s == k {
			return true
		}
	}
	return false
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
