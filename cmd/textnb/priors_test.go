package main

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/textnb/textnb/metrics"
	"github.com/textnb/textnb/nb"
)

// spamTexts returns the texts of testdata/spam.tsv, one per line.
func spamTexts(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(spamTSV)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range lines(string(data))[1:] {
		_, text, _ := strings.Cut(l, "\t")
		b.WriteString(text + "\n")
	}
	return b.String()
}

// probas parses predict --json output into rows in the model's class order.
func probas(t *testing.T, out []string, classes []string) []float64 {
	t.Helper()
	var flat []float64
	for _, l := range out {
		var p jsonPrediction
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		for _, c := range classes {
			flat = append(flat, p.Proba[c])
		}
	}
	return flat
}

func near(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("%s: value %d is %g, want %g", what, i, got[i], want[i])
		}
	}
}

func TestCLIPriorErrors(t *testing.T) {
	model := trainTo(t, spamTSV)
	for _, tc := range []struct{ priors, msg string }{
		{"spam=0.1,ham=0.8,eggs=0.1", `"eggs" names no class of the model (ham, spam)`},
		{"spam=0.1", `no prior for class "ham"`},
		{"spam=0,ham=1", `class "spam" could never be predicted`},
		{"spam=0.3,ham=0.8", "sum to 1.1"},
		{"spam:0.1,ham=0.9", `"spam:0.1" is not CLASS=PRIOR`},
		{"spam=lots,ham=0.9", `"lots" is not a finite number`},
		{"spam=-1,ham=2", "cannot be negative"},
		{"spam=0.1,ham=0.9,", "empty item"},
		{"spam=0.1,ham=0.4,spam=0.5", `"spam" given twice`},
	} {
		mustFail(t, 2, []string{"--priors", tc.msg}, "predict", "-m", model, "--priors", tc.priors, spamTSV)
		mustFail(t, 2, []string{"--priors", tc.msg}, "eval", "-m", model, "--priors", tc.priors, spamTSV)
	}
	mustFail(t, 2, []string{"exclude each other"}, "predict", "-m", model, "--priors", "spam=0.5,ham=0.5", "--estimate-priors", "-")
	mustFail(t, 1, []string{"no documents"}, "predict", "-m", model, "--estimate-priors", "-")
}

func TestCLIPriors(t *testing.T) {
	texts := spamTexts(t)
	for _, kind := range []string{"cnb", "mnb"} {
		t.Run(kind, func(t *testing.T) {
			path := trainTo(t, spamTSV, "--model", kind)
			m, err := loadPipeline(path)
			if err != nil {
				t.Fatal(err)
			}
			plain := probas(t, lines(mustRun(t, texts, "predict", "-m", path, "--json", "-")), m.Classes)
			assumed := m.PosteriorPriors()

			// Known priors, renormalized from a sum of 1.005.
			got := probas(t, lines(mustRun(t, texts, "predict", "-m", path, "--json", "--priors", "spam=0.105,ham=0.9", "-")), m.Classes)
			want, err := nb.AdjustPriors(nil, plain, assumed, []float64{0.9 / 1.005, 0.105 / 1.005})
			if err != nil {
				t.Fatal(err)
			}
			near(t, "--priors", got, want)

			// Estimated priors: first the priors, then the predictions.
			out := lines(mustRun(t, texts, "predict", "-m", path, "--json", "--estimate-priors", "-"))
			var head struct {
				Priors     map[string]float64 `json:"priors"`
				Iterations int                `json:"iterations"`
			}
			if err := json.Unmarshal([]byte(out[0]), &head); err != nil {
				t.Fatal(err)
			}
			q, iter, err := nb.PriorEM{}.Estimate(plain, assumed)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "estimated priors", []float64{head.Priors["ham"], head.Priors["spam"]}, q)
			if head.Iterations != iter || len(out) != 121 {
				t.Fatalf("%d iterations, %d lines; want %d and 1+120", head.Iterations, len(out), iter)
			}
			want, _ = nb.AdjustPriors(nil, plain, assumed, q)
			near(t, "--estimate-priors", probas(t, out[1:], m.Classes), want)

			// The plain form: "# prior" lines, "# iterations", predictions.
			out = lines(mustRun(t, texts, "predict", "-m", path, "--estimate-priors", "-"))
			if !strings.HasPrefix(out[0], "# prior\tham\t") || !strings.HasPrefix(out[1], "# prior\tspam\t") ||
				out[2] != "# iterations\t"+strconv.Itoa(iter) || !strings.HasPrefix(out[3], "stdin:1\t") || len(out) != 123 {
				t.Fatalf("plain --estimate-priors starts\n%s", strings.Join(out[:4], "\n"))
			}
			if est := num(t, strings.Split(out[1], "\t")[2]); math.Abs(est-q[1]) > 1e-5 {
				t.Fatalf("printed spam prior %g, want %g", est, q[1])
			}
		})
	}
}

func TestCLIEvalPriors(t *testing.T) {
	model := trainTo(t, spamTSV, "--model", "mnb")
	plain := mustRun(t, "", "eval", "-m", model, spamTSV)
	// Telling the model that spam is rare makes it predict less spam.
	shifted := mustRun(t, "", "eval", "-m", model, "--priors", "spam=0.001,ham=0.999", spamTSV)
	if plain == shifted || !strings.HasPrefix(shifted, "documents 120\n") {
		t.Fatalf("eval --priors:\n%s", shifted)
	}
	out := lines(mustRun(t, "", "eval", "-m", model, "--estimate-priors", "--json", spamTSV))
	var head struct {
		Priors map[string]float64 `json:"priors"`
	}
	var ev metrics.Evaluation
	if len(out) != 2 || json.Unmarshal([]byte(out[0]), &head) != nil || json.Unmarshal([]byte(out[1]), &ev) != nil {
		t.Fatalf("eval --estimate-priors --json:\n%s", strings.Join(out, "\n"))
	}
	// The training data is 25% spam; its own posteriors should say so.
	if math.Abs(head.Priors["spam"]-0.25) > 0.05 || ev.N != 120 {
		t.Fatalf("estimated %v on the training data (25%% spam), %d documents", head.Priors, ev.N)
	}
}
