// Command learn measures textnb learn against training, as issue 35 states
// the figure: "textnb learn of 1,000 documents into a 20 Newsgroups model
// costs ≤ 2× training those 1,000 alone plus one save". For each
// configuration it trains a model on 20 Newsgroups' training set, then
// times, as whole processes, training on 1,000 documents of its test set
// (50 a class) alone and learning them into a copy of the model, and, in
// this process, one save of the learned model. It also times the library's
// Learn of single documents: into the 20 Newsgroups models and into SMS
// Spam Collection models (SMS-sized texts).
//
//	go run ./benchmarks/learn [-runs 3] [-news DIR]
//
// -news names an unpacked 20news-bydate-train folder (the test folder
// beside it); without it the shared archive is unpacked.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/textnb/textnb/benchmarks/internal/bench"
	"github.com/textnb/textnb/corpus"
	"github.com/textnb/textnb/internal/modelfile"
	"github.com/textnb/textnb/internal/pipeline"
)

func main() {
	runs := flag.Int("runs", 3, "runs of each timed process (medians are printed)")
	news := flag.String("news", "", "unpacked 20news-bydate-train folder (default: unpack the shared archive)")
	single := flag.Int("single", 1000, "documents learned one at a time by the library, per model")
	flag.Parse()
	log.SetFlags(0)
	tmp, bin, cleanup := bench.Workdir("textnb-learn-")
	defer cleanup()
	train := *news
	test := filepath.Join(filepath.Dir(train), "20news-bydate-test")
	if train == "" {
		var err error
		if train, test, err = bench.Unpack20News(tmp); err != nil {
			log.Fatal(err)
		}
	}
	fresh := filepath.Join(tmp, "fresh1000")
	docs, err := pick(test, fresh, 50)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s; %d runs, medians; times are wall (CPU) seconds\n\n", bench.Describe(bin), *runs)
	fmt.Println("| model | train on 1,000 | save learned model | learn 1,000 | learn ÷ (2×train + save), wall (CPU) | (learn − save) ÷ train, wall (CPU) |")
	fmt.Println("|---|---|---|---|---|---|")
	type model struct {
		name  string
		flags []string
	}
	models := []model{{"default (tf-idf, cv-chosen α)", nil}, {"--weighting counts", []string{"--weighting", "counts"}}}
	paths := map[string]string{}
	for i, c := range models {
		base := filepath.Join(tmp, fmt.Sprintf("base%d.model", i))
		if _, err := bench.Run(nil, bin, append([]string{"train", "--quiet", "-o", base, train}, c.flags...)...); err != nil {
			log.Fatal(err)
		}
		paths[c.name] = base
		small := filepath.Join(tmp, "small.model")
		trainT := median(*runs, func() bench.Result {
			return must(bench.Run(nil, bin, append([]string{"train", "--quiet", "-o", small, fresh}, c.flags...)...))
		})
		work := filepath.Join(tmp, "work.model")
		learnT := median(*runs, func() bench.Result {
			copyFile(base, work)
			return must(bench.Run(nil, bin, "learn", "--quiet", "-m", work, fresh))
		})
		m, err := pipeline.Load(work)
		if err != nil {
			log.Fatal(err)
		}
		out := filepath.Join(tmp, "saved.model")
		saveT := median(*runs, func() bench.Result {
			start := time.Now()
			if err := modelfile.Save(out, m); err != nil {
				log.Fatal(err)
			}
			d := time.Since(start)
			return bench.Result{Wall: d, CPU: d}
		})
		fmt.Printf("| %s | %s | %s | %s | %.2f (%.2f) | %.2f (%.2f) |\n", c.name, secs(trainT), secs(saveT), secs(learnT),
			learnT.Wall.Seconds()/(2*trainT.Wall.Seconds()+saveT.Wall.Seconds()),
			learnT.CPU.Seconds()/(2*trainT.CPU.Seconds()+saveT.CPU.Seconds()),
			(learnT.Wall.Seconds()-saveT.Wall.Seconds())/trainT.Wall.Seconds(),
			(learnT.CPU.Seconds()-saveT.CPU.Seconds())/trainT.CPU.Seconds())
	}
	fmt.Println("\nLibrary: Model.Learn of one document at a time (the model's lock included)")
	fmt.Println()
	fmt.Println("| corpus | model | features | µs per Learn | µs per Predict |")
	fmt.Println("|---|---|---|---|---|")
	for _, c := range models {
		m, err := pipeline.Load(paths[c.name])
		if err != nil {
			log.Fatal(err)
		}
		n := *single
		if c.flags == nil {
			n = min(n, 20) // every Learn refits the whole model
		}
		learnEach("20 Newsgroups", c.name, m, docs[:min(n, len(docs))])
	}
	smsDocs, err := bench.ReadSMS()
	if err != nil {
		log.Fatal(err)
	}
	sms := filepath.Join(tmp, "sms.tsv")
	if sms, err = bench.LinkSMS(tmp); err != nil {
		log.Fatal(err)
	}
	for _, c := range models {
		out := filepath.Join(tmp, "sms.model")
		if _, err := bench.Run(nil, bin, append([]string{"train", "--quiet", "-o", out, sms}, c.flags...)...); err != nil {
			log.Fatal(err)
		}
		m, err := pipeline.Load(out)
		if err != nil {
			log.Fatal(err)
		}
		learnEach("SMS Spam Collection", c.name, m, smsDocs[:min(*single, len(smsDocs))])
	}
}

