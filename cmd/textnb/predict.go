package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"

	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/pipeline"
)

func runPredict(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("predict", "predict -m MODEL [--json] [--top K] [--priors C=P,…|--estimate-priors] PATH…|-\n\n"+
		"With a table model (train --model gaussian|categorical) every PATH is a .csv or .tsv table whose\n"+
		"header names the model's feature columns (in any order; other columns, such as the label, are\n"+
		"ignored); each row prints as FILE:LINE", stderr)
	modelPath := fs.String("m", "", "model `file` (required)")
	asJSON := fs.Bool("json", false, "print one JSON object per document with every class's probability")
	top := fs.Int("top", 1, "print the K most probable classes")
	pf := newPriorFlags(fs)
	threshold := thresholdFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *modelPath == "" || len(pos) == 0 {
		return fmt.Errorf("%w: need -m MODEL and at least one PATH or - (see --help)", errUsage)
	}
	if *top < 1 {
		return fmt.Errorf("%w: --top %d: want K ≥ 1", errUsage, *top)
	}
	if isMultiModel(*modelPath) {
		return predictMulti(fs, *modelPath, pos, stdin, stdout, *asJSON, *top, *threshold)
	}
	if set(fs, "threshold") {
		return fmt.Errorf("%w: --threshold applies to multi-label models", errUsage)
	}
	c, err := openClassifier(*modelPath, inputs{stdin: stdin})
	if err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	p := printer{classes: c.classes(), w: w, json: *asJSON, top: min(*top, len(c.classes()))}
	sh, err := pf.shift(c.classes(), c.priors(), p.print)
	if err != nil {
		return err
	}
	if err := c.feed(pos, sh.add); err != nil {
		return err
	}
	return sh.finish(w, stderr, *asJSON)
}

// addInput queues one command-line input: "-" is standard input with one
// document per line; a file is one document; a folder holds one per file.
func addInput(b *pipeline.Batch, path string, stdin io.Reader) error {
	if path == "-" {
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for n := 1; sc.Scan(); n++ {
			text, _ := corpus.Decode(sc.Bytes())
			b.Add("stdin:"+strconv.Itoa(n), "", text)
		}
		return sc.Err()
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text, _ := corpus.Decode(data)
		b.Add(path, "", text)
		return nil
	}
	return corpus.Walk(path, corpus.Options{Unlabeled: true}, func(d corpus.Document) error {
		b.Add(d.Source, "", d.Text)
		return nil
	})
}

type printer struct {
	classes []string
	w       io.Writer
	json    bool
	top     int
}

type jsonPrediction struct {
	Source string             `json:"source"`
	Label  string             `json:"label"`
	Proba  map[string]float64 `json:"proba"`
	Top    []jsonClass        `json:"top,omitempty"`
}

type jsonClass struct {
	Label string  `json:"label"`
	P     float64 `json:"p"`
}

func (p printer) print(r pipeline.Prediction) {
	order := p.ranked(r.Proba)
	if p.json {
		j := jsonPrediction{Source: r.Source, Label: p.classes[r.Class], Proba: map[string]float64{}}
		for c, v := range r.Proba {
			j.Proba[p.classes[c]] = v
		}
		if p.top > 1 {
			for _, c := range order {
				j.Top = append(j.Top, jsonClass{p.classes[c], r.Proba[c]})
			}
		}
		b, _ := json.Marshal(j)
		fmt.Fprintf(p.w, "%s\n", b)
		return
	}
	fmt.Fprint(p.w, r.Source)
	for _, c := range order {
		fmt.Fprintf(p.w, "\t%s\t%.6g", p.classes[c], r.Proba[c])
	}
	fmt.Fprintln(p.w)
}

// ranked returns the top class indices, most probable first, ties by index.
func (p printer) ranked(proba []float64) []int {
	idx := make([]int, len(proba))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return proba[idx[a]] > proba[idx[b]] })
	return idx[:p.top]
}
