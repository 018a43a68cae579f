package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"
)

func TestCLIInspect(t *testing.T) {
	model := trainTo(t, newsTrain, "--fast")
	if out := mustRun(t, "", "inspect", trainTo(t, newsTrain)); !strings.Contains(out, "chosen      cnb α 0.3 plain (cv accuracy ") {
		t.Errorf("inspect of a chosen model lacks the choice:\n%s", out)
	}
	m, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "", "inspect", "--top", "3", model)
	for _, want := range []string{"kind        text", "classifier  cnb", "alpha 0.3", "vocabulary  " + strconv.Itoa(len(m.Terms())) + " terms", "classes     4",
		"finance: most indicative terms", "by weight", "by log-odds"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect lacks %q:\n%s", want, out)
		}
	}
	var info facade.Info
	if err := json.Unmarshal([]byte(mustRun(t, "", "inspect", "--json", "--top", "3", model)), &info); err != nil {
		t.Fatal(err)
	}
	if len(info.Classes) != 4 || info.Terms != len(m.Terms()) {
		t.Fatalf("inspect --json: %d classes, %d terms", len(info.Classes), info.Terms)
	}
	for _, c := range info.Classes {
		if c.Documents != 60 || len(c.TopWeights) != 3 || len(c.TopLogOdds) != 3 {
			t.Errorf("class %+v", c)
		}
		// the text report lists the same terms
		for _, ts := range c.TopLogOdds {
			if !strings.Contains(out, ts.Term+" (") {
				t.Errorf("inspect's text lacks %s's term %q", c.Name, ts.Term)
			}
		}
	}
	if strings.Contains(mustRun(t, "", "inspect", "--top", "0", model), "most indicative") {
		t.Error("--top 0 lists terms")
	}
	// a table model
	iris, _ := trainIris(t, "gaussian")
	out = mustRun(t, "", "inspect", iris)
	if !strings.Contains(out, "kind        table") || !strings.Contains(out, "classifier  gaussian") || !strings.Contains(out, "mean ") {
		t.Errorf("inspect of a table model:\n%s", out)
	}
	mustFail(t, 2, []string{"one MODEL"}, "inspect")
	mustFail(t, 1, []string{"nowhere.model"}, "inspect", "nowhere.model")
}

// sumsToMargin checks an explanation's parts add up to its margin.
func sumsToMargin(t *testing.T, what string, e facade.TopExplanation) {
	t.Helper()
	sum := e.Bias + e.Rest
	for _, c := range e.Terms {
		sum += c.Weight
	}
	if math.Abs(sum-e.Margin) > 1e-9 || e.Margin < 0 {
		t.Errorf("%s: bias %g + terms + rest %g = %g, margin %g", what, e.Bias, e.Rest, sum, e.Margin)
	}
}

func TestCLIExplain(t *testing.T) {
	model := trainTo(t, newsTrain)
	text := "the stock market fell as bank shares dropped after the cup final"
	label := strings.Split(mustRun(t, text+"\n", "predict", "-m", model, "-"), "\t")[1]
	for _, top := range []string{"3", "0"} {
		var e facade.TopExplanation
		if err := json.Unmarshal([]byte(mustRun(t, "", "explain", "-m", model, "--json", "--top", top, text)), &e); err != nil {
			t.Fatal(err)
		}
		sumsToMargin(t, "--top "+top, e)
		if e.Label != label || e.RunnerUp == label || e.P <= e.PRunnerUp {
			t.Errorf("explained %+v, predict says %s", e, label)
		}
		if top == "3" && (len(e.Terms) != 3 || e.RestTerms == 0) || top == "0" && (e.RestTerms != 0 || e.Rest != 0 || len(e.Terms) < 5) {
			t.Errorf("--top %s: %d terms, %d left out", top, len(e.Terms), e.RestTerms)
		}
	}
	out := mustRun(t, "", "explain", "-m", model, "--top", "2", text)
	if !strings.HasPrefix(out, label+" (p ") || !strings.Contains(out, "other terms)") || !strings.HasSuffix(out, "= margin\n") {
		t.Errorf("explain:\n%s", out)
	}
	if in := mustRun(t, text, "explain", "-m", model, "--top", "2", "-"); in != out {
		t.Errorf("explain - reads %q, arguments %q", in, out)
	}
	iris, _ := trainIris(t, "gaussian")
	mustFail(t, 2, []string{"needs a text model"}, "explain", "-m", iris, "hello")
	mustFail(t, 2, []string{"need -m MODEL"}, "explain", "hello")
}