// learnEach times m.Learn of each document, then a Predict of each.
func learnEach(corpusName, name string, m *pipeline.Model, docs []corpus.Document) {
	p := m.NewPredictor()
	for _, d := range docs[:min(10, len(docs))] { // warm: the learner is made on the first Learn
		p.Proba(nil, d.Text)
	}
	if err := m.Learn(docs[0].Label, docs[0].Text); err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	for _, d := range docs {
		if err := m.Learn(d.Label, d.Text); err != nil {
			log.Fatal(err)
		}
	}
	learn := time.Since(start)
	start = time.Now()
	for _, d := range docs {
		p.Proba(nil, d.Text)
	}
	predict := time.Since(start)
	fmt.Printf("| %s | %s | %d | %.1f | %.1f |\n", corpusName, name, m.NumFeatures(),
		float64(learn.Microseconds())/float64(len(docs)), float64(predict.Microseconds())/float64(len(docs)))
}

// pick copies the first n files of each class folder of src into dst and
// returns them as documents.
func pick(src, dst string, n int) ([]corpus.Document, error) {
	classes, err := os.ReadDir(src)
	if err != nil {
		return nil, err
	}
	var docs []corpus.Document
	for _, c := range classes {
		if !c.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(src, c.Name()))
		if err != nil {
			return nil, err
		}
		sort.Slice(files, func(i, j int) bool { return files[i].Name() < files[j].Name() })
		if err := os.MkdirAll(filepath.Join(dst, c.Name()), 0o755); err != nil {
			return nil, err
		}
		for _, f := range files[:min(n, len(files))] {
			to := filepath.Join(dst, c.Name(), f.Name())
			copyFile(filepath.Join(src, c.Name(), f.Name()), to)
		}
	}
	_, err = corpus.Walk(dst, corpus.Options{}, func(d corpus.Document) error {
		docs = append(docs, d)
		return nil
	})
	return docs, err
}

func copyFile(src, dst string) {
	in, err := os.Open(src)
	if err != nil {
		log.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}

func must(r bench.Result, err error) bench.Result {
	if err != nil {
		log.Fatal(err)
	}
	return r
}

// median runs f n times and returns the run of median wall time.
func median(n int, f func() bench.Result) bench.Result {
	rs := make([]bench.Result, n)
	for i := range rs {
		rs[i] = f()
	}
	slices.SortFunc(rs, func(a, b bench.Result) int { return int(a.Wall - b.Wall) })
	return rs[n/2]
}

func secs(r bench.Result) string {
	return fmt.Sprintf("%.2f (%.2f)", r.Wall.Seconds(), r.CPU.Seconds())
}
