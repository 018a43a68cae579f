package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// classColumn returns the class names of eval's per-class table, in order.
func classColumn(t *testing.T, report string) []string {
	t.Helper()
	var names []string
	in := false
	for _, l := range lines(report) {
		f := strings.Fields(l)
		switch {
		case len(f) > 1 && f[0] == "#" && f[1] == "class":
			in = true
		case in && len(f) == 6:
			names = append(names, f[1])
		case in:
			return names
		}
	}
	return names
}

// TestCLIEvalOrderAndErrors checks the class order of eval's report, the
// numbered columns of its confusion matrix and its list of errors.
func TestCLIEvalOrderAndErrors(t *testing.T) {
	// Trained on a corpus whose first label sorts last. (English text: a
	// Chinese one would load the segmenter's dictionary, whose heap stays
	// live and upsets TestTuneGCFollowsCollections.)
	var b strings.Builder
	b.WriteString("label\ttext\n")
	for i := range 12 {
		fmt.Fprintf(&b, "zulu\tzebra zone zigzag %d\nalpha\tapple anchor arrow %d\nmike\tmoon mountain %d\n", i, i, i)
	}
	b.WriteString("zulu\tapple moon\nalpha\tzebra moon\n") // errors for the matrix
	corpus := filepath.Join(write(t, map[string]string{"c.tsv": b.String()}), "c.tsv")
	model := trainTo(t, corpus)
	m, err := loadPipeline(model)
	if err != nil {
		t.Fatal(err)
	}
	byName := slices.Sorted(slices.Values(m.Classes))
	if slices.Equal(byName, m.Classes) {
		t.Fatalf("classes %v already sorted: the test needs another order", m.Classes)
	}
	rep := mustRun(t, "", "eval", "-m", model, corpus)
	if got := classColumn(t, rep); !slices.Equal(got, byName) {
		t.Errorf("default order %v, want %v", got, byName)
	}
	if got := classColumn(t, mustRun(t, "", "eval", "-m", model, "--order", "seen", corpus)); !slices.Equal(got, m.Classes) {
		t.Errorf("--order seen: %v, want %v", got, m.Classes)
	}
	// The matrix's columns are numbered; its rows are numbered and named.
	i := strings.Index(rep, "confusion matrix")
	if i < 0 {
		t.Fatalf("no confusion matrix:\n%s", rep)
	}
	matrix := lines(rep[i:])[1 : 2+len(byName)]
	if f := strings.Fields(matrix[0]); !slices.Equal(f, []string{"1", "2", "3"}[:len(byName)]) {
		t.Errorf("column header %q", matrix[0])
	}
	for k, row := range matrix[1:] {
		if f := strings.Fields(row); len(f) != 2+len(byName) || f[0] != string(rune('1'+k)) || f[1] != byName[k] {
			t.Errorf("matrix row %q", row)
		}
	}
	mustFail(t, 2, []string{"--order", "alpha"}, "eval", "-m", model, "--order", "alpha", corpus)

	// --errors lists misclassified documents, as predict classifies them.
	news := trainTo(t, newsTrain)
	var ev evalReport
	if err := json.Unmarshal([]byte(mustRun(t, "", "eval", "-m", news, "--json", "--errors", "3", newsTest)), &ev); err != nil {
		t.Fatal(err)
	}
	wrong := ev.Misclassified()
	if wrong < 3 || len(ev.Errors) != 3 {
		t.Fatalf("%d errors listed of %d", len(ev.Errors), wrong)
	}
	for _, e := range ev.Errors {
		got := strings.Split(lines(mustRun(t, "", "predict", "-m", news, e.Source))[0], "\t")
		if e.Truth == e.Predicted || got[1] != e.Predicted || !strings.Contains(e.Source, "/"+e.Truth+"/") || e.P <= e.PTrue {
			t.Errorf("error %+v; predict says %q", e, got)
		}
	}
	text := mustRun(t, "", "eval", "-m", news, "--errors", "2", newsTest)
	if !strings.Contains(text, "misclassified documents (first 2 of ") || !strings.Contains(text, ev.Errors[0].Source+"\ttrue "+ev.Errors[0].Truth) {
		t.Errorf("eval --errors 2:\n%s", text)
	}
	if strings.Contains(mustRun(t, "", "eval", "-m", news, "--json", newsTest), `"errors"`) {
		t.Error("eval --json lists errors without --errors")
	}
}
