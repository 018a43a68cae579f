package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	facade "github.com/textnb/textnb"
)

// irisFiles is an iris-like table with a constant column and a coded
// colour, and a table to predict: other column order, an id column, no
// label, a length far outside the training range and an unseen colour.
var irisFiles = map[string]string{
	"iris.csv": "length,species,width,const,colour\n" +
		"5.1,setosa,3.5,7,0\n4.9,setosa,3.0,7,0\n4.7,setosa,3.2,7,0\n5.0,setosa,3.6,7,1\n5.4,setosa,3.9,7,0\n" +
		"7.0,versicolor,2.2,7,1\n6.4,versicolor,2.3,7,2\n6.9,versicolor,2.1,7,1\n6.5,versicolor,2.8,7,1\n6.3,versicolor,2.5,7,2\n",
	"new.tsv": "id\tcolour\twidth\tconst\tlength\n" +
		"a\t0\t3.4\t7\t5.0\n" +
		"b\t1\t2.2\t7\t6.8\n" +
		"c\t9\t2.0\t7\t400\n",
}

func trainIris(t *testing.T, kind string, args ...string) (model, root string) {
	t.Helper()
	root = write(t, irisFiles)
	model = filepath.Join(root, kind+".model")
	out := mustRun(t, "", append([]string{"train", filepath.Join(root, "iris.csv"), "--model", kind, "--label-field", "species", "-o", model}, args...)...)
	if !strings.HasPrefix(out, "trained "+kind+" on 10 rows, 2 classes, 4 feature columns\n") {
		t.Fatalf("train summary %q", out)
	}
	return model, root
}

func TestCLITable(t *testing.T) {
	for _, kind := range []string{"gaussian", "categorical"} {
		t.Run(kind, func(t *testing.T) {
			model, root := trainIris(t, kind)
			newRows := filepath.Join(root, "new.tsv")
			rows := lines(mustRun(t, "", "predict", "-m", model, "--top", "2", newRows))
			if len(rows) != 3 {
				t.Fatalf("predict: %q", rows)
			}
			for i, r := range rows {
				f := strings.Split(r, "\t")
				if len(f) != 5 || f[0] != newRows+":"+string(rune('2'+i)) || math.IsNaN(num(t, f[2])) || num(t, f[2]) < num(t, f[4]) {
					t.Fatalf("predict line %q", r)
				}
			}
			if !strings.Contains(rows[0], "\tsetosa\t") || !strings.Contains(rows[1], "\tversicolor\t") {
				t.Errorf("predictions:\n%s", strings.Join(rows, "\n"))
			}
			for _, l := range lines(mustRun(t, "", "predict", "-m", model, "--json", newRows)) {
				var p jsonPrediction
				if err := json.Unmarshal([]byte(l), &p); err != nil || math.Abs(p.Proba["setosa"]+p.Proba["versicolor"]-1) > 1e-9 {
					t.Fatalf("--json line %s (%v)", l, err)
				}
			}

			iris := filepath.Join(root, "iris.csv")
			report := mustRun(t, "", "eval", "-m", model, "--label-field", "species", iris)
			if !strings.HasPrefix(report, "documents 10\naccuracy  1.0000\n") || !strings.Contains(report, "confusion matrix") {
				t.Fatalf("eval report:\n%s", report)
			}

			// Prior correction works on table models too.
			out := lines(mustRun(t, "", "predict", "-m", model, "--estimate-priors", iris))
			if len(out) != 13 || !strings.HasPrefix(out[0], "# prior\tsetosa\t") {
				t.Fatalf("--estimate-priors:\n%s", strings.Join(out, "\n"))
			}
			shifted := lines(mustRun(t, "", "predict", "-m", model, "--priors", "setosa=0.999,versicolor=0.001", newRows))
			if len(shifted) != 3 || num(t, strings.Split(shifted[0], "\t")[2]) < num(t, strings.Split(rows[0], "\t")[2]) {
				t.Fatalf("--priors favouring setosa: %q, before %q", shifted[0], rows[0])
			}
		})
	}
}

