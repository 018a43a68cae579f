package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// spamRows returns the rows of testdata/spam.tsv as label and text pairs.
func spamRows(t *testing.T) [][2]string {
	t.Helper()
	data, err := os.ReadFile(spamTSV)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][2]string
	for _, l := range lines(string(data))[1:] {
		label, text, _ := strings.Cut(l, "\t")
		rows = append(rows, [2]string{label, text})
	}
	return rows
}

// predictions parses predict --json output.
func predictions(t *testing.T, out string) []jsonPrediction {
	t.Helper()
	var ps []jsonPrediction
	for _, l := range lines(out) {
		var p jsonPrediction
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestCLIPredictLineFiles predicts the rows of the same data as TSV, CSV
// and JSONL files and on standard input: each row is one document, scored
// as the same text alone on a line of standard input, named by its id or
// file:line, with the fields asked for.
func TestCLIPredictLineFiles(t *testing.T) {
	model := trainTo(t, spamTSV)
	rows := spamRows(t)
	want := predictions(t, mustRun(t, spamTexts(t), "predict", "-m", model, "--json", "-"))
	if len(want) != len(rows) {
		t.Fatalf("%d predictions of %d lines", len(want), len(rows))
	}
	var tsv, csv, jsonl strings.Builder
	tsv.WriteString("id\tlabel\ttext\n")
	csv.WriteString("id,label,text\n")
	for i, r := range rows {
		fmt.Fprintf(&tsv, "m%d\t%s\t%s\n", i, r[0], r[1])
		fmt.Fprintf(&csv, "m%d,%s,%q\n", i, r[0], r[1])
		b, _ := json.Marshal(map[string]any{"id": i, "label": r[0], "text": r[1], "meta": map[string]int{"n": i}})
		jsonl.Write(append(b, '\n'))
		if i == 2 {
			jsonl.WriteString("  \n") // blank lines are skipped, as train skips them
		}
	}
	dir := write(t, map[string]string{"d.tsv": tsv.String(), "d.csv": csv.String(), "d.jsonl": jsonl.String()})

	for _, name := range []string{"d.tsv", "d.csv", "d.jsonl"} {
		path := filepath.Join(dir, name)
		plainOut := lines(mustRun(t, "", "predict", "-m", model, path))
		keep := "label"
		if name == "d.jsonl" {
			keep = "label,meta"
		}
		got := predictions(t, mustRun(t, "", "predict", "-m", model, "--json", "--id-field", "id", "--keep-fields", keep, path))
		if len(got) != len(rows) || len(plainOut) != len(rows) {
			t.Fatalf("%s: %d and %d predictions of %d rows", name, len(got), len(plainOut), len(rows))
		}
		for i, p := range got {
			line := i + 2
			if name == "d.jsonl" {
				line = i + 1 + min(1, i/3)
			}
			if !strings.HasPrefix(plainOut[i], path+":"+strconv.Itoa(line)+"\t"+p.Label+"\t") {
				t.Errorf("%s row %d: plain %q", name, i, plainOut[i])
			}
			wantID := "m" + strconv.Itoa(i)
			if name == "d.jsonl" {
				wantID = strconv.Itoa(i)
			}
			if p.Source != wantID || p.File != path || p.Line != line || p.Label != want[i].Label {
				t.Errorf("%s row %d: %+v, want source %s line %d label %s", name, i, p, wantID, line, want[i].Label)
			}
			for c, v := range want[i].Proba {
				if p.Proba[c] != v {
					t.Errorf("%s row %d: p(%s) = %g alone on a line, %g in a row", name, i, c, v, p.Proba[c])
				}
			}
			if p.Fields["label"] != rows[i][0] {
				t.Errorf("%s row %d: kept label %v, want %s", name, i, p.Fields["label"], rows[i][0])
			}
			if meta, ok := p.Fields["meta"].(map[string]any); name == "d.jsonl" && (!ok || meta["n"] != float64(i)) {
				t.Errorf("%s row %d: kept meta %#v: JSON values must keep their type", name, i, p.Fields["meta"])
			}
		}
		// standard input in the same format reads the same rows
		data, _ := os.ReadFile(path)
		format := strings.TrimPrefix(filepath.Ext(name), ".")
		in := predictions(t, mustRun(t, string(data), "predict", "-m", model, "--json", "--format", format, "--id-field", "id", "-"))
		for i, p := range in {
			if p.Source != got[i].Source || p.File != "-" || p.Label != got[i].Label {
				t.Fatalf("stdin --format %s row %d: %+v, file: %+v", format, i, p, got[i])
			}
		}
	}
	// --keep-fields '*' keeps every field; --text-field names another column
	other := write(t, map[string]string{"o.tsv": "body\tn\nwin a free prize\t1\n"})
	p := predictions(t, mustRun(t, "", "predict", "-m", model, "--json", "--text-field", "body", "--keep-fields", "*", filepath.Join(other, "o.tsv")))
	if len(p) != 1 || p[0].Fields["n"] != "1" || p[0].Fields["body"] != "win a free prize" || p[0].Label != "spam" {
		t.Errorf("--text-field body --keep-fields '*': %+v", p)
	}
}

func TestCLIPredictRowErrors(t *testing.T) {
	model := trainTo(t, spamTSV)
	dir := write(t, map[string]string{
		"ok.tsv":     "id\ttext\n1\thello\n",
		"bad.jsonl":  "{\"text\": \"hi\"}\n{\"text\": 3}\n",
		"noid.jsonl": "{\"id\": 1, \"text\": \"hi\"}\n{\"text\": \"hi\"}\n",
		"short.tsv":  "id\ttext\n1\thello\n2\n",
		"a.txt":      "just a document",
		"f/1.txt":    "a document",
	})
	p := func(name string) string { return filepath.Join(dir, name) }
	mustFail(t, 1, []string{p("bad.jsonl") + ":2", `"text"`, "want a string"}, "predict", "-m", model, p("bad.jsonl"))
	mustFail(t, 1, []string{p("noid.jsonl") + ":2", `"id"`}, "predict", "-m", model, "--id-field", "id", p("noid.jsonl"))
	mustFail(t, 1, []string{p("ok.tsv") + ":1", `"nope" (--id-field)`}, "predict", "-m", model, "--id-field", "nope", p("ok.tsv"))
	mustFail(t, 1, []string{p("short.tsv") + ":3", "wrong number of fields"}, "predict", "-m", model, p("short.tsv"))
	mustFail(t, 2, []string{"--keep-fields needs --json"}, "predict", "-m", model, "--keep-fields", "id", p("ok.tsv"))
	mustFail(t, 2, []string{"--format", "xml"}, "predict", "-m", model, "--format", "xml", "-")
	mustFail(t, 2, []string{"need a line file"}, "predict", "-m", model, "--id-field", "id", p("f"))
	mustFail(t, 2, []string{"need a .tsv, .csv or .jsonl"}, "predict", "-m", model, "--id-field", "id", p("a.txt"))
	// a file of another extension is still one document
	if out := lines(mustRun(t, "", "predict", "-m", model, p("a.txt"))); len(out) != 1 || !strings.HasPrefix(out[0], p("a.txt")+"\t") {
		t.Errorf("a.txt: %q", out)
	}
}

// TestCLIPlainEscapes gives predict and eval file and class names holding
// tabs and newlines: plain output must keep one row per document and the
// same number of fields, and --json must name the file and line.
func TestCLIPlainEscapes(t *testing.T) {
	var train strings.Builder
	for i := range 20 {
		fmt.Fprintf(&train, "{\"label\": \"a\\tb\", \"text\": \"apple banana %d\"}\n", i)
		fmt.Fprintf(&train, "{\"label\": \"x\\ny\", \"text\": \"xylophone yak %d\"}\n", i)
	}
	dir := write(t, map[string]string{"t.jsonl": train.String(), "docs/evil\nname\tx.txt": "apple banana", "docs/\"q.txt": "yak"})
	model := trainTo(t, filepath.Join(dir, "t.jsonl"))
	out := lines(mustRun(t, "", "predict", "-m", model, "--top", "2", filepath.Join(dir, "docs")))
	if len(out) != 2 {
		t.Fatalf("2 documents printed as %d lines: %q", len(out), out)
	}
	for _, l := range out {
		if f := strings.Split(l, "\t"); len(f) != 5 {
			t.Errorf("line %q has %d fields, want 5", l, len(f))
		}
	}
	if !strings.HasPrefix(out[0], filepath.Join(dir, "docs", `"q.txt`)+"\t\"x\\ny\"\t") ||
		!strings.HasPrefix(out[1], strconv.Quote(filepath.Join(dir, "docs", "evil\nname\tx.txt"))+"\t\"a\\tb\"\t") {
		t.Errorf("escaped output %q", out)
	}
	js := predictions(t, mustRun(t, "", "predict", "-m", model, "--json", filepath.Join(dir, "docs")))
	if js[1].File != filepath.Join(dir, "docs", "evil\nname\tx.txt") || js[1].Label != "a\tb" {
		t.Errorf("--json: %+v", js[1])
	}
	rep := mustRun(t, "", "eval", "-m", model, "--errors", "5", filepath.Join(dir, "t.jsonl"))
	for _, l := range lines(rep) {
		if strings.HasPrefix(l, "b") || strings.HasPrefix(l, "y") {
			t.Errorf("eval report has a forged line %q:\n%s", l, rep)
		}
	}
	if !strings.Contains(rep, `"a\tb"`) || !strings.Contains(rep, `"x\ny"`) {
		t.Errorf("eval report lacks the escaped class names:\n%s", rep)
	}
}

// TestCLIEvalUnknownLabels evaluates a model on a corpus of thousands of
// labels it never saw: eval must report them and its memory must follow
// the labels, not their square.
func TestCLIEvalUnknownLabels(t *testing.T) {
	model := trainTo(t, spamTSV)
	const unknown = 15000
	var b strings.Builder
	b.WriteString("label\ttext\nham\tsee you at dinner tonight\n")
	for i := range unknown {
		fmt.Fprintf(&b, "u%05d\tword%d\n", i, i)
	}
	dir := write(t, map[string]string{"u.tsv": b.String()})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := mustRun(t, "", "eval", "-m", model, filepath.Join(dir, "u.tsv"))
	runtime.ReadMemStats(&after)
	if mb := float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20); mb > 256 {
		t.Errorf("eval allocated %.0f MB for %d labels", mb, unknown+2)
	}
	if !strings.Contains(out, "unknown   15000 labels the model does not know, in 15000 documents: u00000, u00001, u00002, u00003, u00004, …") ||
		!strings.Contains(out, "confusion matrix left out: 15002 labels") {
		t.Errorf("eval report:\n%.2000s", out)
	}
	var ev evalReport
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", model, "--json", filepath.Join(dir, "u.tsv"))), &ev); err != nil {
		t.Fatal(err)
	}
	if ev.N != unknown+1 || ev.Classes != 2 || ev.UnknownDocs != unknown || len(ev.Confused) != unknown || ev.Confusion != nil {
		t.Errorf("eval --json: n %d classes %d unknown documents %d confused pairs %d", ev.N, ev.Classes, ev.UnknownDocs, len(ev.Confused))
	}
}