func TestCLIPredictExplain(t *testing.T) {
	model := trainTo(t, newsTrain)
	ps := predictions(t, mustRun(t, "", "predict", "-m", model, "--json", "--explain", "--terms", "4", newsTest+"/tech"))
	if len(ps) != 20 {
		t.Fatalf("%d predictions", len(ps))
	}
	for _, p := range ps {
		if p.Explain == nil || p.Explain.Label != p.Label || len(p.Explain.Terms) > 4 || p.Explain.P != p.Proba[p.Label] {
			t.Fatalf("prediction %+v explained as %+v", p, p.Explain)
		}
		sumsToMargin(t, p.Source, *p.Explain)
	}
	for _, l := range lines(mustRun(t, "", "predict", "-m", model, "--explain", newsTest+"/tech")) {
		if f := strings.Split(l, "\t"); len(f) != 4 || !strings.HasPrefix(f[3], "over ") || strings.Count(f[3], ",") != 4 {
			t.Errorf("predict --explain line %q", l)
		}
	}
	mustFail(t, 2, []string{"--explain", "--priors"}, "predict", "-m", model, "--explain", "--priors", "finance=0.25,food=0.25,sport=0.25,tech=0.25", newsTest)
}

func TestCLIInspectMultiLabel(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.model")
	mustRun(t, "", "train", multiJSONL, "--folds", "3", "--title", "3", "--reweight", "2", "--reweight-rate", "40", "--allow-empty", "-o", model)
	mm, err := loadMultiLabel(model)
	if err != nil {
		t.Fatal(err)
	}
	type multiSettings struct {
		Score           string
		Folds           int
		MinPositives    int  `json:"min_positives"`
		AllowEmpty      bool `json:"allow_empty"`
		Title, Reweight int
		ReweightRate    float64 `json:"reweight_rate"`
	}
	var info struct {
		Kind     string
		Settings struct{ Alpha float64 }
		Multi    multiSettings
		Features int
		Labels   []struct {
			Name                 string
			Documents, Threshold float64
			TopWeights           []struct{ Term string } `json:"top_weights"`
		}
	}
	if err := json.Unmarshal([]byte(mustRun(t, "", "inspect", "--json", "--top", "3", model)), &info); err != nil {
		t.Fatal(err)
	}
	want := multiSettings{Score: "complement", Folds: 3, MinPositives: 3, AllowEmpty: true, Title: 3, Reweight: 2, ReweightRate: 40}
	if info.Kind != "multi-label" || info.Multi != want || info.Features != mm.NumFeatures() || info.Settings.Alpha != mm.Config.Alpha || len(info.Labels) != len(mm.Labels) {
		t.Fatalf("inspect --json: %+v", info)
	}
	out := mustRun(t, "", "inspect", "--top", "3", model)
	for _, w := range []string{"kind        multi-label", "score       complement, 2 reweighting passes at rate 40", "thresholds by 3-fold cross-validation",
		"title counted 3 times", "allow-empty", fmt.Sprintf("features    %d", mm.NumFeatures()), "labels      4"} {
		if !strings.Contains(out, w) {
			t.Errorf("inspect lacks %q:\n%s", w, out)
		}
	}
	for l, li := range info.Labels {
		if li.Name != mm.Labels[l] || li.Threshold != mm.Thresholds[l] || li.Documents != 12 || len(li.TopWeights) != 3 {
			t.Errorf("label %d: %+v, the model's %s with threshold %v", l, li, mm.Labels[l], mm.Thresholds[l])
		}
		if row := fmt.Sprintf("%-7s  %10d  %9.4f", li.Name, 12, li.Threshold); !strings.Contains(out, row) {
			t.Errorf("inspect lacks the row %q:\n%s", row, out)
		}
		// the label's heading, the column heading (weights only), then its first term
		_, after, _ := strings.Cut(out, "\n"+li.Name+": most indicative terms\n")
		if ls := strings.SplitN(after, "\n", 3); len(ls) < 3 || !strings.HasPrefix(ls[0], "  by weight") ||
			strings.Contains(ls[0], "log-odds") || !strings.HasPrefix(ls[1], "  "+li.TopWeights[0].Term+" ") {
			t.Errorf("inspect lacks %s's first term %q:\n%s", li.Name, li.TopWeights[0].Term, out)
		}
	}
	if strings.Contains(mustRun(t, "", "inspect", "--top", "0", model), "most indicative") {
		t.Error("--top 0 lists terms")
	}
}