func TestCLITableErrors(t *testing.T) {
	model, root := trainIris(t, "gaussian")
	files := write(t, map[string]string{
		"short.csv":  "length,width\n1,2\n",
		"bad.csv":    "length,width,const,colour\n1,2,3,4\n1,two,3,4\n",
		"one.csv":    "label,a\nx,1\nx,2\n",
		"header.csv": "length,width,const,colour\n",
		"doc.txt":    "some text",
		"text.csv":   "text,score\nsome text,1\n",
		"huge.csv":   "length,width,const,colour\n5,3,7,0\n1e300,3,7,0\n",
	})
	iris := filepath.Join(root, "iris.csv")
	for _, tc := range []struct {
		code int
		msgs []string
		args []string
	}{
		{1, []string{"short.csv", `no columns "const" and "colour"`}, []string{"predict", "-m", model, filepath.Join(files, "short.csv")}},
		{1, []string{"bad.csv:3", `("width")`, `"two" is not a finite number`}, []string{"predict", "-m", model, filepath.Join(files, "bad.csv")}},
		{1, []string{"huge.csv:3", "overflow"}, []string{"predict", "-m", model, filepath.Join(files, "huge.csv")}},
		{1, []string{"header.csv", "no rows"}, []string{"predict", "-m", model, filepath.Join(files, "header.csv")}},
		{1, []string{"doc.txt", "a table is a .csv or .tsv file"}, []string{"predict", "-m", model, filepath.Join(files, "doc.txt")}},
		{1, []string{"a table is a .csv or .tsv file"}, []string{"predict", "-m", model, "-"}},
		{1, []string{`no label column "label"`, "--label-field"}, []string{"eval", "-m", model, "--label-field", "label", iris}}, // not the stored "species"
		{1, []string{"only one class", `"x"`}, []string{"train", filepath.Join(files, "one.csv"), "--model", "categorical", "-o", filepath.Join(files, "x.model")}},
		{1, []string{`no label column "label"`, "--label-field"}, []string{"train", iris, "--model", "gaussian", "-o", filepath.Join(files, "x.model")}},
		{2, []string{"--bins applies only to --model categorical"}, []string{"train", iris, "--model", "gaussian", "--bins", "3", "--label-field", "species", "-o", filepath.Join(files, "x.model")}},
		{2, []string{"--bins applies only to --model categorical"}, []string{"train", spamTSV, "--bins", "3", "-o", filepath.Join(files, "x.model")}},
		{2, []string{"--ngrams applies only to text models"}, []string{"train", iris, "--model", "categorical", "--ngrams", "1,1", "--label-field", "species", "-o", filepath.Join(files, "x.model")}},
		{1, []string{"2..", "bins"}, []string{"train", iris, "--model", "categorical", "--bins", "1", "--label-field", "species", "-o", filepath.Join(files, "x.model")}},
	} {
		mustFail(t, tc.code, tc.msgs, tc.args...)
	}
	// With several misused flags the error names the first by name, every
	// time: --alpha before --ngrams and --stem.
	for range 8 {
		mustFail(t, 2, []string{"--alpha applies only to --model categorical"}, "train", iris, "--model", "gaussian",
			"--stem", "--ngrams", "1,1", "--alpha", "1", "--label-field", "species", "-o", filepath.Join(files, "x.model"))
	}
	// A text model with a table and a table model with text are each read
	// as what the model expects, with a message saying what is missing.
	text := trainTo(t, spamTSV)
	mustFail(t, 1, []string{`no text column "text"`, "--text-field"}, "eval", "-m", text, iris)
	mustFail(t, 1, []string{`no label column "label"`, "--label-field"}, "train", filepath.Join(files, "text.csv"), "-o", filepath.Join(files, "x.model"))
	mustFail(t, 1, []string{`no label column "species"`}, "eval", "-m", model, spamTSV)
	mustFail(t, 1, []string{`no columns "length", "width", "const" and "colour"`}, "eval", "-m", model, "--label-field", "label", spamTSV)
}

func TestCLICategoricalBins(t *testing.T) {
	model, root := trainIris(t, "categorical", "--bins", "3", "--alpha", "0.5")
	report := mustRun(t, "", "eval", "-m", model, "--label-field", "species", "--json", filepath.Join(root, "iris.csv"))
	var ev struct{ N int }
	if err := json.Unmarshal([]byte(report), &ev); err != nil || ev.N != 10 {
		t.Fatalf("eval --json %s (%v)", report, err)
	}
	// The flags reach TrainTable, whose test checks the bins it fits.
	c, err := facade.Open(model)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := c.Inspect(0); err != nil || info.Settings.Alpha != 0.5 || info.Settings.Bins != 3 {
		t.Fatalf("settings %+v (%v); want alpha 0.5 and 3 bins", info.Settings, err)
	}
}

// TestCLITableSharedFlags checks that the train flags that mean the same
// for every kind of model are taken with a table model too, and change
// nothing in it.
func TestCLITableSharedFlags(t *testing.T) {
	for _, kind := range []string{"gaussian", "categorical"} {
		plain, _ := trainIris(t, kind)
		shared, _ := trainIris(t, kind, "--quiet", "--fast")
		a, err := os.ReadFile(plain)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(shared)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: --quiet --fast changed the model file", kind)
		}
	}
}
