// Command selectcost measures what the roaring posting bitmaps of
// internal/postings cost and save when feature selection counts each term's
// documents per class (the cells of its χ² and mutual information tables):
// on 20 Newsgroups' training split (20 classes) and on the Reuters-21578
// training stories (90 labels, several per story), for word 1–2-grams with
// min_df 2. It prints one table per corpus: the time and extra memory of
// each way to count, all of which must agree.
//
//	go run ./benchmarks/selectcost [-runs 5]
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/parallel"
	"github.com/textnb/textnb/internal/postings"
	"github.com/textnb/textnb/internal/sparse"
	"github.com/textnb/textnb/internal/vocab"
	"github.com/textnb/textnb/tokenize"
)

func main() {
	runs := flag.Int("runs", 5, "runs of each method (the table shows the median)")
	flag.Parse()
	log.SetFlags(0)
	dir, err := os.MkdirTemp("", "selectcost-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	train, _, err := bench.Unpack20News(dir)
	if err != nil {
		log.Fatal(err)
	}
	measure("20 Newsgroups train", readSingle(train), *runs)
	measure("Reuters-21578 ModApte train", read(filepath.Join(bench.Shared(), "data", "reuters21578-modapte-train.jsonl")), *runs)
}

type doc struct {
	classes []string
	text    string
}

func read(path string) []doc {
	var docs []doc
	_, err := corpus.WalkMulti(path, corpus.Options{}, func(d corpus.MultiDocument) error {
		docs = append(docs, doc{d.Labels, d.Text})
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	return docs
}

// readSingle reads a single-label corpus: 20 Newsgroups has files of one
// name but different texts in several groups, which a multi-label folder
// corpus would take for copies of one document.
func readSingle(path string) []doc {
	var docs []doc
	_, err := corpus.Walk(path, corpus.Options{}, func(d corpus.Document) error {
		docs = append(docs, doc{[]string{d.Label}, d.Text})
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	return docs
}

func measure(name string, docs []doc, runs int) {
	an := tokenize.New(tokenize.Config{WordNGrams: tokenize.NGramRange{Min: 1, Max: 2}})
	vb := vocab.NewBuilder()
	ids := map[string]int32{}
	of := make([][]int32, len(docs)) // each document's classes
	var terms []string
	for i, d := range docs {
		terms = an.Terms(terms[:0], d.text)
		vb.Add(terms)
		for _, c := range d.classes {
			if _, ok := ids[c]; !ok {
				ids[c] = int32(len(ids))
			}
			of[i] = append(of[i], ids[c])
		}
	}
	_, X, err := vocab.Finish(vocab.Config{MinDF: 2, Binary: true}, vb)
	if err != nil {
		log.Fatal(err)
	}
	C := len(ids)
	classes := make([]*roaring.Bitmap, C)
	for c := range classes {
		classes[c] = roaring.New()
	}
	for i, cs := range of {
		for _, c := range cs {
			classes[c].Add(uint32(i))
		}
	}
	var post *postings.Postings
	build := median(runs, func() {
		if post, err = postings.New(X, 0); err != nil {
			log.Fatal(err)
		}
	})
	F := post.Cols()
	var bitmapBytes uint64
	dense := 0
	for j := range F {
		if post.HasBitmap(j) {
			dense++
			bitmapBytes += post.Docs(j).GetSizeInBytes()
		}
	}
	fmt.Printf("%s: %d documents, %d classes, %d terms (%d with a bitmap: df ≥ %d), %d postings\n\n",
		name, len(docs), C, F, dense, postings.DenseDF, X.NNZ())
	fmt.Printf("postings (row ids by term, 4 bytes each) %.1f MiB, their bitmaps %.1f MiB, built in %.0f ms\n\n",
		mib(4*uint64(X.NNZ())), mib(bitmapBytes), ms(build))

	want := make([]int32, F*C)
	methods := []struct {
		name, memory string
		count        func(out []int32)
	}{
		{"bitmaps where a term has one (AndCardinality), else its row ids' classes", "none",
			func(out []int32) { hybrid(post, classes, of, out) }},
		{"row ids' classes only (no bitmaps): as --select counts", "none",
			func(out []int32) { rowsOnly(post, of, out) }},
		{"a bitmap for every term", "", nil},
		{"one pass over the rows into a terms × classes table", fmt.Sprintf("%.1f MiB", mib(4*uint64(F*C))),
			func(out []int32) { byRows(X, of, C, out) }},
	}
	all := allBitmaps(post)
	var allBytes uint64
	for _, b := range all {
		allBytes += b.GetSizeInBytes()
	}
	methods[2].memory = fmt.Sprintf("%.1f MiB of bitmaps", mib(allBytes))
	methods[2].count = func(out []int32) { everyBitmap(all, classes, out) }
	fmt.Printf("| per-class document counts | median ms | extra memory | agrees |\n|---|---|---|---|\n")
	for k, m := range methods {
		out := make([]int32, F*C)
		d := median(runs, func() { clear(out); m.count(out) })
		if k == 0 {
			copy(want, out)
		}
		fmt.Printf("| %s | %.0f | %s | %v |\n", m.name, ms(d), m.memory, slices.Equal(out, want))
	}
	fmt.Println()
}

func hybrid(post *postings.Postings, classes []*roaring.Bitmap, of [][]int32, out []int32) {
	C := len(classes)
	parallel.Chunks(post.Cols(), 1024, 0, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			row := out[j*C : (j+1)*C]
			if post.HasBitmap(j) {
				for c, b := range classes {
					row[c] = int32(post.DFIn(j, b))
				}
				continue
			}
			for _, r := range post.ColumnRows(j) {
				for _, c := range of[r] {
					row[c]++
				}
			}
		}
	})
}

func rowsOnly(post *postings.Postings, of [][]int32, out []int32) {
	C := len(out) / post.Cols()
	parallel.Chunks(post.Cols(), 1024, 0, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			row := out[j*C : (j+1)*C]
			for _, r := range post.ColumnRows(j) {
				for _, c := range of[r] {
					row[c]++
				}
			}
		}
	})
}

func allBitmaps(post *postings.Postings) []*roaring.Bitmap {
	out := make([]*roaring.Bitmap, post.Cols())
	for j := range out {
		out[j] = roaring.BitmapOf(post.ColumnRows(j)...)
	}
	return out
}

func everyBitmap(all, classes []*roaring.Bitmap, out []int32) {
	C := len(classes)
	parallel.Chunks(len(all), 1024, 0, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			for c, b := range classes {
				out[j*C+c] = int32(all[j].AndCardinality(b))
			}
		}
	})
}

func byRows(X *sparse.CSR, of [][]int32, C int, out []int32) {
	for i := range X.Rows {
		idx, _ := X.Row(i)
		for _, j := range idx {
			for _, c := range of[i] {
				out[int(j)*C+int(c)]++
			}
		}
	}
}

func median(runs int, f func()) time.Duration {
	d := make([]time.Duration, runs)
	for i := range d {
		start := time.Now()
		f()
		d[i] = time.Since(start)
	}
	slices.Sort(d)
	return d[runs/2]
}

func mib(b uint64) float64       { return float64(b) / (1 << 20) }
func ms(d time.Duration) float64 { return float64(d) / 1e6 }