func TestCLIExplainMultiLabel(t *testing.T) {
	dir := t.TempDir()
	model, odds := filepath.Join(dir, "m.model"), filepath.Join(dir, "odds.model")
	mustRun(t, "", "train", multiJSONL, "-o", model)
	mustRun(t, "", "train", multiJSONL, "--multi-score", "odds", "--allow-empty", "-o", odds)
	type explainedJSON struct {
		Score     string
		Predicted bool
		Labels    []struct {
			Label               string
			P, Threshold, Score float64
			Bias, Rest          float64
			RestTerms           int `json:"rest_terms"`
			Terms               []struct{ Weight float64 }
		}
	}
	text := "The chip maker's stock jumped as revenue from servers beat forecasts"
	for _, m := range []string{model, odds} {
		// predict's labels are the ones explained, with the same p
		pred := strings.Split(strings.TrimSpace(mustRun(t, text+"\n", "predict", "-m", m, "-")), "\t")[1:]
		for _, top := range []string{"2", "0"} {
			var e explainedJSON
			if err := json.Unmarshal([]byte(mustRun(t, "", "explain", "-m", m, "--json", "--top", top, text)), &e); err != nil {
				t.Fatal(err)
			}
			if !e.Predicted || 2*len(e.Labels) != len(pred) {
				t.Fatalf("%s: explained %+v, predicted %q", m, e, pred)
			}
			for i, l := range e.Labels {
				sum := l.Bias + l.Rest
				for _, c := range l.Terms {
					sum += c.Weight
				}
				if l.Label != pred[2*i] || fmt.Sprintf("%.6g", l.P) != pred[2*i+1] || math.Abs(sum-l.Score) > 1e-9 ||
					top == "2" && (len(l.Terms) != 2 || l.RestTerms == 0) || top == "0" && l.RestTerms != 0 {
					t.Errorf("%s --top %s: label %d explained %+v (parts sum to %g), predicted %q", m, top, i, l, sum, pred)
				}
				if e.Score == "odds" && math.Abs(1/(1+math.Exp(-l.Score))-l.P) > 1e-9 {
					t.Errorf("odds: sigmoid(%g) is not p %g", l.Score, l.P)
				}
			}
		}
	}
	out := mustRun(t, "", "explain", "-m", model, "--top", "2", text)
	if !strings.HasPrefix(out, "finance (p ") || !strings.Contains(out, "score against the labels' mean") || !strings.Contains(out, "other terms)") || !strings.HasSuffix(out, "= score\n") {
		t.Errorf("explain:\n%s", out)
	}
	// no label reaches its threshold with --allow-empty: the most probable is explained
	if out := mustRun(t, "", "explain", "-m", odds, "a quiet afternoon"); !strings.HasPrefix(out, "no label reaches its threshold") || !strings.Contains(out, "log-odds") {
		t.Errorf("explain of a text without labels:\n%s", out)
	}
}
