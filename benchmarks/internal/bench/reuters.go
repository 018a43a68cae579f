package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/multilabel"
)

// WriteMultiFolds deals the multi-label stories of a .jsonl file into k
// folds as benchmarks/reuters does (multilabel.AssignFolds with seed) and
// writes each fold's training and test part as .jsonl files of {"labels",
// "text"} under dir; Fold.Assign holds each story's fold.
func WriteMultiFolds(dir, path string, k int, seed uint64) (Fold, error) {
	var docs []corpus.MultiDocument
	if _, err := corpus.WalkMulti(path, corpus.Options{}, func(d corpus.MultiDocument) error {
		docs = append(docs, d)
		return nil
	}); err != nil {
		return Fold{}, err
	}
	f := Fold{Assign: multilabel.AssignFolds(len(docs), k, seed), Source: path}
	items := make([]Item, len(docs))
	for i, d := range docs {
		items[i] = Item{Label: strings.Join(d.Labels, "\x00"), Text: d.Text}
	}
	f.Fingerprint = ItemsFingerprint(items, 0) + fmt.Sprint(f.Assign)
	for q := 0; q < k; q++ {
		d := filepath.Join(dir, fmt.Sprintf("fold%02d", q))
		if err := os.MkdirAll(d, 0o755); err != nil {
			return f, err
		}
		s := Split{Train: filepath.Join(d, "train.jsonl"), Test: filepath.Join(d, "test.jsonl")}
		files := map[bool]*json.Encoder{}
		for test, p := range map[bool]string{false: s.Train, true: s.Test} {
			fh, err := os.Create(p)
			if err != nil {
				return f, err
			}
			defer fh.Close()
			files[test] = json.NewEncoder(fh)
			files[test].SetEscapeHTML(false)
		}
		for i, d := range docs {
			test := f.Assign[i] == q
			if test {
				s.N++
			}
			if err := files[test].Encode(struct {
				Labels []string `json:"labels"`
				Text   string   `json:"text"`
			}{d.Labels, d.Text}); err != nil {
				return f, err
			}
		}
		f.Splits = append(f.Splits, s)
	}
	return f, nil
}

// ReutersRow is one row of benchmarks/reuters/sklearn_reuters.py --json.
type ReutersRow struct {
	Name        string  `json:"name"`
	MicroF1     float64 `json:"micro_f1"`
	MacroF1     float64 `json:"macro_f1"`
	FitPredictS float64 `json:"fit_predict_s"`
}

// SklearnReuters returns the rows of sklearn_reuters.py on the folds of f
// (from WriteMultiFolds), cached; with cachedOnly, nil unless cached.
func SklearnReuters(c *Cache, f Fold, k int, cachedOnly bool) ([]ReutersRow, error) {
	key := fmt.Sprintf("reuters %s %s", hashString(f.Fingerprint), ScriptsHash("reuters/sklearn_reuters.py"))
	var rows []ReutersRow
	if c.Get(key, 0, &rows) || cachedOnly {
		return rows, nil
	}
	tmp, err := os.CreateTemp("", "reuters-folds-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if err := json.NewEncoder(tmp).Encode(f.Assign); err != nil {
		return nil, err
	}
	tmp.Close()
	cmd := exec.Command(Python(), filepath.Join(root(), "benchmarks", "reuters", "sklearn_reuters.py"), "--json", f.Source, tmp.Name(), fmt.Sprint(k))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sklearn_reuters.py: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		var r ReutersRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("sklearn_reuters.py: %v", err)
		}
		rows = append(rows, r)
	}
	return rows, c.Put(key, 0, rows)
}
